/* tprof-columns-thread.c — a second thread for a format 3 load's work, started where a processor is free (not the caller's), awaited by polling. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
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

/* Whether fewer tasks are ready to run than there are @cpus (this one
 * among them), from the kernel's count at this moment (/proc/loadavg's
 * fourth field): a thread that has to share a busy processor with other
 * programs keeps the caller waiting for its turn, a time slice of
 * milliseconds, at the join. false when the count cannot be read. */
static bool
thread_processor_free (int cpus)
{
  char text[128];
  int fd = open ("/proc/loadavg", O_RDONLY | O_CLOEXEC);
  ssize_t got = fd >= 0 ? read (fd, text, sizeof text - 1) : -1;
  const char *p;
  long running;

  if (fd >= 0)
    close (fd);
  if (got <= 0)
    return false;
  text[got] = '\0';
  p = text;
  for (int field = 0; field < 3 && p != NULL; field++)
    p = strchr (p + 1, ' ');
  running = p != NULL ? strtol (p + 1, NULL, 10) : cpus;
  return running < cpus;
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

bool
_tprof_columns_thread_start (pthread_t *thread,
                             void    *(*run) (void *),
                             void      *data)
{
  cpu_set_t elsewhere;
  pthread_attr_t attr;
  bool started = false;

  if (!thread_elsewhere (&elsewhere) || pthread_attr_init (&attr) != 0)
    return false;
  started = pthread_attr_setaffinity_np (&attr, sizeof elsewhere, &elsewhere) == 0
            && pthread_create (thread, &attr, run, data) == 0;
  pthread_attr_destroy (&attr);
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
_tprof_columns_thread_join (pthread_t  thread,
                            const bool *begun)
{
  int64_t until = thread_now_ns () + THREAD_POLL_NS;
  cpu_set_t caller;
  int here;

  /* not begun: the other processor is busy, where the thread would wait
   * its turn; moved here, it runs as soon as the caller waits for it */
  if (!__atomic_load_n (begun, __ATOMIC_RELAXED) && (here = sched_getcpu ()) >= 0 && here < CPU_SETSIZE)
    {
      CPU_ZERO (&caller);
      CPU_SET (here, &caller);
      pthread_setaffinity_np (thread, sizeof caller, &caller);
      pthread_join (thread, NULL);
      return;
    }
  while (thread_now_ns () < until)
    {
      if (pthread_tryjoin_np (thread, NULL) != EBUSY)
        return;
      thread_pause ();
    }
  pthread_join (thread, NULL);
}
