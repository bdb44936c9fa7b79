/* tprof-reader-client.c — TprofProfileFile opened isolated: a helper process parses the file, and its crash, hang or runaway memory becomes an error here. */
/* SPDX-License-Identifier: MIT */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tprof-analysis-internal.h"
#include "tprof-h5-reader-private.h"
#include "tprof-reader-private.h"

/* How long the helper may stay silent: opening (metadata only), and between
 * two messages of a read (it reports progress at least every 1%). A
 * statistics request of a file without a cache reads every sample of the
 * operation without reporting progress. */
#define OPEN_TIMEOUT_MS  60000
#define READ_TIMEOUT_MS  60000
#define STATS_TIMEOUT_MS 600000

/* How long the helper may take to send the metadata before we scan the
 * file, while it works on, for the damaged HDF5 heaps on which it would
 * loop forever (the scan the helper itself skips: tprof-profile-file.c). */
#define HEAP_SCAN_AFTER_MS 500
/* How long a damaged heap found so waits for the helper's own refusal. */
#define HEAP_SCAN_GRACE_MS 5000

/* The helper's address space: what a read of the whole file needs (the
 * samples, their copy for us, HDF5's buffers) and room to spare; a damaged
 * length that asks for more fails in the helper, not here. The floor
 * covers the helper's own start (about 35 MB mapped) and HDF5's caches
 * many times over, and no more: a damaged 17 kB file once took 1.8 GB. */
#define MEMORY_LIMIT_BASE ((rlim_t) 512 << 20)
#define MEMORY_LIMIT_PER_FILE_BYTE 4

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED_BUILD 1
#endif
#endif
#ifndef SANITIZED_BUILD
#define SANITIZED_BUILD 0
#endif

struct _TprofReaderClient
{
  char  *helper;      /* the tprof-reader executable */
  char  *path;
  pid_t  pid;         /* 0 once the helper is gone */
  int    sock;
  rlim_t memory_limit;
  bool   no_vm_copy;  /* process_vm_readv failed once: samples come in a memfd */
  bool   direct_only; /* TPROF_READER_DIRECT=only: refuse what the helper
                       * would read (tests tell the paths apart so) */
  bool   direct_never;  /* TPROF_READER_DIRECT=never: the helper reads all */
  int    fd;          /* the file, opened here: read without the helper where
                       * it stores samples plainly; -1 if it could not be */
  dev_t  dev;
  ino_t  ino;
  TprofReaderColumns columns;  /* format 3: located here after the first read */
  size_t              meta_bytes;  /* of the helper's metadata message */
  /* an operation located for its summary, which reads it next */
  bool                located;
  size_t              located_op;
  TprofReaderLocation located_loc;
};

/* The helper beside this library in a build tree, else where it is installed. */
static char *
helper_path (void)
{
  const char *env = getenv ("TPROF_READER");
  Dl_info info;

  if (env != NULL && env[0] != '\0')
    return strdup (env);
  if (dladdr ((void *) helper_path, &info) != 0 && info.dli_fname != NULL)
    {
      const char *slash = strrchr (info.dli_fname, '/');

      if (slash != NULL)
        {
          size_t dir_len = (size_t) (slash - info.dli_fname);
          char *beside = malloc (dir_len + sizeof "/tprof-reader");

          if (beside != NULL)
            {
              memcpy (beside, info.dli_fname, dir_len);
              strcpy (beside + dir_len, "/tprof-reader");
              if (access (beside, X_OK) == 0)
                return beside;
              free (beside);
            }
        }
    }
  return strdup (TPROF_READER_INSTALLED);
}

static void
client_reap (TprofReaderClient *client,
             int               *status)
{
  *status = 0;
  if (client->sock >= 0)
    close (client->sock);
  client->sock = -1;
  if (client->pid > 0)
    {
      kill (client->pid, SIGKILL);
      while (waitpid (client->pid, status, 0) < 0 && errno == EINTR)
        ;
    }
  client->pid = 0;
}

/* Fills @error with why the helper stopped answering while @doing, and
 * makes sure it is gone. */
