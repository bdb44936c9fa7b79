/* tprof-hang-watchdog.c — the thread that notices an MPI call in flight too long, writes the rank's state to its spill file and says so on stderr. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>

#include "tprof/tprof-spill.h"
#include "tprof-clock-map-internal.h"
#include "tprof-hang-watch-internal.h"
#include "tprof-spill-record-internal.h"

static struct
{
  pthread_t       thread;
  pthread_mutex_t lock;
  pthread_cond_t  wake;
  int             running;
  int             stop;
  double          timeout;
  int             fd;
  int             rank;
} watch = { .lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .fd = -1 };

/* TPROF_HANG_TIMEOUT, read and judged once per process: the preload and
 * tprof's gather both ask, and a bad value is said once. */
static pthread_once_t timeout_once = PTHREAD_ONCE_INIT;
static double timeout_value;
static int timeout_status;

static void
timeout_read (void)
{
  const char *text = getenv ("TPROF_HANG_TIMEOUT");
  char *end;
  double value;

  if (text == NULL || text[0] == '\0')
    return;
  errno = 0;
  value = strtod (text, &end);
  if (errno != 0 || end == text || *end != '\0' || !(value > 0) || !isfinite (value))
    {
      fprintf (stderr, "tprof: TPROF_HANG_TIMEOUT=%.64s is not a positive number of seconds; "
                       "no hang watchdog\n", text);
      timeout_status = -1;
      return;
    }
  timeout_value = value;
}

int
_tprof_hang_timeout_from_env (double *timeout)
{
  pthread_once (&timeout_once, timeout_read);
  *timeout = timeout_value;
  return timeout_status;
}

static double
monotonic_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Seconds at @ticks by a copy of the clock's map: the clock's lock is the
 * recording path's, which a watchdog must not hold up. */
static double
ticks_secs (int64_t ticks)
{
  static TprofClockMapCopy map;  /* the watchdog thread's only */

  _tprof_clock_map_copy (&map);
  return _tprof_clock_map_secs (&map, ticks);
}

/* The oldest call in flight; 0 when none. */
static int
oldest_in_flight (TprofHangLiveCall *oldest)
{
  TprofHangLiveCall calls[TPROF_HANG_THREADS];
  size_t n = _tprof_hang_in_flight (calls, TPROF_HANG_THREADS);

  for (size_t i = 0; i < n; i++)
    if (i == 0 || calls[i].begin < oldest->begin)
      *oldest = calls[i];
  return n > 0;
}

static void
write_state (int stalled, double now)
{
  size_t len = 0;
  uint8_t *payload;
  struct iovec part;
  int rc;

  if (watch.fd < 0 || (payload = _tprof_hang_state_encode (stalled, now, watch.timeout, &len)) == NULL)
    return;
  part.iov_base = payload;
  part.iov_len = len;
  rc = _tprof_spill_record_write (watch.fd, TPROF_SPILL_STATE, &part, 1);
  if (rc != 0)
    fprintf (stderr, "tprof: rank %d: the hang state could not be written to the spill file: %s\n", watch.rank,
             strerror (-rc));
  free (payload);
}

static void
say_stalled (const TprofHangLiveCall *call, double waited)
{
  const int32_t *members;
  size_t n_members;
  const char *label = call->comm >= 0 ? _tprof_hang_comm_at (call->comm, &members, &n_members) : "";

  if (call->sequence > 0)
    fprintf (stderr, "tprof: rank %d: %s on %s (collective %llu there) in flight for %.1f s%s\n", watch.rank,
             call->function, label, (unsigned long long) call->sequence, waited,
             watch.fd >= 0 ? "; state written to the spill file" : "");
  else
    fprintf (stderr, "tprof: rank %d: %s%s%s in flight for %.1f s%s\n", watch.rank, call->function,
             label[0] != '\0' ? " on " : "", label, waited,
             watch.fd >= 0 ? "; state written to the spill file" : "");
}

/* The innermost open region as a state shows it: its name and start. */
typedef struct
{
  const char *function;  /* NULL: none open */
  int64_t     begin;
} WatchRegion;

static WatchRegion
current_region (void)
{
  TprofHangLiveCall r;

  if (!_tprof_hang_open_region (&r))
    return (WatchRegion) { NULL, 0 };
  return (WatchRegion) { r.function, r.begin };
}

static bool
same_region (WatchRegion a,
             WatchRegion b)
{
  /* names are interned: one pointer per name */
  return a.function == b.function && a.begin == b.begin;
}

