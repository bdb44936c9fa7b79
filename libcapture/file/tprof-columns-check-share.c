/* tprof-columns-check-share.c — a block's check against the operations' caches shared with a second thread, on another processor than the caller's, round by round. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdlib.h>

#include "tprof-h5-reader-private.h"

/* An operation's weight in the check, in rows: the rules of its cache
 * and its figures cost about what 32 more rows do. */
#define SHARE_OPERATION_ROWS 32

/* Below this weight (3 000 operations of 8 rows: 0.3 ms of work, half
 * of it handed to a thread that starts in 50 us at best) the thread's
 * start and join cost about what it takes (measured: 2 000 operations
 * no faster, 4 000 a tenth). */
#define SHARE_MIN_WEIGHT ((uint64_t) 120000)

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

/* The thread's part (or the caller's, after its own, where the thread
 * had not taken it: it then finds nothing left). */
static void
share_thread (void *data)
{
  TprofColumnsCheckShare *s = data;

  _tprof_columns_thread_wait_flag (&s->ready, &s->lock, &s->rows_read);
  share_work (s, &s->hands[1]);
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

static void
share_clear (TprofColumnsCheckShare *s)
{
  _tprof_columns_check_round_free (s->hands[0].round);
  _tprof_columns_check_round_free (s->hands[1].round);
}

bool
_tprof_columns_check_share_start (TprofColumnsCheckShare *share,
                                  const TprofProfileFile *pf,
                                  size_t                  first,
                                  size_t                  end,
                                  const double           *times)
{
  uint64_t weight = 0;
  bool started;

  for (size_t k = first; k < end && weight < SHARE_MIN_WEIGHT; k++)
    weight += SHARE_OPERATION_ROWS + pf->ops[k].n;
  if (weight < SHARE_MIN_WEIGHT)
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
  started = _tprof_columns_job_start (&share->job, share_thread, share);
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

  if (result < 0)
    share_stop (share);
  else
    share_work (share, &share->hands[0]);
  _tprof_columns_job_finish (&share->job);
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