static void
client_failed (TprofReaderClient *client,
               int                rc,
               const char        *doing,
               TprofError        *error)
{
  int saved_errno = errno;
  int status;

  client_reap (client, &status);
  if (rc == -2)
    tprof_error_set (error, TPROF_ERROR_CANCELLED, "%s: cancelled", client->path);
  else if (saved_errno == ETIMEDOUT)
    tprof_error_set (error, TPROF_ERROR_FORMAT,
                     "%s: the file is damaged or too large: reading it stalled while %s "
                     "(no progress in %d s)", client->path, doing,
                     (strcmp (doing, "summarizing") == 0 ? STATS_TIMEOUT_MS : READ_TIMEOUT_MS) / 1000);
  else if (WIFSIGNALED (status) && WTERMSIG (status) == SIGXCPU)
    tprof_error_set (error, TPROF_ERROR_FORMAT,
                     "%s: the file is damaged: reading it took more processor time than a file "
                     "of its size may while %s", client->path, doing);
  else if (WIFSIGNALED (status) && WTERMSIG (status) != SIGKILL)
    tprof_error_set (error, TPROF_ERROR_FORMAT,
                     "%s: the file is damaged: the HDF5 library crashed while %s (%s)",
                     client->path, doing, strsignal (WTERMSIG (status)));
  else if (WIFEXITED (status) && WEXITSTATUS (status) == 127)
    tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot start the reader process %s",
                     client->path, client->helper);
  else
    tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: the reader process stopped while %s (%s)",
                     client->path, doing,
                     saved_errno == EPROTO ? "it is of another build of tprof" : "no answer");
}

/* Gives the helper its file: the path and how much memory it may use. */
static int
client_send_open (TprofReaderClient *client)
{
  TprofWire w = { 0 };
  int rc;

  _tprof_wire_put_string (&w, client->path);
  /* the sanitizers reserve terabytes of shadow */
  _tprof_wire_put_u64 (&w, SANITIZED_BUILD ? 0 : (uint64_t) client->memory_limit);
  rc = _tprof_reader_send (client->sock, TPROF_READER_MSG_OPEN, &w, -1);
  _tprof_wire_clear (&w);
  return rc;
}

/* A helper for the file: the one started ahead of need, else a new one.
 * 0, or -1 with @error (a helper that cannot be told its file counts as
 * one that stopped: the caller's receive says why). */
static int
client_spawn (TprofReaderClient *client,
              TprofError        *error)
{
  if (_tprof_reader_spare_take (client->helper, &client->pid, &client->sock))
    {
      if (client_send_open (client) == 0)
        return 0;
      /* it ended while it waited: a new one */
      client_reap (client, &(int) { 0 });
    }
  if (_tprof_reader_spawn (client->helper, 0, &client->pid, &client->sock) < 0)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot start the reader process: %s",
                            client->path, strerror (errno));
  client_send_open (client);
  return 0;
}

/* Takes the helper's ERROR message into @error. */
static void
client_take_error (TprofReaderClient *client,
                   TprofWire         *w,
                   TprofError        *error)
{
  bool ok = true;
  int code = (int) _tprof_wire_get_u64 (w);
  char *message = _tprof_wire_get_string (w, &ok);

  if (code == TPROF_ERROR_NONE)
    code = TPROF_ERROR_FORMAT;
  tprof_error_set (error, code, "%s", message != NULL ? message : client->path);
  free (message);
}

typedef struct
{
  const char   *path;
  int           fd;
  /* flags, read and written atomically: the scan's error is read only
   * after the join */
  volatile int  stop;   /* set by the waiting thread once the helper answered */
  volatile int  found;  /* set by the scan: a damaged heap, in @error */
  TprofError    error;
} HeapScan;

static void *
heap_scan_run (void *data)
{
  HeapScan *scan = data;

  /* no HDF5 call in this thread: the whole file is read */
  if (_tprof_h5_scan_global_heaps (scan->path, scan->fd, -1, NULL, &scan->stop, &scan->error) < 0
      && scan->error.code == TPROF_ERROR_FORMAT)
    __atomic_store_n (&scan->found, 1, __ATOMIC_RELAXED);
  return NULL;
}

