/* tprof-reader-main.c — tprof-reader, the helper process that parses one profile for a TprofProfileFile opened isolated; a crash here costs the caller nothing. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>

#include "tprof/tprof-gathered-time.h"
#include "tprof-reader-private.h"

/* The client's end of the socket, set up by the client before exec. */
#define SOCKET_FD 3

typedef struct
{
  double last;
} Progress;

static void
send_error (const TprofError *error)
{
  TprofWire w = { 0 };

  _tprof_wire_put_u64 (&w, (uint64_t) error->code);
  _tprof_wire_put_string (&w, error->message);
  _tprof_reader_send (SOCKET_FD, TPROF_READER_MSG_ERROR, &w, -1);
  _tprof_wire_clear (&w);
}

static void
send_progress (double  fraction,
               void   *user_data)
{
  Progress *p = user_data;
  TprofWire w = { 0 };

  if (fraction < 1.0 && fraction - p->last < 0.01)
    return;
  p->last = fraction;
  _tprof_wire_put (&w, &fraction, sizeof fraction);
  _tprof_reader_send (SOCKET_FD, TPROF_READER_MSG_PROGRESS, &w, -1);
  _tprof_wire_clear (&w);
}

static void
serve_stats (TprofProfileFile *file,
             TprofWire        *request)
{
  uint64_t op = _tprof_wire_get_u64 (request);
  TprofError error = { 0 };
  const TprofOperationStats *stats = request->failed ? NULL
                                     : tprof_profile_file_operation_stats (file, (size_t) op, &error);
  TprofWire w = { 0 };

  if (stats == NULL)
    {
      if (request->failed)
        tprof_error_set (&error, TPROF_ERROR_INVALID, "malformed request");
      send_error (&error);
      return;
    }
  _tprof_reader_put_stats (&w, stats, tprof_profile_file_world_size (file));
  _tprof_reader_send (SOCKET_FD, TPROF_READER_MSG_STATS, &w, -1);
  _tprof_wire_clear (&w);
}

/* Where operation op's arrays lie in the file, with its cache: the
 * client reads them itself where it can. */
static void
serve_locate (TprofProfileFile *file,
              TprofWire        *request)
{
  uint64_t op = _tprof_wire_get_u64 (request);
  TprofReaderLocation loc;
  TprofWire w = { 0 };

  if (request->failed || op >= file->n_ops)
    {
      TprofError error = { 0 };

      tprof_error_set (&error, TPROF_ERROR_INVALID, "malformed request");
      send_error (&error);
      return;
    }
  _tprof_reader_locate (file, (size_t) op, &loc);
  _tprof_reader_put_location (&w, &loc);
  _tprof_reader_put_cache (&w, &file->ops[op].cache, file->world_size);
  _tprof_reader_send (SOCKET_FD, TPROF_READER_MSG_LOCATION, &w, -1);
  _tprof_wire_clear (&w);
}

/* The samples' arrays, laid out as _tprof_reader_samples_layout() says,
 * in a new memfd. */
static int
samples_memfd (const TprofGatheredTime *gt,
               TprofError              *error)
{
  size_t n = tprof_gathered_time_count (gt);
  const double *starts = tprof_gathered_time_starts (gt);
  const int32_t *threads = tprof_gathered_time_threads (gt);
  size_t starts_at, threads_at;
  size_t bytes = _tprof_reader_samples_layout (n, starts != NULL, threads != NULL, &starts_at, &threads_at);
  int fd = memfd_create ("tprof-samples", MFD_CLOEXEC);
  char *map = MAP_FAILED;

  if (fd >= 0 && ftruncate (fd, (off_t) bytes) == 0 && bytes > 0)
    map = mmap (NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
  if (fd < 0 || (bytes > 0 && map == MAP_FAILED))
    {
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "cannot share %zu samples: %s", n, strerror (errno));
      if (fd >= 0)
        close (fd);
      return -1;
    }
  if (bytes > 0)
    {
      memcpy (map, tprof_gathered_time_times (gt), n * sizeof (double));
      memcpy (map + n * sizeof (double), tprof_gathered_time_ranks (gt), n * sizeof (int32_t));
      if (starts != NULL)
        memcpy (map + starts_at, starts, n * sizeof (double));
      if (threads != NULL)
        memcpy (map + threads_at, threads, n * sizeof (int32_t));
      munmap (map, bytes);
    }
  return fd;
}

/* Tells the client where @gt's arrays lie in our memory, so that it copies
 * them straight into its own (process_vm_readv: one copy, onto its huge
 * pages, where a memfd's shared pages fault in 4 KiB at a time). true when
 * it did; false when it could not (a sandbox without the call): then the
 * memfd carries them. */
