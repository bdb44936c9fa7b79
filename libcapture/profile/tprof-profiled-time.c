/* tprof-profiled-time.c — TprofProfiledTime: operations in recording order, found by name through a hash index; a loaded one's made when first asked for. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tprof/tprof-profiled-time.h"
#include "tprof-analysis-internal.h"
#include "tprof-h5-internal.h"
#include "tprof-profiled-time-internal.h"

struct _TprofProfiledTime
{
  int                 world_size;

  size_t              n_ops;
  size_t              ops_capacity;
  char              **names;
  /* names[0 .. n_block_names) lie in names_block (a load's), not
   * malloc'd each */
  char               *names_block;
  size_t              n_block_names;
  /* NULL for an operation of views not asked for yet; set atomically,
   * since accessors of a const profile make it */
  TprofGatheredTime **gts;
  TprofProfiledView  *views;  /* ops_capacity entries once one is appended, else NULL */

  /* Open addressing, linear probing; a slot holds an op index + 1, 0 when
   * free. Kept at most half full so probes stay short. */
  size_t             *slots;
  size_t              n_slots;
  uint64_t            seed;       /* of _tprof_name_hash() */
  size_t              n_indexed;  /* operations the slots held before they were appended */

  char              **hostnames;  /* world_size entries, or NULL */
  double             *clock_offsets;        /* world_size entries, or NULL */
  double             *clock_offset_errors;  /* world_size entries, or NULL */
  char               *timeline_origin;
  double             *data_until;  /* world_size entries, or NULL */
  char               *created;
  char               *producer;
  char               *clock;
};

uint64_t
_tprof_name_hash (const char *name,
                  uint64_t    seed)
{
  /* FNV-1a: cheap, and good enough for operation names */
  uint64_t h = seed ^ UINT64_C (0xcbf29ce484222325);

  for (const unsigned char *p = (const unsigned char *) name; *p != '\0'; p++)
    h = (h ^ *p) * UINT64_C (0x100000001b3);
  h ^= h >> 32;
  h *= UINT64_C (0xd6e8feb86659fd93);
  return h ^ (h >> 32);
}

TprofProfiledTime *
tprof_profiled_time_new (int world_size)
{
  TprofProfiledTime *pt;

  if (world_size < 1)
    return NULL;
  pt = calloc (1, sizeof *pt);
  if (pt == NULL)
    return NULL;
  pt->world_size = world_size;
  return pt;
}

static void
tprof_profiled_time_free_hostnames (TprofProfiledTime *pt)
{
  if (pt->hostnames == NULL)
    return;
  for (int r = 0; r < pt->world_size; r++)
    free (pt->hostnames[r]);
  free (pt->hostnames);
  pt->hostnames = NULL;
}

void
tprof_profiled_time_free (TprofProfiledTime *pt)
{
  if (pt == NULL)
    return;
  for (size_t i = 0; i < pt->n_ops; i++)
    {
      if (i >= pt->n_block_names)
        free (pt->names[i]);
      tprof_gathered_time_free (pt->gts[i]);
      if (pt->views != NULL && pt->views[i].release != NULL)
        pt->views[i].release (pt->views[i].release_data);
    }
  free (pt->names);
  free (pt->names_block);
  free (pt->gts);
  free (pt->views);
  free (pt->slots);
  tprof_profiled_time_free_hostnames (pt);
  free (pt->clock_offsets);
  free (pt->clock_offset_errors);
  free (pt->timeline_origin);
  free (pt->data_until);
  free (pt->created);
  free (pt->producer);
  free (pt->clock);
  free (pt);
}

size_t
_tprof_profiled_time_find (const TprofProfiledTime *pt,
                           const char              *name)
{
  size_t mask;

  if (pt->n_slots == 0 || name == NULL)
    return TPROF_PROFILED_TIME_NOT_FOUND;
  mask = pt->n_slots - 1;
  for (size_t s = (size_t) _tprof_name_hash (name, pt->seed) & mask;; s = (s + 1) & mask)
    {
      size_t slot = pt->slots[s];

      if (slot == 0)
        return TPROF_PROFILED_TIME_NOT_FOUND;
      if (strcmp (pt->names[slot - 1], name) == 0)
        return slot - 1;
    }
}

static void
tprof_profiled_time_index_insert (const TprofProfiledTime *pt,
                                  size_t                  *slots,
                                  size_t                   n_slots,
                                  const char              *name,
                                  size_t                   op)
{
  size_t mask = n_slots - 1;
  size_t s = (size_t) _tprof_name_hash (name, pt->seed) & mask;

  while (slots[s] != 0)
    s = (s + 1) & mask;
  slots[s] = op + 1;
}