/* The scan found a damaged heap while the helper works: a refusal of its
 * that comes within HEAP_SCAN_GRACE_MS is the one the in-process open
 * gives (it asks HDF5 to open the file, which names a truncated one,
 * before it checks the heaps), so it is taken instead. true with it in
 * @type and @w. */
static bool
client_receive_refusal (TprofReaderClient *client,
                        TprofReaderMsg    *type,
                        TprofWire         *w,
                        int               *got_fd)
{
  if (_tprof_reader_receive (client->sock, type, w, got_fd, HEAP_SCAN_GRACE_MS, NULL) == 0
      && *type == TPROF_READER_MSG_ERROR)
    return true;
  if (*got_fd >= 0)
    close (*got_fd);
  *got_fd = -1;
  return false;
}

/* Receives the helper's first message; if it is slow to come, scans the
 * file for damaged heaps meanwhile. As _tprof_reader_receive(), -2 when
 * the scan found one (then in @scan_error). */
static int
client_receive_first (TprofReaderClient *client,
                      TprofReaderMsg    *type,
                      TprofWire         *w,
                      int               *got_fd,
                      TprofError        *scan_error)
{
  struct pollfd p = { client->sock, POLLIN, 0 };
  HeapScan scan = { client->path, client->fd, 0, 0, { 0 } };
  bool scanning = false;
  pthread_t thread;
  int ready, rc;

  do
    ready = poll (&p, 1, HEAP_SCAN_AFTER_MS);
  while (ready < 0 && errno == EINTR);
  if (ready == 0 && client->fd >= 0)
    scanning = pthread_create (&thread, NULL, heap_scan_run, &scan) == 0;
  rc = _tprof_reader_receive (client->sock, type, w, got_fd, OPEN_TIMEOUT_MS, scanning ? &scan.found : NULL);
  if (rc == -2 && client_receive_refusal (client, type, w, got_fd))
    rc = 0;
  if (scanning)
    {
      __atomic_store_n (&scan.stop, 1, __ATOMIC_RELAXED);
      pthread_join (thread, NULL);
    }
  if (rc == -2)
    *scan_error = scan.error;
  return rc;
}

/* Starts the helper on @client->path and receives its first message into
 * @w: 0 with the metadata, or -1 with @error. */
static int
client_start (TprofReaderClient *client,
              TprofWire         *w,
              TprofError        *error)
{
  TprofReaderMsg type;
  TprofError scan_error = { 0 };
  int got_fd, rc, status;

  if (client_spawn (client, error) < 0)
    return -1;
  rc = client_receive_first (client, &type, w, &got_fd, &scan_error);
  if (got_fd >= 0)
    close (got_fd);
  if (rc == -2)
    {
      client_reap (client, &status);
      tprof_error_set (error, scan_error.code, "%s", scan_error.message);
      return -1;
    }
  if (rc != 0)
    {
      client_failed (client, rc, "opening it", error);
      return -1;
    }
  if (type == TPROF_READER_MSG_META)
    return 0;
  if (type == TPROF_READER_MSG_ERROR)
    client_take_error (client, w, error);
  else
    tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: the reader process sent no metadata", client->path);
  client_reap (client, &status);
  return -1;
}

void
_tprof_reader_client_free (TprofReaderClient *client)
{
  int status;

  if (client == NULL)
    return;
  client_reap (client, &status);
  if (client->fd >= 0)
    close (client->fd);
  _tprof_reader_columns_clear (&client->columns);
  free (client->helper);
  free (client->path);
  free (client);
}

void
_tprof_reader_client_close (TprofReaderClient *client)
{
  int status;

  client_reap (client, &status);
  /* a process that asked for helpers ready is likely to open another
   * file like this one: the next helper starts now, while the caller
   * works on, with as much heap ready as this file's metadata took (16
   * bytes of heap a byte of metadata: 24 MB for 10^5 ranks' 1.6 MB,
   * nothing much for a small file) */
  _tprof_reader_spare_start (client->helper, client->meta_bytes * 16);
  _tprof_reader_client_free (client);
}

