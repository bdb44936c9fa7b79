/* tprof-columns-thread.c — a second thread for a format 3 load's work: one kept for the process, handed a job where a processor is free (not the caller's), awaited by polling. */
/* SPDX-License-Identifier: MIT */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tprof-h5-reader-private.h"

/* How long a thread waits on its processor, polling, before it sleeps.
 * Woken from a sleep, in a virtual machine, a thread runs again only
 * some 30 us later, where a poll sees the change at once; the processor
 * polls only while free. */
#define THREAD_POLL_NS 1000000

static int64_t
thread_now_ns (void)
{
  struct timespec t;

  clock_gettime (CLOCK_MONOTONIC, &t);
  return (int64_t) t.tv_sec * 1000000000 + t.tv_nsec;
}

static inline void
thread_pause (void)
{
#if defined(__x86_64__) || defined(__i386__)
  for (int i = 0; i < 64; i++)
    __builtin_ia32_pause ();
#endif
}

/* A look at the kernel's count serves the jobs of the next few
 * milliseconds (a load's two): reading /proc/loadavg costs some 20 us. */
#define THREAD_LOOK_NS 5000000

/* Whether fewer tasks are ready to run than there are @cpus (this one
 * among them), from the kernel's count at this moment (/proc/loadavg's
 * fourth field), or a few milliseconds ago: a thread that has to share a
 * busy processor with other programs keeps the caller waiting for its
 * turn, a time slice of milliseconds, at the join. false when the count
 * cannot be read. */
static bool
thread_processor_free (int cpus)
{
  static int64_t looked_at;  /* when, in ns (0: never), and the answer */
  static bool looked_free;
  int64_t now = thread_now_ns (), then = __atomic_load_n (&looked_at, __ATOMIC_ACQUIRE);
  char text[128];
  int fd;
  ssize_t got;
  const char *p;
  long running;
  bool free_now;

  if (then != 0 && now - then < THREAD_LOOK_NS)
    return __atomic_load_n (&looked_free, __ATOMIC_RELAXED);
  fd = open ("/proc/loadavg", O_RDONLY | O_CLOEXEC);
  got = fd >= 0 ? read (fd, text, sizeof text - 1) : -1;
  if (fd >= 0)
    close (fd);
  if (got <= 0)
    return false;
  text[got] = '\0';
  p = text;
  for (int field = 0; field < 3 && p != NULL; field++)
    p = strchr (p + 1, ' ');
  running = p != NULL ? strtol (p + 1, NULL, 10) : cpus;
  free_now = running < cpus;
  __atomic_store_n (&looked_free, free_now, __ATOMIC_RELAXED);
  __atomic_store_n (&looked_at, now, __ATOMIC_RELEASE);
  return free_now;
}

/* Where the thread may run: where the process may, but the caller's
 * processor (a new thread waits there, else, for the caller to block).
 * false when that leaves none, or none is free. */
static bool
thread_elsewhere (cpu_set_t *elsewhere)
{
  int here = sched_getcpu ();

  if (sched_getaffinity (0, sizeof *elsewhere, elsewhere) != 0 || CPU_COUNT (elsewhere) < 2
      || !thread_processor_free (CPU_COUNT (elsewhere)))
    return false;
  if (here >= 0 && here < CPU_SETSIZE)
    CPU_CLR (here, elsewhere);
  return true;
}

/* The thread, started at the first job and kept (parked on wake) for
 * the next: a thread's start cost the caller 40 us, twice a load of 10^4
 * operations, where a job's handing over costs one wake-up. It runs one
 * job at a time: a job offered while it is busy (another load, on
 * another thread) is the caller's to do. */
typedef struct
{
  pthread_mutex_t  lock;
  pthread_cond_t   wake;     /* a job queued, or quit */
  pthread_cond_t   done;     /* a job done */
  TprofColumnsJob *queued;
  bool             busy;     /* a job queued or running */
  bool             quit;
  bool             created;
  int              away_from;  /* the processor it is kept off, or -1 */
  pthread_t        thread;
} Worker;

static Worker worker = {
  PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, false, false, false, -1,
};

enum { JOB_QUEUED, JOB_TAKEN, JOB_DONE };