static bool
offer_samples (const TprofGatheredTime *gt,
               TprofWire               *w)
{
  TprofReaderMsg type;
  int got_fd = -1;
  bool taken;

  _tprof_wire_clear (w);
  _tprof_wire_put_u64 (w, tprof_gathered_time_count (gt));
  _tprof_wire_put_u64 (w, tprof_gathered_time_starts (gt) != NULL);
  _tprof_wire_put_u64 (w, tprof_gathered_time_threads (gt) != NULL);
  _tprof_wire_put_u64 (w, (uintptr_t) tprof_gathered_time_times (gt));
  _tprof_wire_put_u64 (w, (uintptr_t) tprof_gathered_time_ranks (gt));
  _tprof_wire_put_u64 (w, (uintptr_t) tprof_gathered_time_starts (gt));
  _tprof_wire_put_u64 (w, (uintptr_t) tprof_gathered_time_threads (gt));
  if (_tprof_reader_send (SOCKET_FD, TPROF_READER_MSG_SAMPLES_AT, w, -1) < 0
      || _tprof_reader_receive (SOCKET_FD, &type, w, &got_fd, -1, NULL) != 0)
    exit (1);  /* the client is gone */
  if (got_fd >= 0)
    close (got_fd);
  if (type != TPROF_READER_MSG_TAKEN)
    exit (1);
  taken = _tprof_wire_get_u64 (w) != 0;
  _tprof_wire_clear (w);
  return taken;
}

static void
serve_read (TprofProfileFile *file,
            TprofWire        *request)
{
  uint64_t op = _tprof_wire_get_u64 (request);
  uint64_t has_ranks = _tprof_wire_get_u64 (request);
  uint64_t n_ranks = _tprof_wire_get_u64 (request);
  int32_t *ranks = NULL;
  TprofError error = { 0 };
  Progress progress = { -1.0 };
  TprofGatheredTime *gt = NULL;
  TprofWire w = { 0 };
  int fd = -1;

  if (!request->failed && n_ranks <= (request->len - request->pos) / sizeof (int32_t))
    {
      ranks = malloc (n_ranks != 0 ? n_ranks * sizeof *ranks : 1);
      if (ranks != NULL && _tprof_wire_get (request, ranks, n_ranks * sizeof *ranks))
        gt = tprof_profile_file_read_operation (file, (size_t) op, has_ranks ? ranks : NULL,
                                                (size_t) n_ranks, send_progress, &progress,
                                                NULL, &error);
    }
  else
    tprof_error_set (&error, TPROF_ERROR_INVALID, "malformed request");
  free (ranks);
  if (gt != NULL && !offer_samples (gt, &w))
    fd = samples_memfd (gt, &error);
  else if (gt == NULL)
    fd = -1;
  else
    fd = -2;  /* taken from our memory */
  if (fd == -1)
    {
      if (error.code == TPROF_ERROR_NONE)
        tprof_error_set (&error, TPROF_ERROR_NO_MEMORY, "out of memory");
      send_error (&error);
    }
  else if (fd >= 0)
    {
      _tprof_wire_clear (&w);
      _tprof_wire_put_u64 (&w, tprof_gathered_time_count (gt));
      _tprof_wire_put_u64 (&w, tprof_gathered_time_starts (gt) != NULL);
      _tprof_wire_put_u64 (&w, tprof_gathered_time_threads (gt) != NULL);
      _tprof_reader_send (SOCKET_FD, TPROF_READER_MSG_SAMPLES, &w, fd);
      close (fd);
    }
  _tprof_wire_clear (&w);
  tprof_gathered_time_free (gt);
}

/* The processor time each request (and the open) may take: a floor for
 * HDF5's own work and a second per 8 MB of file, which reading and
 * summarizing every sample stays well within. Set before each request: a
 * process limit would add up over the long life of a viewer's file. Past
 * it, SIGXCPU ends the helper, which the client reports. */
#define CPU_FLOOR_S 3
#define CPU_FILE_BYTES_PER_S (8 << 20)

static void
limit_cpu (rlim_t budget)
{
  struct rusage used;
  struct rlimit limit;

  if (getrusage (RUSAGE_SELF, &used) < 0 || getrlimit (RLIMIT_CPU, &limit) < 0)
    return;
  limit.rlim_cur = (rlim_t) (used.ru_utime.tv_sec + used.ru_stime.tv_sec) + 1 + budget;
  if (limit.rlim_max != RLIM_INFINITY && limit.rlim_cur > limit.rlim_max)
    limit.rlim_cur = limit.rlim_max;
  setrlimit (RLIMIT_CPU, &limit);
}

/* Ends this process when the client's end of the socket closes, as it does
 * when the client process ends, even while HDF5 works. Not a parent-death
 * signal: that comes when the thread that started us ends, which a thread
 * pool's worker does while the file stays open (the client then held a
 * dead helper). */
static void *
watch_client (void *unused)
{
  struct pollfd p = { SOCKET_FD, POLLRDHUP, 0 };

  for (;;)
    if (poll (&p, 1, -1) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) != 0)
      _exit (1);
  return NULL;
}

/* At most what a helper's heap grows to while it opens a large profile
 * (the metadata of 10^5 ranks: 17 MB), touched before the file is known. */
