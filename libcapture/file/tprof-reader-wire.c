/* tprof-reader-wire.c — the isolated reader's messages: payloads parsed with bounds checks, framed over a socket with a descriptor attached. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "tprof-reader-private.h"

/* No message is larger: samples travel in a memfd, not in the frame. */
#define MAX_PAYLOAD ((uint64_t) 1 << 31)

typedef struct
{
  uint32_t type;
  uint32_t protocol;
  uint64_t length;
} FrameHeader;

void
_tprof_wire_clear (TprofWire *w)
{
  free (w->data);
  memset (w, 0, sizeof *w);
}

void
_tprof_wire_put (TprofWire  *w,
                 const void *bytes,
                 size_t      n)
{
  if (w->failed)
    return;
  if (w->len + n > w->cap)
    {
      size_t cap = w->cap != 0 ? w->cap : 256;
      uint8_t *data;

      while (cap < w->len + n)
        cap *= 2;
      data = realloc (w->data, cap);
      if (data == NULL)
        {
          w->failed = true;
          return;
        }
      w->data = data;
      w->cap = cap;
    }
  if (n > 0)
    memcpy (w->data + w->len, bytes, n);
  w->len += n;
}

void
_tprof_wire_put_u64 (TprofWire *w,
                     uint64_t   v)
{
  _tprof_wire_put (w, &v, sizeof v);
}

void
_tprof_wire_put_string (TprofWire  *w,
                        const char *s)
{
  /* length + 1, so that 0 stands for NULL */
  _tprof_wire_put_u64 (w, s != NULL ? strlen (s) + 1 : 0);
  if (s != NULL)
    _tprof_wire_put (w, s, strlen (s));
}

bool
_tprof_wire_get (TprofWire *w,
                 void      *bytes,
                 size_t     n)
{
  if (w->failed || n > w->len - w->pos)
    {
      w->failed = true;
      memset (bytes, 0, n);
      return false;
    }
  memcpy (bytes, w->data + w->pos, n);
  w->pos += n;
  return true;
}

uint64_t
_tprof_wire_get_u64 (TprofWire *w)
{
  uint64_t v = 0;

  _tprof_wire_get (w, &v, sizeof v);
  return v;
}

char *
_tprof_wire_get_string (TprofWire *w,
                        bool      *ok)
{
  uint64_t n = _tprof_wire_get_u64 (w);
  char *s;

  if (n == 0 || w->failed)
    {
      *ok = *ok && !w->failed;
      return NULL;
    }
  if (n - 1 > w->len - w->pos || (s = malloc (n)) == NULL)
    {
      w->failed = true;
      *ok = false;
      return NULL;
    }
  _tprof_wire_get (w, s, n - 1);
  s[n - 1] = '\0';
  return s;
}

int
_tprof_reader_send (int              fd,
                    TprofReaderMsg   type,
                    const TprofWire *payload,
                    int              pass_fd)
{
  FrameHeader header = { (uint32_t) type, TPROF_READER_PROTOCOL, payload != NULL ? payload->len : 0 };
  struct iovec iov[2] = {
    { &header, sizeof header },
    { payload != NULL ? payload->data : NULL, payload != NULL ? payload->len : 0 },
  };
  union { char buf[CMSG_SPACE (sizeof (int))]; struct cmsghdr align; } control;
  struct msghdr msg = { .msg_iov = iov, .msg_iovlen = 2 };
  size_t total = sizeof header + header.length, sent = 0;

  if (payload != NULL && payload->failed)
    {
      errno = ENOMEM;
      return -1;
    }
  if (pass_fd >= 0)
    {
      struct cmsghdr *cmsg;

      memset (&control, 0, sizeof control);
      msg.msg_control = control.buf;
      msg.msg_controllen = sizeof control.buf;
      cmsg = CMSG_FIRSTHDR (&msg);
      cmsg->cmsg_level = SOL_SOCKET;
      cmsg->cmsg_type = SCM_RIGHTS;
      cmsg->cmsg_len = CMSG_LEN (sizeof (int));
      memcpy (CMSG_DATA (cmsg), &pass_fd, sizeof (int));
    }
  while (sent < total)
    {
      ssize_t n = sendmsg (fd, &msg, MSG_NOSIGNAL);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -1;
      sent += (size_t) n;
      /* what is left of the iovecs; the descriptor went with the first bytes */
      msg.msg_control = NULL;
      msg.msg_controllen = 0;
      while (msg.msg_iovlen > 0 && (size_t) n >= msg.msg_iov[0].iov_len)
        {
          n -= (ssize_t) msg.msg_iov[0].iov_len;
          msg.msg_iov++;
          msg.msg_iovlen--;
        }
      if (msg.msg_iovlen > 0)
        {
          msg.msg_iov[0].iov_base = (char *) msg.msg_iov[0].iov_base + n;
          msg.msg_iov[0].iov_len -= (size_t) n;
        }
    }
  return 0;
}

