/* tprof-spill.c — a manager's spill from start to end: the file and its HEADER, the thread that flushes, the END. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tprof-clock-map-internal.h"
#include "tprof-crc32c.h"
#include "tprof-names-private.h"
#include "tprof-spill-internal.h"
#include "tprof-spill-record-internal.h"
#include "tprof-time-manager-internal.h"
#include "tprof/tprof-spill.h"

uint64_t
_tprof_spill_new_token (void)
{
  uint64_t token = 0;

  if (getrandom (&token, sizeof token, 0) != (ssize_t) sizeof token || token == 0)
    token = ((uint64_t) time (NULL) << 32) ^ (uint64_t) getpid () ^ (uint64_t) clock ();
  return token != 0 ? token : 1;
}

bool
_tprof_spill_env_interval (double *interval, char *message, size_t size)
{
  const char *text = getenv ("TPROF_SPILL_INTERVAL");
  char *end;
  double value;

  *interval = TPROF_SPILL_DEFAULT_INTERVAL;
  if (text == NULL || text[0] == '\0')
    return true;
  errno = 0;
  value = strtod (text, &end);
  if (errno != 0 || end == text || *end != '\0' || !isfinite (value) || value <= 0)
    {
      snprintf (message, size, "TPROF_SPILL_INTERVAL=%.64s is not a number of seconds > 0", text);
      return false;
    }
  *interval = value;
  return true;
}

/* mkdir -p @dir. */
static int
make_directory (const char *dir, TprofError *error)
{
  char *copy = strdup (dir);
  int rc = 0;

  if (copy == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "spill directory %s: out of memory", dir);
  for (char *p = copy + 1;; p++)
    if (*p == '/' || *p == '\0')
      {
        char c = *p;
        struct stat st;

        *p = '\0';
        if (mkdir (copy, 0777) != 0 && errno != EEXIST)
          rc = tprof_error_set (error, TPROF_ERROR_IO, "spill directory %s: cannot create %s: %s", dir, copy,
                                strerror (errno));
        else if (stat (copy, &st) != 0 || !S_ISDIR (st.st_mode))
          rc = tprof_error_set (error, TPROF_ERROR_IO, "spill directory %s: %s is not a directory", dir, copy);
        *p = c;
        if (rc != 0 || c == '\0')
          break;
      }
  free (copy);
  return rc;
}

/* Free text saying which job this is: a batch job id when there is one,
 * then the command line. */