static void *
worker_main (void *data)
{
  (void) data;
  pthread_mutex_lock (&worker.lock);
  for (;;)
    {
      TprofColumnsJob *job;

      while (worker.queued == NULL && !worker.quit)
        pthread_cond_wait (&worker.wake, &worker.lock);
      if (worker.quit)
        break;
      job = worker.queued;
      worker.queued = NULL;
      __atomic_store_n (&job->state, JOB_TAKEN, __ATOMIC_RELAXED);
      pthread_mutex_unlock (&worker.lock);
      job->run (job->data);
      pthread_mutex_lock (&worker.lock);
      worker.busy = false;
      /* the last touch of the job: its owner may return at once */
      __atomic_store_n (&job->state, JOB_DONE, __ATOMIC_RELEASE);
      pthread_cond_broadcast (&worker.done);
    }
  pthread_mutex_unlock (&worker.lock);
  return NULL;
}

/* A child of fork() has no such thread: it starts its own. */
static void
worker_forget (void)
{
  worker = (Worker) {
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, false, false, false, -1,
  };
}

static void
worker_register_fork (void)
{
  pthread_atfork (NULL, NULL, worker_forget);
}

/* The library unloaded, or the process ending: the thread, parked, let
 * go. One on a job is left to the process's end: its job may wait for
 * a load on another thread that exit() does not wait for. */
__attribute__ ((destructor)) static void
worker_stop (void)
{
  bool parked;

  pthread_mutex_lock (&worker.lock);
  parked = worker.created && !worker.busy;
  worker.quit = true;
  pthread_cond_broadcast (&worker.wake);
  pthread_mutex_unlock (&worker.lock);
  if (parked)
    pthread_join (worker.thread, NULL);
}

/* Under the lock: the thread started, kept off the caller's processor
 * (@elsewhere), with every signal blocked (they are the program's). */
static bool
worker_create (const cpu_set_t *elsewhere)
{
  static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
  sigset_t all, before;
  pthread_attr_t attr;
  bool started;

  if (pthread_attr_init (&attr) != 0)
    return false;
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &before);
  started = pthread_attr_setaffinity_np (&attr, sizeof *elsewhere, elsewhere) == 0
            && pthread_create (&worker.thread, &attr, worker_main, NULL) == 0;
  pthread_sigmask (SIG_SETMASK, &before, NULL);
  pthread_attr_destroy (&attr);
  if (started)
    pthread_once (&fork_once, worker_register_fork);
  worker.created = started;
  return started;
}

bool
_tprof_columns_job_start (TprofColumnsJob *job,
                          void           (*run) (void *data),
                          void            *data)
{
  cpu_set_t elsewhere;
  int here = sched_getcpu ();
  bool started = false;

  if (!thread_elsewhere (&elsewhere))
    return false;
  *job = (TprofColumnsJob) { .run = run, .data = data, .state = JOB_QUEUED };
  pthread_mutex_lock (&worker.lock);
  if (!worker.busy && !worker.quit && (worker.created || worker_create (&elsewhere)))
    {
      /* kept off the processor the caller is on now */
      if (worker.away_from != here
          && pthread_setaffinity_np (worker.thread, sizeof elsewhere, &elsewhere) == 0)
        worker.away_from = here;
      worker.queued = job;
      worker.busy = true;
      pthread_cond_signal (&worker.wake);
      started = true;
    }
  pthread_mutex_unlock (&worker.lock);
  return started;
}

void
_tprof_columns_thread_wait_flag (const bool      *flag,
                                 pthread_mutex_t *lock,
                                 pthread_cond_t  *changed)
{
  int64_t until = thread_now_ns () + THREAD_POLL_NS;

  while (!__atomic_load_n (flag, __ATOMIC_ACQUIRE) && thread_now_ns () < until)
    thread_pause ();
  pthread_mutex_lock (lock);
  while (!__atomic_load_n (flag, __ATOMIC_ACQUIRE))
    pthread_cond_wait (changed, lock);
  pthread_mutex_unlock (lock);
}

void
_tprof_columns_job_finish (TprofColumnsJob *job)
{
  int64_t until;

  /* not taken yet (the other processor busy since): done here */
  pthread_mutex_lock (&worker.lock);
  if (worker.queued == job)
    {
      worker.queued = NULL;
      worker.busy = false;
      pthread_mutex_unlock (&worker.lock);
      job->run (job->data);
      return;
    }
  pthread_mutex_unlock (&worker.lock);
  until = thread_now_ns () + THREAD_POLL_NS;
  while (__atomic_load_n (&job->state, __ATOMIC_ACQUIRE) != JOB_DONE && thread_now_ns () < until)
    thread_pause ();
  pthread_mutex_lock (&worker.lock);
  while (__atomic_load_n (&job->state, __ATOMIC_ACQUIRE) != JOB_DONE)
    pthread_cond_wait (&worker.done, &worker.lock);
  pthread_mutex_unlock (&worker.lock);
}