static int64_t
now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits until @fd is readable: 0, -1 with errno (ETIMEDOUT), -2 when cancelled. */
static int
wait_readable (int                 fd,
               int64_t             deadline,
               const volatile int *cancel)
{
  for (;;)
    {
      struct pollfd p = { fd, POLLIN, 0 };
      int64_t left = deadline < 0 ? 100 : deadline - now_ms ();
      int rc;

      if (cancel != NULL && __atomic_load_n (cancel, __ATOMIC_RELAXED))
        return -2;
      if (left <= 0)
        {
          errno = ETIMEDOUT;
          return -1;
        }
      rc = poll (&p, 1, (int) (left < 100 ? left : 100));
      if (rc > 0)
        return 0;
      if (rc < 0 && errno != EINTR)
        return -1;
    }
}

/* Reads exactly @n bytes (the first read may bring a descriptor); @cancel
 * is heeded only before the first byte, so that a frame once begun is
 * read whole and the next receive starts at a frame's start. */
static int
receive_exact (int                 fd,
               void               *buf,
               size_t              n,
               int                *got_fd,
               int64_t             deadline,
               const volatile int *cancel)
{
  size_t done = 0;

  while (done < n)
    {
      union { char buf[CMSG_SPACE (sizeof (int))]; struct cmsghdr align; } control;
      struct iovec iov = { (char *) buf + done, n - done };
      struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
                            .msg_control = control.buf, .msg_controllen = sizeof control.buf };
      struct cmsghdr *cmsg;
      ssize_t got;
      int rc = wait_readable (fd, deadline, done == 0 ? cancel : NULL);

      if (rc != 0)
        return rc;
      got = recvmsg (fd, &msg, MSG_CMSG_CLOEXEC);
      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        {
          if (got == 0)
            errno = 0;
          return -1;
        }
      for (cmsg = CMSG_FIRSTHDR (&msg); cmsg != NULL; cmsg = CMSG_NXTHDR (&msg, cmsg))
        if (cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS)
          {
            int passed;

            memcpy (&passed, CMSG_DATA (cmsg), sizeof passed);
            if (*got_fd >= 0)
              close (*got_fd);
            *got_fd = passed;
          }
      done += (size_t) got;
    }
  return 0;
}

int
_tprof_reader_receive (int                 fd,
                       TprofReaderMsg     *type,
                       TprofWire          *payload,
                       int                *got_fd,
                       int                 timeout_ms,
                       const volatile int *cancel)
{
  int64_t deadline = timeout_ms < 0 ? -1 : now_ms () + timeout_ms;
  FrameHeader header;
  int rc;

  _tprof_wire_clear (payload);
  *got_fd = -1;
  rc = receive_exact (fd, &header, sizeof header, got_fd, deadline, cancel);
  if (rc == 0 && (header.protocol != TPROF_READER_PROTOCOL || header.length > MAX_PAYLOAD))
    {
      errno = EPROTO;
      rc = -1;
    }
  if (rc == 0 && header.length > 0)
    {
      payload->data = malloc (header.length);
      if (payload->data == NULL)
        {
          errno = ENOMEM;
          rc = -1;
        }
      else
        {
          payload->len = payload->cap = header.length;
          rc = receive_exact (fd, payload->data, header.length, got_fd, deadline, NULL);
        }
    }
  if (rc != 0 && *got_fd >= 0)
    {
      close (*got_fd);
      *got_fd = -1;
    }
  *type = (TprofReaderMsg) header.type;
  return rc;
}

size_t
_tprof_reader_samples_layout (size_t  n,
                              bool    has_starts,
                              bool    has_threads,
                              size_t *starts_at,
                              size_t *threads_at)
{
  size_t end = n * (sizeof (double) + sizeof (int32_t));

  end = (end + 7) & ~(size_t) 7;
  *starts_at = has_starts ? end : 0;
  end += has_starts ? n * sizeof (double) : 0;
  *threads_at = has_threads ? end : 0;
  end += has_threads ? n * sizeof (int32_t) : 0;
  return end;
}