#define WARM_HEAP_MAX ((size_t) 24 << 20)

/* Whether the client has written to us (our file has come). */
static bool
client_waiting (void)
{
  return poll (&(struct pollfd) { SOCKET_FD, POLLIN, 0 }, 1, 0) != 0;
}

/* Faults in our heap ahead of the file: a page fault costs about as much
 * as copying the page (several times that in a VM), and a helper is a
 * fresh process whose every allocation faults; started ahead of need
 * (tprof-reader-spare.c), it does so while it waits for its file, and
 * stops when the file comes (the open must not wait for it): @bytes of it,
 * at most WARM_HEAP_MAX, as much as the file closed before needed.
 * Allocations below 32 MB come from the heap, and a free keeps up to
 * 64 MB of it. */
static void
warm_heap (size_t bytes)
{
  volatile char *heap;

  if (bytes == 0)
    return;
  bytes = bytes < WARM_HEAP_MAX ? bytes : WARM_HEAP_MAX;
  mallopt (M_MMAP_THRESHOLD, 32 << 20);
  mallopt (M_TRIM_THRESHOLD, 64 << 20);
  heap = malloc (bytes);
  for (size_t at = 0; heap != NULL && at < bytes; at += 4096)
    {
      if (at % ((size_t) 1 << 20) == 0 && client_waiting ())
        break;
      heap[at] = 0;
    }
  free ((void *) heap);
}

/* Waits for the client's OPEN: the path (malloc'd) and the address space
 * we may use, which is limited here at once, before any byte of the file
 * is parsed. NULL when the client is gone or the message is malformed. */
static char *
wait_for_file (void)
{
  TprofReaderMsg type;
  TprofWire w = { 0 };
  int got_fd = -1;
  bool ok = true;
  char *path = NULL;
  uint64_t memory;

  if (_tprof_reader_receive (SOCKET_FD, &type, &w, &got_fd, -1, NULL) == 0 && type == TPROF_READER_MSG_OPEN)
    {
      path = _tprof_wire_get_string (&w, &ok);
      memory = _tprof_wire_get_u64 (&w);
      if (path != NULL && !w.failed && memory != 0)
        {
          struct rlimit limit = { (rlim_t) memory, (rlim_t) memory };

          if (setrlimit (RLIMIT_AS, &limit) < 0)
            ok = false;
        }
      if (!ok || w.failed)
        {
          free (path);
          path = NULL;
        }
    }
  if (got_fd >= 0)
    close (got_fd);
  _tprof_wire_clear (&w);
  return path;
}

int
main (int    argc,
      char **argv)
{
  TprofProfileFile *file;
  TprofError error = { 0 };
  TprofWire w = { 0 };
  pthread_t watchdog;
  rlim_t cpu_budget = CPU_FLOOR_S;
  struct stat st;
  char *path;

  /* the heap pre-check is the client's to make (tprof-profile-file.c says why) */
  _tprof_profile_file_skip_heap_check ();
  if (argc != 2)
    {
      fprintf (stderr, "usage: %s WARM-BYTES (started by libtprof-capture, with a socket as descriptor 3)\n",
               argv[0]);
      return 2;
    }
  /* never outlive the process we read for */
  if (pthread_create (&watchdog, NULL, watch_client, NULL) != 0)
    return 1;
  tprof_profile_file_skip_exit_cleanup ();
  /* started ahead of need, maybe: what every file needs is ready before
   * one comes (HDF5's own start, and memory while no file is here) */
  H5open ();
  warm_heap ((size_t) strtoull (argv[1], NULL, 10));
  path = wait_for_file ();
  if (path == NULL)
    _exit (1);

  if (stat (path, &st) == 0 && st.st_size > 0)
    cpu_budget += (rlim_t) (st.st_size / CPU_FILE_BYTES_PER_S);
  limit_cpu (cpu_budget);
  file = tprof_profile_file_open (path, &error);
  free (path);
  if (file == NULL)
    {
      send_error (&error);
      return 0;
    }
  if (!_tprof_reader_put_meta (&w, file)
      || _tprof_reader_send (SOCKET_FD, TPROF_READER_MSG_META, &w, -1) < 0)
    return 1;

  for (;;)
    {
      TprofReaderMsg type;
      int got_fd;

      if (_tprof_reader_receive (SOCKET_FD, &type, &w, &got_fd, -1, NULL) != 0)
        break;  /* the client closed the file, or is gone */
      if (got_fd >= 0)
        close (got_fd);
      limit_cpu (cpu_budget);
      if (type == TPROF_READER_MSG_STATS)
        serve_stats (file, &w);
      else if (type == TPROF_READER_MSG_READ)
        serve_read (file, &w);
      else if (type == TPROF_READER_MSG_LOCATE)
        serve_locate (file, &w);
      else
        break;
    }
  _tprof_wire_clear (&w);
  tprof_profile_file_close (file);
  return 0;
}