TprofProfileFile *
tprof_profile_file_open_isolated (const char *path,
                                  TprofError *error)
{
  TprofReaderClient *client;
  TprofProfileFile *pf = NULL;
  TprofWire w = { 0 };
  struct stat st;

  tprof_error_clear (error);
  if (path == NULL || path[0] == '\0')
    {
      tprof_error_set (error, TPROF_ERROR_INVALID, "tprof_profile_file_open_isolated: the path is empty");
      return NULL;
    }
  client = calloc (1, sizeof *client);
  if (client == NULL || (client->helper = helper_path ()) == NULL
      || (client->path = strdup (path)) == NULL)
    {
      _tprof_reader_client_free (client);
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", path);
      return NULL;
    }
  client->sock = -1;
  client->fd = -1;
  client->memory_limit = MEMORY_LIMIT_BASE;
  /* for tests: take the path a sandbox without process_vm_readv takes */
  client->no_vm_copy = getenv ("TPROF_READER_NO_VM_COPY") != NULL;
  if (getenv ("TPROF_READER_DIRECT") != NULL)
    {
      client->direct_only = strcmp (getenv ("TPROF_READER_DIRECT"), "only") == 0;
      client->direct_never = strcmp (getenv ("TPROF_READER_DIRECT"), "never") == 0;
    }
  /* O_NONBLOCK: a FIFO must not block here (the helper refuses it) */
  client->fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (client->fd >= 0 && (fstat (client->fd, &st) < 0 || !S_ISREG (st.st_mode)))
    {
      close (client->fd);
      client->fd = -1;
    }
  if (client->fd >= 0)
    {
      client->dev = st.st_dev;
      client->ino = st.st_ino;
      if (st.st_size > 0)
        client->memory_limit += (rlim_t) st.st_size * MEMORY_LIMIT_PER_FILE_BYTE;
    }

  if (client_start (client, &w, error) == 0)
    pf = _tprof_reader_get_meta (&w, path, error);
  client->meta_bytes = w.len;
  _tprof_wire_clear (&w);
  if (pf == NULL)
    {
      _tprof_reader_client_free (client);
      return NULL;
    }
  pf->remote = client;
  pf->source = &_tprof_reader_source;
  /* the names as the helper read them (and found no two alike), indexed
   * here: cheaper than their index over the socket */
  if (_tprof_h5_index_names (pf, error) < 0)
    {
      tprof_profile_file_close (pf);
      return NULL;
    }
  return pf;
}

/* Sends a request, restarting the helper first when an earlier one was
 * cancelled or died. 0, or -1 with @error. */
static int
client_request (TprofReaderClient *client,
                TprofReaderMsg     type,
                const TprofWire   *request,
                TprofError        *error)
{
  int status;

  /* one that ended while idle (killed from outside) is replaced */
  if (client->pid > 0 && waitpid (client->pid, &status, WNOHANG) == client->pid)
    {
      client->pid = 0;
      client_reap (client, &status);
    }
  if (client->pid == 0)
    {
      TprofWire meta = { 0 };
      int rc = client_start (client, &meta, error);

      _tprof_wire_clear (&meta);
      if (rc < 0)
        return -1;
    }
  if (_tprof_reader_send (client->sock, type, request, -1) < 0)
    {
      client_failed (client, -1, "sending it a request", error);
      return -1;
    }
  return 0;
}

static int client_where (TprofReaderClient   *client,
                         TprofProfileFile    *file,
                         size_t               op,
                         TprofReaderLocation *loc,
                         bool                *direct,
                         TprofError          *error);

