/* test-spill-record.c — spill records byte for byte: header, checksum, padding, split payloads, refusals. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core-check.h"
#include "tprof-spill-record-internal.h"

/* The bytes below were computed apart, by a bit-by-bit CRC-32C in Python
 * (polynomial 0x82f63b78 reflected, "123456789" -> 0xe3069283). */

/* COMMIT: flush 1, when 1.5 s, 3 samples: 24 bytes, no padding. */
static const uint8_t commit_bytes[] = {
  0x54, 0x53, 0x50, 0x52, 0x05, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00, 0xd9, 0x51, 0x6f, 0xd2,
  0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x3f,
  0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* END: when 2.0 s, path "ab": 12 bytes, then 4 of padding. */
static const uint8_t end_bytes[] = {
  0x54, 0x53, 0x50, 0x52, 0x08, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x06, 0x85, 0xcd, 0x4f,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x02, 0x00, 0x61, 0x62, 0x00, 0x00, 0x00, 0x00,
};

static void
test_encoders (void)
{
  uint8_t buf[64], *p = buf;

  p = _tprof_spill_put_u64 (p, 1);
  p = _tprof_spill_put_f64 (p, 1.5);
  p = _tprof_spill_put_u64 (p, 3);
  CHECK_INT_EQ (24, p - buf);
  CHECK (memcmp (buf, commit_bytes + 16, 24) == 0);

  p = _tprof_spill_put_f64 (buf, 2.0);
  p = _tprof_spill_put_str (p, "ab");
  CHECK_INT_EQ (12, p - buf);
  CHECK_INT_EQ (4, _tprof_spill_str_size ("ab"));
  CHECK (memcmp (buf, end_bytes + 16, 12) == 0);

  p = _tprof_spill_put_str (buf, NULL);
  CHECK_INT_EQ (2, p - buf);
  CHECK (buf[0] == 0 && buf[1] == 0);
  p = _tprof_spill_put_i32 (buf, -2);
  CHECK (buf[0] == 0xfe && buf[1] == 0xff && buf[2] == 0xff && buf[3] == 0xff);
  p = _tprof_spill_put_i64 (buf, -3);
  CHECK (_tprof_spill_get_u64 (buf) == (uint64_t) -3);
  _tprof_spill_put_u16 (buf, 0xbeef);
  CHECK (buf[0] == 0xef && buf[1] == 0xbe);
  CHECK_INT_EQ (0xbeef, _tprof_spill_get_u16 (buf));
  CHECK_DOUBLE_EQ (1.5, _tprof_spill_get_f64 (commit_bytes + 24));
  CHECK_INT_EQ (3, _tprof_spill_get_u32 (commit_bytes + 32));
}

/* A str longer than its u16 length allows is cut at a character. */
static void
test_long_str (void)
{
  size_t n = 70000;
  char *s = malloc (n + 1);
  uint8_t *buf = malloc (n + 2);
  uint8_t *end;

  CHECK (s != NULL && buf != NULL);
  memset (s, 'x', n);
  s[n] = '\0';
  /* a two-byte character straddling byte 65535 */
  s[65534] = (char) 0xc3;
  s[65535] = (char) 0xa9;
  end = _tprof_spill_put_str (buf, s);
  CHECK_INT_EQ (65534, _tprof_spill_get_u16 (buf));
  CHECK_INT_EQ (2 + 65534, end - buf);
  free (s);
  free (buf);
}

static void
test_head (void)
{
  uint8_t payload[24], head[16];
  struct iovec whole = { payload, 24 };
  struct iovec split[3] = { { payload, 5 }, { NULL, 0 }, { payload + 5, 19 } };

  memcpy (payload, commit_bytes + 16, 24);
  CHECK_INT_EQ (0, _tprof_spill_record_head (head, TPROF_SPILL_COMMIT, &whole, 1));
  CHECK (memcmp (head, commit_bytes, 16) == 0);
  memset (head, 0, sizeof head);
  CHECK_INT_EQ (0, _tprof_spill_record_head (head, TPROF_SPILL_COMMIT, split, 3));
  CHECK (memcmp (head, commit_bytes, 16) == 0);
  CHECK_INT_EQ (4, _tprof_spill_record_head (head, TPROF_SPILL_END, &(struct iovec) { (void *) (end_bytes + 16), 12 }, 1));
  CHECK (memcmp (head, end_bytes, 16) == 0);
  CHECK_INT_EQ (16, _tprof_spill_record_size (0));
  CHECK_INT_EQ (32, _tprof_spill_record_size (12));
  CHECK_INT_EQ (40, _tprof_spill_record_size (24));
}

/* Two records appended to a file read back as the expected bytes. */
static void
test_write (void)
{
  char path[] = "/tmp/test-spill-record-XXXXXX";
  int fd = mkstemp (path);
  uint8_t back[sizeof commit_bytes + sizeof end_bytes + 1];
  struct iovec commit[2] = { { (void *) (commit_bytes + 16), 10 }, { (void *) (commit_bytes + 26), 14 } };
  struct iovec end = { (void *) (end_bytes + 16), 12 };
  int rfd;

  CHECK (fd >= 0);
  close (fd);
  fd = open (path, O_WRONLY | O_APPEND);
  CHECK (fd >= 0);
  CHECK_INT_EQ (0, _tprof_spill_record_write (fd, TPROF_SPILL_COMMIT, commit, 2));
  CHECK_INT_EQ (0, _tprof_spill_record_write (fd, TPROF_SPILL_END, &end, 1));
  /* refusals leave the file alone */
  CHECK_INT_EQ (-EINVAL, _tprof_spill_record_write (fd, TPROF_SPILL_END, &end, TPROF_SPILL_MAX_PARTS + 1));
  CHECK_INT_EQ (-EINVAL, _tprof_spill_record_write (fd, TPROF_SPILL_END,
                                                    &(struct iovec) { (void *) end_bytes, TPROF_SPILL_MAX_PAYLOAD + 1 },
                                                    1));
  close (fd);
  rfd = open (path, O_RDONLY);
  CHECK (rfd >= 0);
  CHECK_INT_EQ (sizeof commit_bytes + sizeof end_bytes, read (rfd, back, sizeof back));
  CHECK (memcmp (back, commit_bytes, sizeof commit_bytes) == 0);
  CHECK (memcmp (back + sizeof commit_bytes, end_bytes, sizeof end_bytes) == 0);
  close (rfd);
  unlink (path);

  /* a closed descriptor: -EBADF, errno as it was */
  errno = 1234;
  CHECK_INT_EQ (-EBADF, _tprof_spill_record_write (fd, TPROF_SPILL_END, &end, 1));
  CHECK_INT_EQ (1234, errno);
}

int
main (void)
{
  test_encoders ();
  test_long_str ();
  test_head ();
  test_write ();
  printf ("ok\n");
  return 0;
}