/* What the watchdog saw last. */
typedef struct
{
  uint64_t    written;         /* progress when a state was last written */
  int         stalled;         /* whether that state was a stalled call */
  WatchRegion region_written;  /* the innermost region when it was written */
  uint64_t    seen;            /* progress at the last look */
  WatchRegion region_seen;     /* the innermost region at the last look */
  double      quiet_since;     /* when progress last moved */
} WatchSeen;

/* One look: a call in flight longer than the timeout, or no call begun or
 * ended for that long (the rank computes, or waits outside MPI), is a
 * state worth writing, once until something changes; so is the end of a
 * stall, so that the latest state stays true. A change of the innermost
 * open region alone (no call begun or ended) is such a change once it
 * has lasted from one look to the next: the state written last then
 * names the region the rank is in, not one it left during a quiet
 * period, and a loop of short regions does not write at every look.
 * Only a stalled call is said on stderr, once per stall. */
static void
look (WatchSeen *seen)
{
  double now = monotonic_now ();
  uint64_t progress = _tprof_hang_progress ();
  WatchRegion region = current_region ();
  bool region_moved = same_region (region, seen->region_seen) && !same_region (region, seen->region_written);
  TprofHangLiveCall oldest;
  int in_flight = oldest_in_flight (&oldest);
  double waited = in_flight ? now - ticks_secs (oldest.begin) : 0;
  bool stalled = in_flight && waited > watch.timeout;

  seen->region_seen = region;
  if (progress != seen->seen)
    {
      seen->seen = progress;
      seen->quiet_since = now;
    }
  if (progress == seen->written && !region_moved)
    return;
  if (stalled)
    {
      write_state (1, now);
      if (progress != seen->written || !seen->stalled)
        say_stalled (&oldest, waited);
    }
  else if ((!in_flight && now - seen->quiet_since > watch.timeout) || seen->stalled)
    write_state (0, now);
  else
    return;
  seen->written = progress;
  seen->region_written = region;
  seen->stalled = stalled;
}

static void *
watch_main (void *data)
{
  /* Looks four times per timeout, at least once a second. */
  double period = fmin (watch.timeout / 4, 1.0);
  WatchSeen seen = { UINT64_MAX, 0, { NULL, 0 }, UINT64_MAX, { NULL, 0 }, monotonic_now () };

  (void) data;
  pthread_mutex_lock (&watch.lock);
  while (!watch.stop)
    {
      struct timespec until;
      double wake;

      clock_gettime (CLOCK_REALTIME, &until);
      wake = until.tv_sec + until.tv_nsec * 1e-9 + period;
      until.tv_sec = (time_t) wake;
      until.tv_nsec = (long) ((wake - (double) until.tv_sec) * 1e9);
      pthread_cond_timedwait (&watch.wake, &watch.lock, &until);
      if (!watch.stop)
        look (&seen);
    }
  pthread_mutex_unlock (&watch.lock);
  return NULL;
}

int
_tprof_hang_watch_start (double timeout, int fd, int rank)
{
  sigset_t all, old;
  int rc;

  pthread_mutex_lock (&watch.lock);
  if (watch.running)
    {
      pthread_mutex_unlock (&watch.lock);
      return 0;
    }
  watch.timeout = timeout;
  watch.fd = fd;
  watch.rank = rank;
  watch.stop = 0;
  /* The application's signals go to its own threads, not this one. */
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  rc = pthread_create (&watch.thread, NULL, watch_main, NULL);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  watch.running = rc == 0;
  pthread_mutex_unlock (&watch.lock);
  if (rc != 0)
    fprintf (stderr, "tprof: rank %d: the hang watchdog could not start: %s\n", rank, strerror (rc));
  return rc == 0 ? 0 : -1;
}

int
_tprof_hang_spill_fd (TprofTimeManager *tm)
{
  const char *path = tm != NULL ? tprof_time_manager_get_spill_path (tm) : NULL;
  int fd;

  if (path == NULL)
    return -1;
  fd = open (path, O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0)
    fprintf (stderr, "tprof: %s: cannot append the hang state: %s\n", path, strerror (errno));
  return fd;
}

void
_tprof_hang_watch_stop (void)
{
  pthread_mutex_lock (&watch.lock);
  if (!watch.running)
    {
      pthread_mutex_unlock (&watch.lock);
      return;
    }
  watch.stop = 1;
  pthread_cond_signal (&watch.wake);
  pthread_mutex_unlock (&watch.lock);
  pthread_join (watch.thread, NULL);
  watch.running = 0;
}