/* Makes room for @count operations in all in the arrays and the index. */
static bool
tprof_profiled_time_reserve_for (TprofProfiledTime *pt,
                                 size_t             count)
{
  if (count > pt->ops_capacity)
    {
      size_t capacity = pt->ops_capacity != 0 ? pt->ops_capacity : 16;
      char **names;
      TprofGatheredTime **gts;

      while (capacity < count && capacity <= SIZE_MAX / 8 / sizeof *gts)
        capacity *= 2;
      if (capacity < count)
        return false;
      names = realloc (pt->names, capacity * sizeof *names);
      if (names == NULL)
        return false;
      pt->names = names;
      gts = realloc (pt->gts, capacity * sizeof *gts);
      if (gts == NULL)
        return false;
      pt->gts = gts;
      if (pt->views != NULL)
        {
          TprofProfiledView *views = realloc (pt->views, capacity * sizeof *views);

          if (views == NULL)
            return false;
          pt->views = views;
        }
      pt->ops_capacity = capacity;
    }

  if (count * 2 > pt->n_slots)
    {
      size_t n_slots = pt->n_slots != 0 ? pt->n_slots : 32;
      size_t *slots;

      while (n_slots < count * 2)
        n_slots *= 2;
      slots = calloc (n_slots, sizeof *slots);
      if (slots == NULL)
        return false;
      for (size_t i = 0; i < pt->n_ops; i++)
        tprof_profiled_time_index_insert (pt, slots, n_slots, pt->names[i], i);
      free (pt->slots);
      pt->slots = slots;
      pt->n_slots = n_slots;
    }
  return true;
}

bool
_tprof_profiled_time_reserve (TprofProfiledTime *pt,
                              size_t             n_ops)
{
  return n_ops <= SIZE_MAX / 8 - pt->n_ops && tprof_profiled_time_reserve_for (pt, pt->n_ops + n_ops);
}

bool
_tprof_profiled_time_reserve_indexed (TprofProfiledTime *pt,
                                      size_t             n_ops,
                                      size_t            *slots,
                                      size_t             n_slots,
                                      uint64_t           seed)
{
  /* a table of another profile's shape, or a profile not empty: built
   * here as operations come */
  if (slots == NULL || pt->n_ops != 0 || pt->slots != NULL || n_slots < 2 * n_ops || n_slots == 0 || (n_slots & (n_slots - 1)) != 0)
    {
      free (slots);
      return _tprof_profiled_time_reserve (pt, n_ops);
    }
  pt->slots = slots;
  pt->n_slots = n_slots;
  pt->seed = seed;
  pt->n_indexed = n_ops;
  return _tprof_profiled_time_reserve (pt, n_ops);
}

void
_tprof_profiled_time_adopt_names (TprofProfiledTime *pt,
                                  char              *block,
                                  size_t             n)
{
  pt->names_block = block;
  pt->n_block_names = n;
}

bool
_tprof_profiled_time_append_take (TprofProfiledTime *pt,
                                  char              *name,
                                  TprofGatheredTime *gt)
{
  if (!tprof_profiled_time_reserve_for (pt, pt->n_ops + 1))
    {
      if (pt->n_ops >= pt->n_block_names)
        free (name);
      tprof_gathered_time_free (gt);
      return false;
    }
  pt->names[pt->n_ops] = name;
  pt->gts[pt->n_ops] = gt;
  if (pt->views != NULL)
    pt->views[pt->n_ops] = (TprofProfiledView) { 0 };
  if (pt->n_ops >= pt->n_indexed)
    tprof_profiled_time_index_insert (pt, pt->slots, pt->n_slots, name, pt->n_ops);
  pt->n_ops++;
  return true;
}

bool
_tprof_profiled_time_append_view_take (TprofProfiledTime       *pt,
                                       char                    *name,
                                       const TprofProfiledView *view)
{
  bool room = tprof_profiled_time_reserve_for (pt, pt->n_ops + 1);

  /* the operations appended before have none; the rest are written as
   * they are appended */
  if (room && pt->views == NULL && (pt->views = malloc (pt->ops_capacity * sizeof *pt->views)) != NULL)
    memset (pt->views, 0, pt->n_ops * sizeof *pt->views);
  if (!room || pt->views == NULL)
    {
      if (pt->n_ops >= pt->n_block_names)
        free (name);
      if (view->release != NULL)
        view->release (view->release_data);
      return false;
    }
  pt->names[pt->n_ops] = name;
  pt->gts[pt->n_ops] = NULL;
  pt->views[pt->n_ops] = *view;
  if (pt->n_ops >= pt->n_indexed)
    tprof_profiled_time_index_insert (pt, pt->slots, pt->n_slots, name, pt->n_ops);
  pt->n_ops++;
  return true;
}

