/* tprof-spill-record.c — one spill record: its checksummed header, and its append to the file in one writev(). */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <unistd.h>

#include "tprof-crc32c.h"
#include "tprof-spill-record-internal.h"

static const uint8_t zero_padding[8];

size_t
_tprof_spill_record_head (uint8_t             head[TPROF_SPILL_HEAD_SIZE],
                          uint16_t            type,
                          const struct iovec *payload,
                          int                 n_parts)
{
  size_t len = 0;
  uint32_t crc;

  for (int i = 0; i < n_parts; i++)
    len += payload[i].iov_len;
  _tprof_spill_put_u32 (head, TPROF_SPILL_MAGIC);
  _tprof_spill_put_u16 (head + 4, type);
  _tprof_spill_put_u16 (head + 6, 0);
  _tprof_spill_put_u32 (head + 8, (uint32_t) len);
  crc = _tprof_crc32c (0, head, 12);
  for (int i = 0; i < n_parts; i++)
    crc = _tprof_crc32c (crc, payload[i].iov_base, payload[i].iov_len);
  _tprof_spill_put_u32 (head + 12, crc);
  return (8 - len % 8) % 8;
}

/* Drops the first @done bytes of the @n runs of @iov, in place; returns
 * the index of the first run left. */
static int
iov_advance (struct iovec *iov, int n, size_t done)
{
  int i = 0;

  while (i < n && done >= iov[i].iov_len)
    done -= iov[i++].iov_len;
  if (i < n)
    {
      iov[i].iov_base = (uint8_t *) iov[i].iov_base + done;
      iov[i].iov_len -= done;
    }
  return i;
}

int
_tprof_spill_record_write (int                 fd,
                           uint16_t            type,
                           const struct iovec *payload,
                           int                 n_parts)
{
  struct iovec iov[TPROF_SPILL_MAX_PARTS + 2];
  uint8_t head[TPROF_SPILL_HEAD_SIZE];
  size_t len = 0, left;
  int n = 0, first = 0, saved_errno = errno;

  if (n_parts < 0 || n_parts > TPROF_SPILL_MAX_PARTS)
    return -EINVAL;
  for (int i = 0; i < n_parts; i++)
    len += payload[i].iov_len;
  if (len > TPROF_SPILL_MAX_PAYLOAD)
    return -EINVAL;
  iov[n++] = (struct iovec) { head, sizeof head };
  for (int i = 0; i < n_parts; i++)
    if (payload[i].iov_len > 0)
      iov[n++] = payload[i];
  iov[n] = (struct iovec) { (void *) zero_padding, _tprof_spill_record_head (head, type, payload, n_parts) };
  if (iov[n].iov_len > 0)
    n++;
  left = _tprof_spill_record_size (len);
  while (left > 0)
    {
      ssize_t done = writev (fd, iov + first, n - first);

      if (done < 0 && errno == EINTR)
        continue;
      if (done <= 0)
        {
          int err = done < 0 ? errno : EIO;

          errno = saved_errno;  /* a signal handler's caller sees errno unchanged */
          return -err;
        }
      left -= (size_t) done;
      first += iov_advance (iov + first, n - first, (size_t) done);
    }
  errno = saved_errno;
  return 0;
}
