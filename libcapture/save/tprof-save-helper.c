/* tprof-save-helper.c — a save's second thread: each operation checked and its statistics computed as soon as it is grouped, then the sample columns copied into the image and written out. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tprof/tprof-profiled-time.h"
#include "tprof-h5-writer-private.h"

/* Operations are handed over this many at a time: a lock per operation
 * would cost more than its statistics. */
#define SAVE_HAND_OVER 256

/* Below this much work (a sample, or 64 per operation) a thread costs
 * more than it saves. */
#define SAVE_THREAD_MIN_WORK ((uint64_t) 1 << 16)

/* Refuses what the format cannot hold: an invalid name or sample. */
static int
save_check_operation (const char              *path,
                      const char              *name,
                      const TprofGatheredTime *gt,
                      int                      world_size,
                      TprofError              *error)
{
  size_t n = tprof_gathered_time_count (gt);
  size_t invalid;
  char where[1024];

  /* checked again: samples appended by the gather or the library's own
   * code bypass tprof_profiled_time_add() */
  if (!_tprof_h5_utf8_valid (name, strlen (name)))
    return tprof_error_set (error, TPROF_ERROR_INVALID, "%s: cannot save: an operation name is not valid UTF-8",
                            path);
  /* times known valid by their builder (a merge of spill files): their
   * ranks are checked by the grouping, which reads them anyway */
  if (_tprof_gathered_time_times_valid (gt))
    return 0;
  invalid = _tprof_h5_find_invalid (tprof_gathered_time_times (gt), tprof_gathered_time_ranks (gt), 0, n,
                                    world_size);
  if (invalid == n)
    return 0;
  snprintf (where, sizeof where, "%s: cannot save: ", path);
  return _tprof_h5_invalid_sample_error (error, TPROF_ERROR_INVALID, where, name, tprof_gathered_time_times (gt),
                                         tprof_gathered_time_ranks (gt), invalid, world_size);
}

/* Sets what @field or @flag point to (either may be NULL) under @h's lock
 * and wakes whoever waits for it; nothing without a thread. */
static void
save_helper_set (TprofSaveHelper *h,
                 size_t          *field,
                 size_t           value,
                 bool            *flag)
{
  if (!h->threaded)
    return;
  pthread_mutex_lock (&h->lock);
  if (field != NULL)
    *field = value;
  if (flag != NULL)
    *flag = true;
  pthread_cond_broadcast (&h->moved);
  pthread_mutex_unlock (&h->lock);
}

void
_tprof_save_helper_prepared (TprofSaveHelper *h,
                             size_t           k)
{
  if (k == h->n_ops || k % SAVE_HAND_OVER == 0)
    save_helper_set (h, &h->prepared, k, NULL);
}

/* Operations are claimed this many at a time by either thread. */
#define SAVE_CLAIM 64

static void
save_helper_lock (TprofSaveHelper *h)
{
  if (h->threaded)
    pthread_mutex_lock (&h->lock);
}

static void
save_helper_unlock (TprofSaveHelper *h)
{
  if (h->threaded)
    pthread_mutex_unlock (&h->lock);
}

/* Operation @k checked, then its statistics into its cache, by the
 * statistics engine (@scratch may be NULL). 0, or -1 with @error. */
static int
save_helper_operation (TprofSaveHelper    *h,
                       TprofCachedScratch *scratch,
                       size_t              k,
                       TprofError         *error)
{
  TprofSaveOperations *so = h->so;
  size_t per_op = (size_t) h->world_size * TPROF_CACHED_STATS_ARRAYS;
  int64_t *storage = so->rank_block != NULL ? so->rank_block + k * per_op : NULL;
  const TprofGatheredTime *gt = tprof_profiled_time_nth (h->pt, k);

  if (save_check_operation (h->path, tprof_profiled_time_name (h->pt, k), gt, h->world_size, error) < 0)
    return -1;
  gt = so->copies[k] != NULL ? so->copies[k] : gt;
  so->caches[k] = (TprofCachedStats) { 0 };
  /* a cache that fails is left cleared */
  if (!_tprof_cached_stats_init (&so->caches[k], gt, h->world_size, storage, scratch))
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory writing operation '%s'", h->path,
                            so->parts[k].name);
  return 0;
}

/* The next operations from the front, [@k, the end returned), as the
 * writing thread hands them over and up to where it has taken them from
 * the back; @k itself when none is left. */
static size_t
save_helper_claim_front (TprofSaveHelper *h,
                         size_t           k)
{
  size_t end;

  save_helper_lock (h);
  while (h->threaded && h->prepared <= k && k < h->back && !h->stop && !h->failed)
    pthread_cond_wait (&h->moved, &h->lock);
  end = h->stop || h->failed ? k : k + SAVE_CLAIM;
  end = end < h->prepared ? end : h->prepared;
  end = end < h->back ? end : h->back;
  end = end > k ? end : k;
  h->front = end;
  save_helper_unlock (h);
  return end;
}