/* Operation @i's selection, made from its view when first asked for; NULL
 * only when memory is exhausted. */
static const TprofGatheredTime *
tprof_profiled_time_op (const TprofProfiledTime *pt,
                        size_t                   i)
{
  TprofGatheredTime *gt = __atomic_load_n (&pt->gts[i], __ATOMIC_ACQUIRE), *expected = NULL;
  const TprofProfiledView *v;

  if (gt != NULL || pt->views == NULL)
    return gt;
  v = &pt->views[i];
  gt = _tprof_gathered_time_new_view (v->times, v->ranks, v->starts, v->threads, v->n, NULL, NULL);
  /* threads asking at once: the first one's is kept */
  if (gt != NULL && !__atomic_compare_exchange_n (&pt->gts[i], &expected, gt, false, __ATOMIC_ACQ_REL,
                                                  __ATOMIC_ACQUIRE))
    {
      tprof_gathered_time_free (gt);
      gt = expected;
    }
  return gt;
}

bool
_tprof_profiled_time_append (TprofProfiledTime *pt,
                             const char        *name,
                             TprofGatheredTime *gt)
{
  char *copy = strdup (name);

  if (copy == NULL)
    {
      tprof_gathered_time_free (gt);
      return false;
    }
  return _tprof_profiled_time_append_take (pt, copy, gt);
}

int
tprof_profiled_time_add (TprofProfiledTime *pt,
                         const char        *name,
                         TprofGatheredTime *gt,
                         TprofError        *error)
{
  size_t n, invalid;

  if (pt == NULL || gt == NULL)
    {
      tprof_gathered_time_free (gt);
      return tprof_error_set (error, TPROF_ERROR_INVALID,
                              "tprof_profiled_time_add: %s is NULL",
                              pt == NULL ? "the profile" : "the samples");
    }
  if (name == NULL || name[0] == '\0')
    {
      tprof_gathered_time_free (gt);
      return tprof_error_set (error, TPROF_ERROR_INVALID,
                              "an operation name must not be empty");
    }
  if (_tprof_profiled_time_find (pt, name) != TPROF_PROFILED_TIME_NOT_FOUND)
    {
      tprof_gathered_time_free (gt);
      return tprof_error_set (error, TPROF_ERROR_INVALID,
                              "operation '%s' is already in the profile", name);
    }

  if (!_tprof_h5_utf8_valid (name, strlen (name)))
    {
      tprof_gathered_time_free (gt);
      return tprof_error_set (error, TPROF_ERROR_INVALID, "an operation name must be valid UTF-8");
    }
  /* what a file may not hold is refused here, so that a save never writes
   * a profile the reader refuses */
  n = tprof_gathered_time_count (gt);
  invalid = _tprof_h5_find_invalid (tprof_gathered_time_times (gt), tprof_gathered_time_ranks (gt),
                                    0, n, pt->world_size);
  if (invalid < n)
    {
      _tprof_h5_invalid_sample_error (error, TPROF_ERROR_INVALID, "", name, tprof_gathered_time_times (gt),
                                      tprof_gathered_time_ranks (gt), invalid, pt->world_size);
      tprof_gathered_time_free (gt);
      return -1;
    }

  if (!_tprof_profiled_time_append (pt, name, gt))
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY,
                            "out of memory adding operation '%s'", name);
  return 0;
}

size_t
tprof_profiled_time_len (const TprofProfiledTime *pt)
{
  return pt != NULL ? pt->n_ops : 0;
}

const char *
tprof_profiled_time_name (const TprofProfiledTime *pt,
                          size_t                   i)
{
  if (pt == NULL || i >= pt->n_ops)
    return NULL;
  return pt->names[i];
}

const TprofGatheredTime *
tprof_profiled_time_nth (const TprofProfiledTime *pt,
                         size_t                   i)
{
  if (pt == NULL || i >= pt->n_ops)
    return NULL;
  return tprof_profiled_time_op (pt, i);
}