const TprofOperationStats *
_tprof_reader_client_stats (TprofProfileFile *file,
                            size_t            op,
                            TprofError       *error)
{
  TprofReaderClient *client = file->remote;
  TprofWire w = { 0 };
  TprofReaderMsg type;
  int got_fd, rc;
  const TprofOperationStats *stats = NULL;
  bool direct = false;

  /* samples this process reads itself are summarized here, by the
   * in-process reader's code: in the helper the same work ran slower (a
   * fresh process faults in every page it touches) and its per-rank
   * arrays crossed the socket after it */
  if (!client->direct_never && client->fd >= 0
      && client_where (client, file, op, &client->located_loc, &direct, error) < 0)
    return NULL;
  if (direct)
    {
      client->located = true;
      client->located_op = op;
      stats = _tprof_profile_file_stats_from_samples (file, op, error);
      client->located = false;
      return stats;
    }
  if (client->direct_only)
    {
      tprof_error_set (error, TPROF_ERROR_INVALID,
                       "%s: operation '%s': the helper would summarize it (TPROF_READER_DIRECT=only)",
                       file->path, file->ops[op].name);
      return NULL;
    }
  _tprof_wire_put_u64 (&w, op);
  if (client_request (client, TPROF_READER_MSG_STATS, &w, error) < 0)
    {
      _tprof_wire_clear (&w);
      return NULL;
    }
  rc = _tprof_reader_receive (client->sock, &type, &w, &got_fd, STATS_TIMEOUT_MS, NULL);
  if (got_fd >= 0)
    close (got_fd);
  if (rc != 0)
    client_failed (client, rc, "summarizing", error);
  else if (type == TPROF_READER_MSG_ERROR)
    client_take_error (client, &w, error);
  else if (type == TPROF_READER_MSG_STATS && _tprof_reader_get_stats (&w, file, op, NULL))
    stats = &file->op_stats[op].stats;
  else
    tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: the reader process sent malformed statistics",
                     file->path);
  _tprof_wire_clear (&w);
  return stats;
}

/* A malloc'd copy of @bytes at @at of @map, or NULL. */
static void *
copy_out (const char *map,
          size_t      at,
          size_t      bytes)
{
  void *copy = malloc (bytes != 0 ? bytes : 1);

  if (copy != NULL)
    memcpy (copy, map + at, bytes);
  return copy;
}

/* The samples the helper left in @fd (laid out as
 * _tprof_reader_samples_layout() says): times and ranks used in place
 * (the pages the helper wrote, mapped here: no copy), the timeline copied. */
static TprofGatheredTime *
client_take_samples (TprofReaderClient *client,
                     int                fd,
                     TprofWire         *w,
                     TprofError        *error)
{
  uint64_t n = _tprof_wire_get_u64 (w);
  bool has_starts = _tprof_wire_get_u64 (w) != 0, has_threads = _tprof_wire_get_u64 (w) != 0;
  size_t starts_at, threads_at, bytes;
  double *starts = NULL;
  int32_t *threads = NULL;
  TprofGatheredTime *gt;
  struct stat st;
  char *map;

  if (n == 0 && !w->failed)
    return tprof_gathered_time_new_take (NULL, NULL, 0);
  if (w->failed || n > SIZE_MAX / 32 || fd < 0 || fstat (fd, &st) < 0
      || (uint64_t) st.st_size < (bytes = _tprof_reader_samples_layout ((size_t) n, has_starts, has_threads,
                                                                          &starts_at, &threads_at)))
    {
      tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: the reader process sent no samples", client->path);
      return NULL;
    }
  /* private: a change here never reaches the helper's pages */
  map = mmap (NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  if (map == MAP_FAILED)
    gt = NULL;
  else
    {
      if (has_starts)
        starts = copy_out (map, starts_at, (size_t) n * sizeof *starts);
      if (has_threads)
        threads = copy_out (map, threads_at, (size_t) n * sizeof *threads);
      if ((has_starts && starts == NULL) || (has_threads && threads == NULL))
        {
          munmap (map, bytes);
          gt = NULL;
        }
      else  /* takes the mapping, also when it fails */
        gt = _tprof_gathered_time_new_mapped (map, bytes, (size_t) n);
      if (gt == NULL)
        {
          free (starts);
          free (threads);
        }
      else
        tprof_gathered_time_set_timeline_take (gt, starts, threads);
    }
  if (gt == NULL)
    tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory for %llu samples",
                     client->path, (unsigned long long) n);
  return gt;
}