/* The operations from the front, each checked and its statistics
 * computed as soon as the writing thread hands it over (grouped by rank),
 * until they meet those it takes from the back (save_helper_back()). */
static int
save_helper_front (TprofSaveHelper *h)
{
  TprofCachedScratch scratch;
  bool have_scratch = _tprof_cached_scratch_init (&scratch, h->world_size);
  int result = 0;

  /* every operation's per-rank arrays lie in one block where it could be
   * had, not five allocations each, and one scratch serves their runs */
  for (size_t k = 0, end = 0; result == 0; k++)
    {
      if (k == end && (end = save_helper_claim_front (h, k)) == k)
        break;
      result = save_helper_operation (h, have_scratch ? &scratch : NULL, k, &h->error);
      if (result == 0)
        h->so->n_cached = k + 1;
    }
  if (have_scratch)
    _tprof_cached_scratch_clear (&scratch);
  if (result < 0)
    save_helper_set (h, NULL, 0, &h->failed);
  return result;
}

/* The writing thread's share, once every operation is prepared: from the
 * back, a few at a time, until it meets the helper. 0, or -1 with
 * @error. */
static int
save_helper_back (TprofSaveHelper *h,
                  TprofError      *error)
{
  TprofCachedScratch scratch;
  bool have_scratch = _tprof_cached_scratch_init (&scratch, h->world_size);
  int result = 0;

  while (result == 0)
    {
      size_t start, end;

      pthread_mutex_lock (&h->lock);
      end = h->back;
      start = h->failed || end <= h->front ? end : end - h->front > SAVE_CLAIM ? end - SAVE_CLAIM : h->front;
      h->back = start;
      pthread_mutex_unlock (&h->lock);
      if (start == end)
        break;
      /* downwards, so that the caches set are always those from
       * so->from_cached on */
      for (size_t k = end; result == 0 && k-- > start;)
        if ((result = save_helper_operation (h, have_scratch ? &scratch : NULL, k, error)) == 0)
          h->so->from_cached = k;
    }
  if (have_scratch)
    _tprof_cached_scratch_clear (&scratch);
  if (result < 0)
    save_helper_set (h, NULL, 0, &h->failed);
  return result;
}

/* The sample columns, which nothing changes once copied, written to the
 * file at once, off the writing thread's path: its commit then writes
 * the rest of the image around them. A column out of the file's order is
 * left to the commit. */
static void
save_helper_write_samples (TprofSaveHelper *h)
{
  size_t done = 0;

  for (int i = 0; i < TPROF_N_SAMPLE_COLUMNS; i++)
    {
      size_t from;

      if (h->spans[i] == NULL)
        continue;
      from = (size_t) (h->spans[i] - h->out->image);
      if (from < done)
        continue;
      if (_tprof_save_image_write_out (h->out, from, from + h->span_bytes[i]) < 0)
        {
          h->write_errno = errno;
          return;
        }
      done = from + h->span_bytes[i];
    }
  /* their write-back started now, beside the writing thread's tables,
   * not by the commit's fsync() */
  _tprof_save_image_start_write_back (h->out, 0, done);
}

static void *
save_helper_thread (void *data)
{
  TprofSaveHelper *h = data;

  /* the names' heap first, which the writing thread would otherwise
   * write after HDF5's close: early on the helper mostly waits for the
   * grouping, and the statistics, shared from both ends, absorb the
   * rest */
  if (h->in_image)
    (void) _tprof_names_heap_build (&h->names, h->pt);
  h->result = save_helper_front (h);
  save_helper_set (h, NULL, 0, &h->stats_done);
  pthread_mutex_lock (&h->lock);
  while (!h->samples_given && !h->stop)
    pthread_cond_wait (&h->moved, &h->lock);
  pthread_mutex_unlock (&h->lock);
  /* the image is pinned from the hand-over to the join: the spans hold */
  if (h->samples_given && h->layout != NULL)
    {
      _tprof_columns_writer_samples_fill (h->layout, h->spans);
      save_helper_write_samples (h);
      /* the names' checksum came with their heap; without it, here,
       * while the writing thread still has the tables and HDF5's close
       * before it */
      if (h->layout->names_crc_later && h->names.heap != NULL)
        h->layout->crc[TPROF_COL_OP_NAME] = h->names.crc;
      else if (h->layout->names_crc_later)
        _tprof_columns_writer_names_crc (h->layout);
    }
  return NULL;
}

