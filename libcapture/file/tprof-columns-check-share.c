/* tprof-columns-check-share.c — a block's check against the operations' caches shared with a second thread, on another processor than the caller's, round by round. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tprof-h5-reader-private.h"

/* An operation's weight in the check, in rows: the rules of its cache
 * and its figures cost about what 32 more rows do. */
#define SHARE_OPERATION_ROWS 32

/* Below this weight (3 000 operations of 8 rows: 0.3 ms of work, half
 * of it handed to a thread that starts in 50 us at best) the thread's
 * start and join cost about what it takes (measured: 2 000 operations
 * no faster, 4 000 a tenth). */
#define SHARE_MIN_WEIGHT ((uint64_t) 120000)

/* How long a thread waits on its processor, polling, before it sleeps:
 * for the rows (their read takes 0.2 ms for such a block), and the
 * caller for the thread's last round and exit. Woken from a sleep, in a
 * virtual machine, a thread runs again only some 30 us later, where a
 * poll sees the change at once; the processor polls only while free. */
#define SHARE_POLL_NS 1000000

static int64_t
share_now_ns (void)
{
  struct timespec t;

  clock_gettime (CLOCK_MONOTONIC, &t);
  return (int64_t) t.tv_sec * 1000000000 + t.tv_nsec;
}

static inline void
share_pause (void)
{
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause ();
#endif
}

/* The next round, as @first, @n and @row: false when none is left, or
 * one was refused (the rounds after it cannot change the outcome). */
static bool
share_take (TprofColumnsCheckShare *s,
            size_t                 *first,
            size_t                 *n,
            uint64_t               *row)
{
  bool took;

  pthread_mutex_lock (&s->lock);
  took = !s->stop && s->next < s->end;
  if (took)
    {
      *first = s->next;
      *n = _tprof_columns_check_round_size (s->pf, s->next, s->end);
      *row = s->next_row;
      for (; s->next < *first + *n; s->next++)
        s->next_row += s->pf->ops[s->next].n;
    }
  pthread_mutex_unlock (&s->lock);
  return took;
}

static void
share_stop (TprofColumnsCheckShare *s)
{
  pthread_mutex_lock (&s->lock);
  s->stop = true;
  pthread_mutex_unlock (&s->lock);
}

/* Rounds taken one after the other until none is left: each refusal is
 * that of the first operation refused in its round, the rounds taken
 * before it all checked by one hand or the other. */
static void
share_work (TprofColumnsCheckShare *s,
            TprofColumnsCheckHand  *hand)
{
  size_t first, n;
  uint64_t row;

  while (share_take (s, &first, &n, &row))
    if (_tprof_columns_check_round (hand->round, s->pf, first, n, s->times + row, &hand->error) < 0)
      {
        hand->refused = first;
        share_stop (s);
        return;
      }
}

/* Until the caller has read the rows: polled a while, then asleep. */
static void
share_wait_rows (TprofColumnsCheckShare *s)
{
  int64_t until = share_now_ns () + SHARE_POLL_NS;

  while (!__atomic_load_n (&s->ready, __ATOMIC_ACQUIRE) && share_now_ns () < until)
    for (int i = 0; i < 64; i++)
      share_pause ();
  pthread_mutex_lock (&s->lock);
  while (!__atomic_load_n (&s->ready, __ATOMIC_ACQUIRE))
    pthread_cond_wait (&s->rows_read, &s->lock);
  pthread_mutex_unlock (&s->lock);
}

static void *
share_thread (void *data)
{
  TprofColumnsCheckShare *s = data;

  __atomic_store_n (&s->begun, true, __ATOMIC_RELAXED);
  share_wait_rows (s);
  share_work (s, &s->hands[1]);
  return NULL;
}

void
_tprof_columns_check_share_rows_read (TprofColumnsCheckShare *share,
                                      bool                    read)
{
  pthread_mutex_lock (&share->lock);
  share->stop |= !read;
  __atomic_store_n (&share->ready, true, __ATOMIC_RELEASE);
  pthread_cond_broadcast (&share->rows_read);
  pthread_mutex_unlock (&share->lock);
}

/* The thread joined: polled a while (it is on its last round, or
 * exiting), then waited for. */