/* Copies @bytes at @remote in the helper into @local; false on failure. */
static bool
copy_from_helper (pid_t       pid,
                  void       *local,
                  uint64_t    remote,
                  size_t      bytes)
{
  size_t done = 0;

  while (done < bytes)
    {
      struct iovec here = { (char *) local + done, bytes - done };
      struct iovec there = { (void *) (uintptr_t) (remote + done), bytes - done };
      ssize_t got = process_vm_readv (pid, &here, 1, &there, 1, 0);

      if (got <= 0)
        return false;
      done += (size_t) got;
    }
  return true;
}

/* The samples the helper offers at addresses in its memory (a SAMPLES_AT
 * message), copied into arrays of ours on huge pages: the one copy there
 * is. Tells the helper whether it worked; when not (a sandbox may forbid
 * process_vm_readv), the helper sends them in a memfd next, and later
 * reads go that way at once. Sets *@gt on success (NULL when out of
 * memory, with @error set); returns false when the memfd is to come. */
static bool
client_copy_samples (TprofReaderClient  *client,
                     TprofWire          *w,
                     TprofGatheredTime **gt,
                     TprofError         *error)
{
  uint64_t n = _tprof_wire_get_u64 (w);
  bool has_starts = _tprof_wire_get_u64 (w) != 0, has_threads = _tprof_wire_get_u64 (w) != 0;
  uint64_t at_times = _tprof_wire_get_u64 (w), at_ranks = _tprof_wire_get_u64 (w);
  uint64_t at_starts = _tprof_wire_get_u64 (w), at_threads = _tprof_wire_get_u64 (w);
  double *times = NULL, *starts = NULL;
  int32_t *ranks = NULL, *threads = NULL;
  bool memfd = false;
  TprofWire answer = { 0 };

  *gt = NULL;
  if (w->failed || n > SIZE_MAX / 32)
    tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: the reader process sent malformed samples", client->path);
  else if (n == 0)
    *gt = tprof_gathered_time_new_take (NULL, NULL, 0);
  else if (client->no_vm_copy)
    memfd = true;
  else
    {
      times = _tprof_malloc_array ((size_t) n, sizeof *times);
      ranks = _tprof_malloc_array ((size_t) n, sizeof *ranks);
      starts = has_starts ? _tprof_malloc_array ((size_t) n, sizeof *starts) : NULL;
      threads = has_threads ? _tprof_malloc_array ((size_t) n, sizeof *threads) : NULL;
      if (times == NULL || ranks == NULL || (has_starts && starts == NULL) || (has_threads && threads == NULL))
        tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory for %llu samples",
                         client->path, (unsigned long long) n);
      else if (copy_from_helper (client->pid, times, at_times, (size_t) n * sizeof *times)
               && copy_from_helper (client->pid, ranks, at_ranks, (size_t) n * sizeof *ranks)
               && (!has_starts || copy_from_helper (client->pid, starts, at_starts, (size_t) n * sizeof *starts))
               && (!has_threads
                   || copy_from_helper (client->pid, threads, at_threads, (size_t) n * sizeof *threads)))
        {
          /* each array is handed over: nothing is left to free here */
          *gt = tprof_gathered_time_new_take (times, ranks, (size_t) n);
          if (*gt == NULL)
            {
              free (starts);
              free (threads);
              tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", client->path);
            }
          else
            tprof_gathered_time_set_timeline_take (*gt, starts, threads);
          times = starts = NULL;
          ranks = threads = NULL;
        }
      else
        memfd = client->no_vm_copy = true;
    }
  free (times);
  free (ranks);
  free (starts);
  free (threads);

  _tprof_wire_put_u64 (&answer, !memfd);
  if (_tprof_reader_send (client->sock, TPROF_READER_MSG_TAKEN, &answer, -1) < 0 && memfd)
    {
      client_failed (client, -1, "answering it", error);
      memfd = false;
    }
  _tprof_wire_clear (&answer);
  return !memfd;
}