static bool
save_helper_worth_a_thread (const TprofProfiledTime *pt)
{
  uint64_t work = (uint64_t) tprof_profiled_time_len (pt) * 64;

  for (size_t k = 0; k < tprof_profiled_time_len (pt) && work < SAVE_THREAD_MIN_WORK; k++)
    work += tprof_gathered_time_count (tprof_profiled_time_nth (pt, k));
  return work >= SAVE_THREAD_MIN_WORK;
}

void
_tprof_save_helper_start (TprofSaveHelper         *h,
                          const TprofProfiledTime *pt,
                          TprofSaveOperations     *so,
                          TprofSaveFile           *out)
{
  *h = (TprofSaveHelper) {
    .world_size = tprof_profiled_time_world_size (pt), .path = out->path, .pt = pt, .so = so,
    .n_ops = tprof_profiled_time_len (pt), .back = tprof_profiled_time_len (pt), .out = out,
    /* read here: the writing thread moves the image as it grows */
    .in_image = out->image != NULL,
  };
  so->from_cached = h->n_ops;
  if (!save_helper_worth_a_thread (pt))
    return;
  if (pthread_mutex_init (&h->lock, NULL) != 0)
    return;
  if (pthread_cond_init (&h->moved, NULL) != 0)
    {
      pthread_mutex_destroy (&h->lock);
      return;
    }
  /* set before the thread reads it */
  h->threaded = true;
  if (pthread_create (&h->thread, NULL, save_helper_thread, h) == 0)
    return;
  h->threaded = false;
  pthread_cond_destroy (&h->moved);
  pthread_mutex_destroy (&h->lock);
}

/* Waits for the helper's share of the statistics. */
static void
save_helper_join_stats (TprofSaveHelper *h)
{
  pthread_mutex_lock (&h->lock);
  while (!h->stats_done)
    pthread_cond_wait (&h->moved, &h->lock);
  pthread_mutex_unlock (&h->lock);
}

int
_tprof_save_helper_statistics (TprofSaveHelper *h,
                               TprofError      *error)
{
  TprofError own = { 0 };

  if (!h->threaded)
    {
      h->prepared = h->n_ops;
      h->result = save_helper_front (h);
    }
  else
    {
      /* what the helper has not reached yet, from the back: neither
       * thread waits for the other while work is left */
      if (save_helper_back (h, &own) < 0)
        {
          if (error != NULL)
            *error = own;
          save_helper_join_stats (h);
          return -1;
        }
      save_helper_join_stats (h);
    }
  if (h->result < 0 && error != NULL)
    *error = h->error;
  return h->result;
}

int
_tprof_save_helper_samples (TprofSaveHelper    *h,
                            TprofProfileWriter *w,
                            TprofColumnsLayout *l,
                            TprofError         *error)
{
  size_t prefault_from;

  if (!h->threaded || w->out->image == NULL)
    {
      /* nothing for the helper: it goes on to its end */
      save_helper_set (h, NULL, 0, &h->samples_given);
      return _tprof_columns_writer_samples (w, l, error);
    }
  prefault_from = w->out->image_end;
  if (_tprof_columns_writer_sample_spans (w, l, h->spans, h->span_bytes, error) < 0)
    return -1;
  /* the spans hold until the join: nothing may move the image meanwhile */
  w->out->image_pinned = true;
  h->layout = l;
  save_helper_set (h, NULL, 0, &h->samples_given);
  /* The image's fresh pages past what is written (huge ones, each zeroed
   * by the kernel at its first touch, which can take milliseconds on a
   * virtual machine) faulted in here while the helper still computes
   * statistics, not on its way when it copies the samples there. Only a
   * hint, which leaves every byte as it is. */
  if (w->out->reserved > 0 && (size_t) w->out->reserved > prefault_from)
    _tprof_prefault_write (w->out->image + prefault_from, (size_t) w->out->reserved - prefault_from);
  return 0;
}

int
_tprof_save_helper_join (TprofSaveHelper *h,
                         TprofSaveFile   *out,
                         TprofError      *error)
{
  if (!h->threaded)
    return 0;
  save_helper_set (h, NULL, 0, &h->stop);
  pthread_join (h->thread, NULL);
  pthread_cond_destroy (&h->moved);
  pthread_mutex_destroy (&h->lock);
  h->threaded = false;
  out->image_pinned = false;
  if (h->write_errno == 0)
    return 0;
  return tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot write its temporary file: %s", h->path,
                          strerror (h->write_errno));
}

void
_tprof_save_helper_recheck (TprofSaveHelper *h,
                            size_t           n_ops,
                            TprofError      *error)
{
  TprofError refused = { 0 };

  for (size_t k = 0; k < n_ops && k < h->n_ops; k++)
    if (save_check_operation (h->path, tprof_profiled_time_name (h->pt, k), tprof_profiled_time_nth (h->pt, k),
                              h->world_size, &refused) < 0)
      {
        if (error != NULL)
          *error = refused;
        return;
      }
}