static void
share_join (TprofColumnsCheckShare *s)
{
  int64_t until = share_now_ns () + SHARE_POLL_NS;

  while (share_now_ns () < until)
    {
      if (pthread_tryjoin_np (s->thread, NULL) != EBUSY)
        return;
      for (int i = 0; i < 64; i++)
        share_pause ();
    }
  pthread_join (s->thread, NULL);
}

static void
share_clear (TprofColumnsCheckShare *s)
{
  _tprof_columns_check_round_free (s->hands[0].round);
  _tprof_columns_check_round_free (s->hands[1].round);
}

/* Whether fewer tasks are ready to run than there are @cpus (this one
 * among them), from the kernel's count at this moment (/proc/loadavg's
 * fourth field): a thread that has to share a busy processor with other
 * programs keeps the caller waiting for its turn, a time slice of
 * milliseconds, at the join. false when the count cannot be read. */
static bool
share_processor_free (int cpus)
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
share_elsewhere (cpu_set_t *elsewhere)
{
  int here = sched_getcpu ();

  if (sched_getaffinity (0, sizeof *elsewhere, elsewhere) != 0 || CPU_COUNT (elsewhere) < 2
      || !share_processor_free (CPU_COUNT (elsewhere)))
    return false;
  if (here >= 0 && here < CPU_SETSIZE)
    CPU_CLR (here, elsewhere);
  return true;
}

bool
_tprof_columns_check_share_start (TprofColumnsCheckShare *share,
                                  const TprofProfileFile *pf,
                                  size_t                  first,
                                  size_t                  end,
                                  const double           *times)
{
  uint64_t weight = 0;
  cpu_set_t elsewhere;
  pthread_attr_t attr;
  bool started = false;

  for (size_t k = first; k < end && weight < SHARE_MIN_WEIGHT; k++)
    weight += SHARE_OPERATION_ROWS + pf->ops[k].n;
  if (weight < SHARE_MIN_WEIGHT || !share_elsewhere (&elsewhere))
    return false;
  *share = (TprofColumnsCheckShare) {
    .pf = pf, .times = times, .end = end, .next = first,
    .hands = { { _tprof_columns_check_round_new (), SIZE_MAX, { 0 } },
               { _tprof_columns_check_round_new (), SIZE_MAX, { 0 } } },
  };
  if (share->hands[0].round == NULL || share->hands[1].round == NULL
      || pthread_mutex_init (&share->lock, NULL) != 0)
    {
      share_clear (share);
      return false;
    }
  if (pthread_cond_init (&share->rows_read, NULL) != 0)
    {
      pthread_mutex_destroy (&share->lock);
      share_clear (share);
      return false;
    }
  if (pthread_attr_init (&attr) == 0)
    {
      started = pthread_attr_setaffinity_np (&attr, sizeof elsewhere, &elsewhere) == 0
                && pthread_create (&share->thread, &attr, share_thread, share) == 0;
      pthread_attr_destroy (&attr);
    }
  if (!started)
    {
      pthread_cond_destroy (&share->rows_read);
      pthread_mutex_destroy (&share->lock);
      share_clear (share);
    }
  return started;
}

int
_tprof_columns_check_share_finish (TprofColumnsCheckShare *share,
                                   int                     result,
                                   TprofError             *error)
{
  const TprofColumnsCheckHand *lowest;
  cpu_set_t caller;
  int here;

  if (result < 0)
    share_stop (share);
  else
    share_work (share, &share->hands[0]);
  /* not begun: the other processor is busy, where the thread would wait
   * its turn; moved here, it runs (and finds nothing left) as soon as the
   * caller waits for it */
  if (!__atomic_load_n (&share->begun, __ATOMIC_RELAXED) && (here = sched_getcpu ()) >= 0 && here < CPU_SETSIZE)
    {
      CPU_ZERO (&caller);
      CPU_SET (here, &caller);
      pthread_setaffinity_np (share->thread, sizeof caller, &caller);
    }
  share_join (share);
  pthread_cond_destroy (&share->rows_read);
  pthread_mutex_destroy (&share->lock);
  lowest = share->hands[1].refused < share->hands[0].refused ? &share->hands[1] : &share->hands[0];
  if (result == 0 && lowest->refused != SIZE_MAX)
    {
      if (error != NULL)
        *error = lowest->error;
      result = -1;
    }
  share_clear (share);
  return result;
}