/* Asks the helper where operation @op's arrays lie, and takes its cache
 * into @file (the direct read checks the samples against it). 0 with
 * *@direct true when the samples can be read here from client->fd; 0
 * with it false when the helper is to read them; -1 with @error. */
static int
client_locate (TprofReaderClient   *client,
               TprofProfileFile    *file,
               size_t               op,
               TprofReaderLocation *loc,
               bool                *direct,
               TprofError          *error)
{
  TprofWire w = { 0 };
  TprofReaderMsg type;
  int got_fd = -1, rc, result = 0;

  *direct = false;
  _tprof_wire_put_u64 (&w, op);
  if (client_request (client, TPROF_READER_MSG_LOCATE, &w, error) < 0)
    {
      _tprof_wire_clear (&w);
      return -1;
    }
  rc = _tprof_reader_receive (client->sock, &type, &w, &got_fd, READ_TIMEOUT_MS, NULL);
  if (got_fd >= 0)
    close (got_fd);
  if (rc != 0)
    {
      client_failed (client, rc, "reading its samples", error);
      result = -1;
    }
  else if (type == TPROF_READER_MSG_ERROR)
    {
      client_take_error (client, &w, error);
      result = -1;
    }
  else if (type != TPROF_READER_MSG_LOCATION || !_tprof_reader_get_location (&w, loc)
           || !_tprof_reader_get_cache (&w, &file->ops[op].cache, file->world_size))
    result = tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: the reader process sent a malformed answer",
                              file->path);
  else
    /* the very file the helper parsed, with as many samples as it said */
    *direct = loc->direct && !client->direct_never && client->fd >= 0 && loc->dev == (uint64_t) client->dev
              && loc->ino == (uint64_t) client->ino && loc->n == file->ops[op].n;
  _tprof_wire_clear (&w);
  return result;
}

/* Where operation @op's samples lie, with its cache ready here: 0 with
 * *@direct true when this process reads them itself from client->fd
 * (format 3's columns need no round trip once known; an operation
 * located for its summary is not asked for twice); 0 with it false when
 * the helper is to read them; -1 with @error. */
static int
client_where (TprofReaderClient   *client,
              TprofProfileFile    *file,
              size_t               op,
              TprofReaderLocation *loc,
              bool                *direct,
              TprofError          *error)
{
  if (client->located && client->located_op == op)
    {
      client->located = false;
      *loc = client->located_loc;
      *direct = true;
      return 0;
    }
  *direct = !client->direct_never && client->fd >= 0 && _tprof_reader_columns_locate (&client->columns, file, op, loc);
  if (!*direct && client_locate (client, file, op, loc, direct, error) < 0)
    return -1;
  if (*direct)
    _tprof_reader_columns_learn (&client->columns, file, op, loc);
  return 0;
}

/* The helper reads the samples with HDF5 and the client copies them. */
static TprofGatheredTime *
client_read_in_helper (TprofProfileFile   *file,
                       size_t              op,
                       const int32_t      *ranks,
                       size_t              n_ranks,
                       TprofProgressFunc   progress,
                       void               *user_data,
                       const volatile int *cancel,
                       TprofError         *error);

TprofGatheredTime *
_tprof_reader_client_read (TprofProfileFile   *file,
                           size_t              op,
                           const int32_t      *ranks,
                           size_t              n_ranks,
                           TprofProgressFunc   progress,
                           void               *user_data,
                           const volatile int *cancel,
                           TprofError         *error)
{
  TprofReaderClient *client = file->remote;
  TprofReaderLocation loc;
  bool direct;

  if (cancel != NULL && *cancel)
    {
      tprof_error_set (error, TPROF_ERROR_CANCELLED, "%s: cancelled", file->path);
      return NULL;
    }
  if (client_where (client, file, op, &loc, &direct, error) < 0)
    return NULL;
  if (direct)
    return _tprof_reader_read_direct (file, op, client->fd, &loc, ranks, n_ranks, progress, user_data,
                                      cancel, error);
  if (client->direct_only)
    {
      tprof_error_set (error, TPROF_ERROR_INVALID,
                       "%s: operation '%s': the helper would read it (TPROF_READER_DIRECT=only)",
                       file->path, file->ops[op].name);
      return NULL;
    }
  return client_read_in_helper (file, op, ranks, n_ranks, progress, user_data, cancel, error);
}