const TprofGatheredTime *
tprof_profiled_time_get (const TprofProfiledTime *pt,
                         const char              *name)
{
  size_t i;

  if (pt == NULL)
    return NULL;
  i = _tprof_profiled_time_find (pt, name);
  return i != TPROF_PROFILED_TIME_NOT_FOUND ? tprof_profiled_time_op (pt, i) : NULL;
}

int
tprof_profiled_time_world_size (const TprofProfiledTime *pt)
{
  return pt != NULL ? pt->world_size : 0;
}

int
tprof_profiled_time_set_hostnames (TprofProfiledTime *pt,
                                   const char *const *hostnames,
                                   TprofError        *error)
{
  char **copy;

  if (pt == NULL || hostnames == NULL)
    return tprof_error_set (error, TPROF_ERROR_INVALID,
                            "tprof_profiled_time_set_hostnames: %s is NULL",
                            pt == NULL ? "the profile" : "the host name array");
  for (int r = 0; r < pt->world_size; r++)
    if (hostnames[r] == NULL)
      return tprof_error_set (error, TPROF_ERROR_INVALID,
                              "the host name of rank %d is NULL", r);
    else if (!_tprof_h5_utf8_valid (hostnames[r], strlen (hostnames[r])))
      {
        char shown[96];

        /* a profile file holds only UTF-8: refused here, not by every reader */
        _tprof_h5_printable (hostnames[r], shown, sizeof shown);
        return tprof_error_set (error, TPROF_ERROR_INVALID,
                                "the host name of rank %d, \"%s\", is not valid UTF-8", r, shown);
      }

  copy = calloc ((unsigned) pt->world_size, sizeof *copy);
  if (copy == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY,
                            "out of memory copying %d host names", pt->world_size);
  for (int r = 0; r < pt->world_size; r++)
    {
      copy[r] = strdup (hostnames[r]);
      if (copy[r] == NULL)
        {
          for (int k = 0; k < r; k++)
            free (copy[k]);
          free (copy);
          return tprof_error_set (error, TPROF_ERROR_NO_MEMORY,
                                  "out of memory copying %d host names", pt->world_size);
        }
    }
  tprof_profiled_time_free_hostnames (pt);
  pt->hostnames = copy;
  return 0;
}

const char *
tprof_profiled_time_hostname (const TprofProfiledTime *pt,
                              int                      rank)
{
  if (pt == NULL || pt->hostnames == NULL || rank < 0 || rank >= pt->world_size)
    return NULL;
  return pt->hostnames[rank];
}

void
tprof_profiled_time_set_timeline_take (TprofProfiledTime *pt,
                                       double            *clock_offsets,
                                       double            *clock_offset_errors,
                                       char              *timeline_origin)
{
  if (pt == NULL)
    {
      free (clock_offsets);
      free (clock_offset_errors);
      free (timeline_origin);
      return;
    }
  free (pt->clock_offsets);
  free (pt->clock_offset_errors);
  free (pt->timeline_origin);
  pt->clock_offsets = clock_offsets;
  pt->clock_offset_errors = clock_offset_errors;
  pt->timeline_origin = timeline_origin;
}

const double *
tprof_profiled_time_clock_offsets (const TprofProfiledTime *pt)
{
  return pt != NULL ? pt->clock_offsets : NULL;
}

const double *
tprof_profiled_time_clock_offset_errors (const TprofProfiledTime *pt)
{
  return pt != NULL ? pt->clock_offset_errors : NULL;
}

const char *
tprof_profiled_time_timeline_origin (const TprofProfiledTime *pt)
{
  return pt != NULL ? pt->timeline_origin : NULL;
}

void
_tprof_profiled_time_set_data_until_take (TprofProfiledTime *pt,
                                          double            *data_until)
{
  free (pt->data_until);
  pt->data_until = data_until;
}

const double *
_tprof_profiled_time_data_until (const TprofProfiledTime *pt)
{
  return pt != NULL ? pt->data_until : NULL;
}

void
_tprof_profiled_time_take_info (TprofProfiledTime *pt,
                                char              *created,
                                char              *producer,
                                char              *clock)
{
  free (pt->created);
  free (pt->producer);
  free (pt->clock);
  pt->created = created;
  pt->producer = producer;
  pt->clock = clock;
}

const char *
tprof_profiled_time_created (const TprofProfiledTime *pt)
{
  return pt != NULL ? pt->created : NULL;
}

const char *
tprof_profiled_time_producer (const TprofProfiledTime *pt)
{
  return pt != NULL ? pt->producer : NULL;
}

const char *
tprof_profiled_time_clock (const TprofProfiledTime *pt)
{
  return pt != NULL ? pt->clock : NULL;
}