static void
job_label (char *label, size_t size)
{
  const char *batch = getenv ("SLURM_JOB_ID") != NULL ? getenv ("SLURM_JOB_ID") : getenv ("PBS_JOBID");
  size_t len = 0;
  int fd;

  label[0] = '\0';
  if (batch != NULL)
    len = (size_t) snprintf (label, size, "job %.64s: ", batch);
  fd = open ("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd >= 0)
    {
      ssize_t n = read (fd, label + len, size - len - 1);

      if (n > 0)
        {
          for (ssize_t i = 0; i < n; i++)
            if (label[len + i] == '\0')
              label[len + i] = ' ';
          len += (size_t) n;
          while (len > 0 && label[len - 1] == ' ')
            len--;
        }
      label[len] = '\0';
      close (fd);
    }
}

static int
header_write (TprofSpill *spill, const TprofSpillIdentity *id)
{
  char host[256] = "", label[1024];
  uint8_t payload[4 * 4 + 8 + 6 * 8 + 2 + sizeof host + 2 + sizeof label], *p = payload;
  struct timespec wall;
  struct iovec iov;

  gethostname (host, sizeof host - 1);
  job_label (label, sizeof label);
  clock_gettime (CLOCK_REALTIME, &wall);
  p = _tprof_spill_put_u32 (p, TPROF_SPILL_VERSION);
  p = _tprof_spill_put_i32 (p, id->rank);
  p = _tprof_spill_put_i32 (p, id->world_size);
  p = _tprof_spill_put_i32 (p, (int32_t) getpid ());
  p = _tprof_spill_put_u64 (p, id->job_token);
  p = _tprof_spill_put_f64 (p, id->clock_offset);
  p = _tprof_spill_put_f64 (p, id->clock_offset_error);
  p = _tprof_spill_put_f64 (p, spill->interval);
  p = _tprof_spill_put_f64 (p, _tprof_spill_now ());
  p = _tprof_spill_put_f64 (p, (double) wall.tv_sec + 1e-9 * (double) wall.tv_nsec);
  p = _tprof_spill_put_str (p, host);
  p = _tprof_spill_put_str (p, label);
  iov = (struct iovec) { payload, (size_t) (p - payload) };
  return _tprof_spill_record_write (spill->fd, TPROF_SPILL_HEADER, &iov, 1);
}

/* Says once on stderr that spilling stopped, and why. */
static void
spill_fail (TprofSpill *spill, int rc, const char *what)
{
  if (!spill->failed)
    fprintf (stderr, "tprof: spill file %s: %s failed (%s); no more spilling\n", spill->path, what, strerror (-rc));
  spill->failed = true;
}

static void
spill_flush_owned (TprofSpill *spill)
{
  int rc = _tprof_spill_flush (spill);

  if (rc < 0)
    spill_fail (spill, rc, "a flush");
}

static void *
spill_thread (void *data)
{
  TprofSpill *spill = data;
  double next = _tprof_spill_now () + spill->interval;

  /* named, so that top, perf and a benchmark can tell its CPU time apart */
  pthread_setname_np (pthread_self (), "tprof-spill");
  while (!__atomic_load_n (&spill->stop, __ATOMIC_ACQUIRE))
    {
      double now = _tprof_spill_now ();
      struct pollfd pfd = { spill->wake_fd, POLLIN, 0 };
      uint64_t requested, drained;

      if (now < next && poll (&pfd, 1, (int) ceil ((next - now) * 1e3)) > 0)
        (void) !read (spill->wake_fd, &drained, sizeof drained);
      requested = __atomic_load_n (&spill->requested, __ATOMIC_ACQUIRE);
      if (__atomic_load_n (&spill->stop, __ATOMIC_ACQUIRE))
        break;
      now = _tprof_spill_now ();
      if (now < next && requested == __atomic_load_n (&spill->served, __ATOMIC_RELAXED))
        continue;
      _tprof_spill_own (spill);
      spill_flush_owned (spill);
      _tprof_spill_disown (spill);
      __atomic_store_n (&spill->served, requested, __ATOMIC_RELEASE);
      next = _tprof_spill_now () + spill->interval;
    }
  return NULL;
}

static void
spill_stop_thread (TprofSpill *spill)
{
  uint64_t one = 1;

  if (!spill->thread_started)
    return;
  __atomic_store_n (&spill->stop, 1, __ATOMIC_RELEASE);
  (void) !write (spill->wake_fd, &one, sizeof one);
  pthread_join (spill->thread, NULL);
  spill->thread_started = false;
}

static void
spill_free (TprofSpill *spill)
{
  if (spill->fd >= 0)
    close (spill->fd);
  if (spill->wake_fd >= 0)
    close (spill->wake_fd);
  free (spill->path);
  free (spill->file_ids);
  free (spill->names_buf);
  free (spill->scratch);
  free (spill->map);
  free (spill);
}

/* The clean end: last flush, END, close, remove unless kept. */
static void
spill_end (TprofSpill *spill, const char *profile_path)
{
  uint8_t payload[8 + 2 + 4096], *p = payload;
  char path[4096];
  struct iovec iov;
  int rc;

  if (spill->pid != getpid ())
    {
      /* a forked child: the thread and the file are its parent's */
      _tprof_spill_signals_unregister (spill);
      spill->thread_started = false;
      spill_free (spill);
      return;
    }
  spill_stop_thread (spill);
  _tprof_spill_signals_unregister (spill);
  _tprof_spill_own (spill);
  spill_flush_owned (spill);
  snprintf (path, sizeof path, "%s", profile_path != NULL ? profile_path : "");
  p = _tprof_spill_put_f64 (p, _tprof_spill_now ());
  p = _tprof_spill_put_str (p, path);
  iov = (struct iovec) { payload, (size_t) (p - payload) };
  if (!spill->failed && (rc = _tprof_spill_record_write (spill->fd, TPROF_SPILL_END, &iov, 1)) < 0)
    spill_fail (spill, rc, "writing its end");
  if (!spill->failed && fdatasync (spill->fd) != 0 && errno != EINVAL)
    spill_fail (spill, -errno, "syncing its end");
  spill->closed = true;
  if (!spill->keep && unlink (spill->path) != 0)
    fprintf (stderr, "tprof: spill file %s: cannot remove it: %s\n", spill->path, strerror (errno));
  else if (!spill->keep && !spill->failed && path[0] != '\0')
    _tprof_spill_note_ended (spill->path, path);
  _tprof_spill_disown (spill);
  spill_free (spill);
}

static void
hook_finish (void *spill)
{
  spill_end (spill, NULL);
}

static void
hook_hold (void *spill)
{
  _tprof_spill_own (spill);
}

static void
hook_release (void *spill)
{
  _tprof_spill_disown (spill);
}

static const TprofSpillHooks spill_hooks = { hook_finish, hook_hold, hook_release };

/* Starts @spill's thread with SIGTERM, SIGINT and SIGUSR1 blocked, so
 * that process-directed ones go to the other threads, whose handlers wake
 * this one. The mask is set around pthread_create, not by the thread
 * itself: a signal that came before the new thread first ran could
 * otherwise reach it, and its handler would wait for its own flush. */
static int
spill_start_thread (TprofSpill *spill)
{
  sigset_t mask, old;
  int rc;

  sigemptyset (&mask);
  sigaddset (&mask, SIGTERM);
  sigaddset (&mask, SIGINT);
  sigaddset (&mask, SIGUSR1);
  pthread_sigmask (SIG_BLOCK, &mask, &old);
  rc = pthread_create (&spill->thread, NULL, spill_thread, spill);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  return rc;
}

/* Everything a flush needs, allocated now: a handler's flush allocates
 * nothing. */
static TprofSpill *
spill_alloc (TprofTimeManager *tm, double interval)
{
  TprofSpill *spill = calloc (1, sizeof *spill);

  if (spill == NULL)
    return NULL;
  spill->tm = tm;
  spill->fd = spill->wake_fd = -1;
  spill->interval = interval;
  spill->pid = getpid ();
  spill->keep = getenv ("TPROF_KEEP_SPILL") != NULL && strcmp (getenv ("TPROF_KEEP_SPILL"), "1") == 0;
  /* 16 MiB of address space, untouched but for the ids in use */
  spill->file_ids = calloc (TPROF_MAX_NAME_ID, sizeof *spill->file_ids);
  spill->names_buf = malloc (TPROF_SPILL_NAMES_BYTES);
  spill->scratch = malloc (2 * TPROF_SPILL_SCRATCH_SAMPLES * sizeof *spill->scratch);
  spill->map = malloc (sizeof *spill->map);
  spill->wake_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (spill->file_ids == NULL || spill->names_buf == NULL || spill->scratch == NULL || spill->map == NULL
      || spill->wake_fd < 0)
    {
      spill_free (spill);
      return NULL;
    }
  _tprof_spill_prepare_clock (spill);
  return spill;
}

static int
spill_open (TprofSpill *spill, const char *directory, const TprofSpillIdentity *id, TprofError *error)
{
  int rc;

  if (make_directory (directory, error) != 0)
    return -1;
  if (asprintf (&spill->path, "%s/tprof-%016" PRIx64 "-%d.spill", directory, id->job_token, (int) id->rank) < 0)
    {
      spill->path = NULL;
      return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "spill directory %s: out of memory", directory);
    }
  spill->fd = open (spill->path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (spill->fd < 0)
    return tprof_error_set (error, TPROF_ERROR_IO, "spill file %s: cannot create it: %s", spill->path,
                            strerror (errno));
  (void) _tprof_crc32c (0, "", 0);  /* chooses its code now, not in a signal handler */
  if ((rc = header_write (spill, id)) < 0 || (fdatasync (spill->fd) != 0 && errno != EINVAL && (rc = -errno)))
    {
      unlink (spill->path);
      return tprof_error_set (error, TPROF_ERROR_IO, "spill file %s: cannot write it: %s", spill->path,
                              strerror (-rc));
    }
  return 0;
}

int
_tprof_time_manager_set_spill_as (TprofTimeManager         *tm,
                                  const char               *directory,
                                  double                    interval_seconds,
                                  const TprofSpillIdentity *id,
                                  TprofError               *error)
{
  TprofSpillIdentity self = { 0, 1, 0, 0.0, 0.0 };
  TprofSpill *spill;

  if (tm == NULL)
    return tprof_error_set (error, TPROF_ERROR_INVALID, "tprof_time_manager_set_spill: no time manager");
  if (directory == NULL || directory[0] == '\0')
    return tprof_error_set (error, TPROF_ERROR_INVALID, "tprof_time_manager_set_spill: no spill directory");
  if (!(isfinite (interval_seconds) && interval_seconds > 0))
    return tprof_error_set (error, TPROF_ERROR_INVALID,
                            "tprof_time_manager_set_spill: interval %g s is not a number of seconds > 0",
                            interval_seconds);
  if (tprof_time_manager_get_spill_path (tm) != NULL)
    return tprof_error_set (error, TPROF_ERROR_INVALID, "tprof_time_manager_set_spill: already spilling to %s",
                            tprof_time_manager_get_spill_path (tm));
  if (id == NULL)
    {
      self.job_token = _tprof_spill_new_token ();
      id = &self;
    }
  spill = spill_alloc (tm, interval_seconds);
  if (spill == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "spill directory %s: out of memory", directory);
  if (spill_open (spill, directory, id, error) != 0)
    {
      spill_free (spill);
      return -1;
    }
  if (spill_start_thread (spill) != 0)
    {
      unlink (spill->path);
      spill_free (spill);
      return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "spill directory %s: cannot start its thread",
                              directory);
    }
  spill->thread_started = true;
  _tprof_time_manager_attach_spill (tm, spill, &spill_hooks);
  if (!_tprof_spill_signals_register (spill))
    fprintf (stderr, "tprof: spill file %s: too many spills in one process; signals will not flush it\n",
             spill->path);
  return 0;
}

int
tprof_time_manager_set_spill (TprofTimeManager *tm,
                              const char       *directory,
                              double            interval_seconds,
                              TprofError       *error)
{
  return _tprof_time_manager_set_spill_as (tm, directory, interval_seconds, NULL, error);
}

void
tprof_time_manager_end_spill (TprofTimeManager *tm,
                              const char       *profile_path)
{
  TprofSpill *spill;

  if (tm == NULL || (spill = _tprof_time_manager_attach_spill (tm, NULL, NULL)) == NULL)
    return;
  spill_end (spill, profile_path);
}

int
_tprof_spill_flush_now (TprofTimeManager *tm, bool raw)
{
  TprofSpill *spill = tm != NULL ? _tprof_time_manager_spill (tm) : NULL;
  int rc;

  if (spill == NULL)
    return -ENOENT;
  _tprof_spill_own (spill);
  rc = raw ? _tprof_spill_flush_raw (spill) : _tprof_spill_flush (spill);
  _tprof_spill_disown (spill);
  return rc;
}

const char *
tprof_time_manager_get_spill_path (TprofTimeManager *tm)
{
  TprofSpill *spill = tm != NULL ? _tprof_time_manager_spill (tm) : NULL;

  return spill != NULL ? spill->path : NULL;
}