int
_tprof_reader_client_read_rows (TprofProfileFile *file,
                                size_t            first_op,
                                size_t            end_op,
                                uint64_t          row,
                                uint64_t          count,
                                double           *times,
                                double           *starts,
                                int32_t          *threads,
                                TprofError       *error)
{
  TprofReaderClient *client = file->remote;
  TprofReaderLocation loc;
  bool direct = false;

  if (client->direct_never || client->fd < 0 || file->n_ops == 0)
    return 1;
  /* the helper says once where the columns lie */
  if (!client->columns.known && client_locate (client, file, 0, &loc, &direct, error) < 0)
    return -1;
  if (direct)
    _tprof_reader_columns_learn (&client->columns, file, 0, &loc);
  if (!client->columns.known)
    return 1;
  return _tprof_reader_columns_read (&client->columns, file, client->fd, first_op, end_op, row, count, times,
                                     starts, threads, error);
}

int
_tprof_reader_client_column_crc (TprofProfileFile *file,
                                 int               c,
                                 uint32_t         *crc,
                                 TprofError       *error)
{
  (void) error;
  return _tprof_reader_columns_crc (&file->remote->columns, c, crc);
}

static TprofGatheredTime *
client_read_in_helper (TprofProfileFile   *file,
                           size_t              op,
                           const int32_t      *ranks,
                           size_t              n_ranks,
                           TprofProgressFunc   progress,
                           void               *user_data,
                           const volatile int *cancel,
                           TprofError         *error)
{
  TprofReaderClient *client = file->remote;
  TprofGatheredTime *gt = NULL;
  TprofWire w = { 0 };
  bool done = false;

  if (cancel != NULL && *cancel)
    {
      tprof_error_set (error, TPROF_ERROR_CANCELLED, "%s: cancelled", file->path);
      return NULL;
    }
  _tprof_wire_put_u64 (&w, op);
  _tprof_wire_put_u64 (&w, ranks != NULL);
  _tprof_wire_put_u64 (&w, ranks != NULL ? n_ranks : 0);
  if (ranks != NULL)
    _tprof_wire_put (&w, ranks, n_ranks * sizeof *ranks);
  if (client_request (client, TPROF_READER_MSG_READ, &w, error) < 0)
    {
      _tprof_wire_clear (&w);
      return NULL;
    }
  while (!done)
    {
      TprofReaderMsg type;
      int got_fd = -1;
      int rc = _tprof_reader_receive (client->sock, &type, &w, &got_fd, READ_TIMEOUT_MS, cancel);
      double fraction;

      done = true;
      if (rc != 0)
        client_failed (client, rc, "reading its samples", error);
      else if (type == TPROF_READER_MSG_PROGRESS && _tprof_wire_get (&w, &fraction, sizeof fraction))
        {
          if (progress != NULL)
            progress (fraction, user_data);
          done = false;
        }
      else if (type == TPROF_READER_MSG_ERROR)
        client_take_error (client, &w, error);
      else if (type == TPROF_READER_MSG_SAMPLES)
        gt = client_take_samples (client, got_fd, &w, error);
      else if (type == TPROF_READER_MSG_SAMPLES_AT)
        done = client_copy_samples (client, &w, &gt, error);
      else
        tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: the reader process sent a malformed answer",
                         file->path);
      if (got_fd >= 0)
        close (got_fd);
    }
  _tprof_wire_clear (&w);
  return gt;
}

void
tprof_profile_file_keep_helper_ready (void)
{
  char *helper = helper_path ();

  _tprof_reader_spare_want ();
  if (helper != NULL)
    _tprof_reader_spare_start (helper, 0);
  free (helper);
}
