/* tprof-operation-cache.c — an operation's cached statistics (docs/file-format.md): read and checked at open, then against the samples read. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-h5-reader-private.h"
#include "tprof-analysis-internal.h"

#define TPROF_CACHE_ALL_FLOATS ((1u << TPROF_CACHE_N_FLOATS) - 1)

/* Relative tolerance between the cache and what the samples give (2b). */
#define TPROF_CACHE_TOLERANCE 1e-9

/* Worlds up to this many ranks use arrays on the stack. */
#define TPROF_CACHE_SMALL_WORLD 64

static const char *const tprof_cache_float_names[TPROF_CACHE_N_FLOATS] = {
  "sum", "mean", "std", "min", "max", "median", "p95", "p99",
};

void
_tprof_operation_cache_clear (TprofOperationCache *cache)
{
  if (!cache->borrowed)
    {
      free (cache->rank_count);
      free (cache->rank_recorded);
      free (cache->rank_sum);
      free (cache->rank_min);
      free (cache->rank_max);
    }
  memset (cache, 0, sizeof *cache);
}

static bool
tprof_cache_close (double a,
                   double b)
{
  if (a == b)  /* the common case; also two equal infinities, whose difference is NaN */
    return true;
  if (isnan (a) || isnan (b))
    return isnan (a) && isnan (b);
  return fabs (a - b) <= TPROF_CACHE_TOLERANCE * fmax (fabs (a), fabs (b));
}

/* Float attribute @name of @group: 1 with the value, 0 when absent, -1. */
static int
tprof_cache_read_float_attr (const TprofProfileFile *pf,
                             hid_t                   group,
                             const char             *op,
                             const char             *name,
                             double                 *value,
                             TprofError             *error)
{
  hid_t attr, type = -1, space = -1;
  bool ok;

  if (H5Aexists (group, name) <= 0)
    return 0;
  attr = H5Aopen (group, name, H5P_DEFAULT);
  if (attr >= 0)
    type = H5Aget_type (attr);
  if (attr >= 0)
    space = H5Aget_space (attr);
  ok = type >= 0 && space >= 0 && H5Tget_class (type) == H5T_FLOAT
       && H5Sget_simple_extent_npoints (space) == 1
       && H5Aread (attr, H5T_NATIVE_DOUBLE, value) >= 0;
  _tprof_h5_close (space);
  _tprof_h5_close (type);
  _tprof_h5_close (attr);
  if (!ok)
    return tprof_error_set (error, TPROF_ERROR_FORMAT,
                            "%s: operation '%s': attribute '%s' is not a floating point number",
                            pf->path, op, name);
  return 1;
}

static int
tprof_cache_read_attrs (const TprofProfileFile *pf,
                        hid_t                   group,
                        TprofH5Operation       *op,
                        TprofError             *error)
{
  TprofOperationCache *cache = &op->cache;
  char problem[128];
  long long count;
  int found = _tprof_h5_read_int_attr (group, "count", &count, problem, sizeof problem);

  if (found < 0)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: operation '%s': attribute 'count' %s",
                            pf->path, op->name, problem);
  cache->has_count = found > 0;
  cache->count = count;
  for (int i = 0; i < TPROF_CACHE_N_FLOATS; i++)
    {
      found = tprof_cache_read_float_attr (pf, group, op->name, tprof_cache_float_names[i],
                                           &cache->floats[i], error);
      if (found < 0)
        return -1;
      if (found > 0)
        cache->floats_present |= 1u << i;
    }
  return 0;
}

/* Reads the per-rank members into new arrays (NULL when absent). */
static int
tprof_cache_read_rank_members (const TprofProfileFile *pf,
                               hid_t                   group,
                               TprofH5Operation       *op,
                               TprofError             *error)
{
  static const char *const names[] = { "rank_count", "rank_recorded", "rank_sum", "rank_min", "rank_max" };
  TprofOperationCache *cache = &op->cache;
  void **arrays[] = { (void **) &cache->rank_count, (void **) &cache->rank_recorded,
                      (void **) &cache->rank_sum, (void **) &cache->rank_min, (void **) &cache->rank_max };
  size_t w = (size_t) pf->world_size;

  for (size_t i = 0; i < 5; i++)
    {
      bool counts = i < 2;
      void *data = malloc (w * 8);
      int found;

      if (data == NULL)
        return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", pf->path);
      found = _tprof_h5_read_member (pf, group, op->name, names[i],
                                     counts ? H5T_INTEGER : H5T_FLOAT,
                                     counts ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE, w, data, error);
      if (found <= 0)
        free (data);
      else
        *arrays[i] = data;
      if (found < 0)
        return -1;
    }
  return 0;
}

/* Sets the error "FILE: operation 'OP': PREFIX: MESSAGE"; returns -1. */
static int
tprof_cache_error (const TprofProfileFile *pf,
                   const TprofH5Operation *op,
                   TprofError             *error,
                   const char             *prefix,
                   const char             *format,
                   ...)
{
  char what[384];
  va_list args;

  va_start (args, format);
  vsnprintf (what, sizeof what, format, args);
  va_end (args);
  return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: operation '%s': %s: %s",
                          pf->path, op->name, prefix, what);
}

#define CACHE_BAD(...) tprof_cache_error (pf, op, error, "bad cached statistics", __VA_ARGS__)
#define CACHE_DIFFERS(...) \
  tprof_cache_error (pf, op, error, "the cached statistics do not match the samples", __VA_ARGS__)

/* How messages name statistic @i (TprofCacheFloat; -1: the count) of
 * @op: format 3's column and row, format 2's attribute. */
static const char *
tprof_cache_stat_name (const TprofProfileFile *pf,
                       const TprofH5Operation *op,
                       int                     i,
                       bool                    short_form,
                       char                   *buf,
                       size_t                  size)
{
  const char *name = i < 0 ? "count" : tprof_cache_float_names[i];

  if (pf->format_version >= 3)
    snprintf (buf, size, "operations/%s[%zu]", name, (size_t) (op - pf->ops));
  else
    snprintf (buf, size, short_form ? "'%s'" : "attribute '%s'", name);
  return buf;
}

/* How messages name format 2's per-rank member @member ("rank_sum") of
 * rank @r (@indexed: with the rank as index): in format 3, the figure of
 * the rank's segment. */
static const char *
tprof_cache_rank_name (const TprofProfileFile *pf,
                       const TprofH5Operation *op,
                       const char             *member,
                       int                     r,
                       bool                    indexed,
                       char                   *buf,
                       size_t                  size)
{
  const char *column = strcmp (member, "rank_count") == 0 ? "offset" : member + strlen ("rank_");
  int64_t s;

  if (pf->format_version < 3 && indexed)
    snprintf (buf, size, "%s[%d]", member, r);
  else if (pf->format_version < 3)
    snprintf (buf, size, "%s", member);
  else if ((s = _tprof_columns_segment_of (pf, op, r)) >= 0)
    snprintf (buf, size, "segments/%s[%lld] (rank %d)", column, (long long) s, r);
  else
    snprintf (buf, size, "segments/%s (rank %d, which has no segment)", column, r);
  return buf;
}

#define STAT_NAME(i) tprof_cache_stat_name (pf, op, (i), false, (char[96]) { 0 }, 96)
/* the same, in format 2 without the word "attribute" (said before) */
#define STAT_SHORT(i) tprof_cache_stat_name (pf, op, (i), true, (char[96]) { 0 }, 96)
#define RANK_NAME(member, r) tprof_cache_rank_name (pf, op, (member), (r), true, (char[128]) { 0 }, 128)
/* the same, in format 2 without the index (the rank is named beside) */
#define RANK_FIELD(member, r) tprof_cache_rank_name (pf, op, (member), (r), false, (char[128]) { 0 }, 128)

static bool
tprof_cache_is_time (double v)
{
  return isfinite (v) && v >= 0;
}

/* A sum of times (or a figure made of one: mean, std): finite and >= 0;
 * +inf only where @count finite times no larger than @max can overflow
 * (@squared: their squares, for std). Any other infinity is damage that
 * every comparison with the samples would accept. */
static bool
tprof_cache_is_total (double  v,
                      double  max,
                      int64_t count,
                      bool    squared)
{
  if (isinf (v) && v > 0)
    return isfinite (max) && isinf ((squared ? max * max : max) * (double) count);
  return isfinite (v) && v >= 0;
}

/* Samples rank @r recorded: rank_recorded, else rank_count; -1 unknown. */
static int64_t
tprof_cache_recorded (const TprofOperationCache *cache,
                      int                        r)
{
  if (cache->rank_recorded != NULL)
    return cache->rank_recorded[r];
  return cache->rank_count != NULL ? cache->rank_count[r] : -1;
}

/* true when rank @r stores a subset of what it recorded (sampled capture). */
static bool
tprof_cache_rank_sampled (const TprofOperationCache *cache,
                          int                        r)
{
  return cache->rank_recorded != NULL && cache->rank_count != NULL
         && cache->rank_recorded[r] > cache->rank_count[r];
}

/* rank_min or rank_max of rank @r, against what it recorded. */
static int
tprof_cache_check_extreme (const TprofProfileFile *pf,
                           const TprofH5Operation *op,
                           const char             *name,
                           int                     r,
                           double                  v,
                           int64_t                 recorded,
                           TprofError             *error)
{
  if (recorded == 0 && !isnan (v))
    return CACHE_BAD ("%s is %g, expected NaN: rank %d has no samples", RANK_NAME (name, r), v, r);
  if (recorded > 0 && !tprof_cache_is_time (v))
    return CACHE_BAD ("%s is %g, but rank %d has %lld samples", RANK_NAME (name, r), v, r, (long long) recorded);
  if (recorded < 0 && !isnan (v) && !tprof_cache_is_time (v))
    return CACHE_BAD ("%s is %g, expected NaN or a finite time >= 0", RANK_NAME (name, r), v);
  return 0;
}

/* Whether some rank stores fewer samples than it recorded. */
static bool
tprof_cache_sampled (const TprofProfileFile    *pf,
                     const TprofOperationCache *c)
{
  if (c->rank_recorded == NULL)
    return false;
  for (int r = 0; r < pf->world_size; r++)
    if (tprof_cache_rank_sampled (c, r))
      return true;
  return false;
}

static int
tprof_cache_check_rank_values (const TprofProfileFile *pf,
                               const TprofH5Operation *op,
                               int                     r,
                               TprofError             *error)
{
  const TprofOperationCache *c = &op->cache;
  int64_t recorded = tprof_cache_recorded (c, r);

  if (c->rank_sum != NULL
      && !tprof_cache_is_total (c->rank_sum[r], c->rank_max != NULL ? c->rank_max[r] : NAN, recorded, false))
    return CACHE_BAD ("%s is %g, expected a finite total time >= 0", RANK_NAME ("rank_sum", r), c->rank_sum[r]);
  if (c->rank_sum != NULL && recorded == 0 && c->rank_sum[r] != 0)
    return CACHE_BAD ("%s is %g, but rank %d has no samples", RANK_NAME ("rank_sum", r), c->rank_sum[r], r);
  if ((c->rank_min != NULL
       && tprof_cache_check_extreme (pf, op, "rank_min", r, c->rank_min[r], recorded, error) < 0)
      || (c->rank_max != NULL
          && tprof_cache_check_extreme (pf, op, "rank_max", r, c->rank_max[r], recorded, error) < 0))
    return -1;
  if (c->rank_min != NULL && c->rank_max != NULL && c->rank_min[r] > c->rank_max[r])
    return CACHE_BAD ("%s (%g) is larger than %s (%g)",
                      RANK_NAME ("rank_min", r), c->rank_min[r], RANK_NAME ("rank_max", r), c->rank_max[r]);
  return 0;
}

/* Rank @r's members in the common cases at once, all present: a rank
 * with samples, at most @room of them stored, its figures finite and
 * >= 0 and its minimum at most its maximum; or one without any, a sum of
 * 0 and NaN extremes. true only where the checks one by one below pass
 * too; anything else goes through them, which name what is wrong. */
static bool
tprof_cache_rank_plain (const TprofOperationCache *c,
                        int                        r,
                        uint64_t                   room)
{
  int64_t count, recorded;

  if (c->rank_count == NULL || c->rank_sum == NULL || c->rank_min == NULL || c->rank_max == NULL)
    return false;
  count = c->rank_count[r];
  recorded = c->rank_recorded != NULL ? c->rank_recorded[r] : count;
  if (count < 0 || (uint64_t) count > room || recorded < count)
    return false;
  if (recorded == 0)
    return c->rank_sum[r] == 0 && isnan (c->rank_min[r]) && isnan (c->rank_max[r]);
  return (_tprof_h5_value_head (c->rank_sum[r]) | _tprof_h5_value_head (c->rank_min[r]) | _tprof_h5_value_head (c->rank_max[r]))
         <= 0x7ff && c->rank_min[r] <= c->rank_max[r];
}

/* The per-rank members: counts add up to the samples stored, values fit. */
static int
tprof_cache_check_ranks (const TprofProfileFile *pf,
                         const TprofH5Operation *op,
                         TprofError             *error)
{
  const TprofOperationCache *c = &op->cache;
  uint64_t stored = 0;

  for (int r = 0; r < pf->world_size; r++)
    {
      if (tprof_cache_rank_plain (c, r, op->n - stored))
        {
          stored += (uint64_t) c->rank_count[r];
          continue;
        }
      if (c->rank_count != NULL && c->rank_count[r] < 0)
        return CACHE_BAD ("rank_count[%d] is %lld, expected >= 0", r, (long long) c->rank_count[r]);
      if (c->rank_count != NULL && (uint64_t) c->rank_count[r] > op->n - stored)
        return CACHE_BAD ("rank_count[0..%d] add up to more than the %llu samples stored",
                          r, (unsigned long long) op->n);
      if (c->rank_count != NULL)
        stored += (uint64_t) c->rank_count[r];
      if (c->rank_recorded != NULL
          && c->rank_recorded[r] < (c->rank_count != NULL ? c->rank_count[r] : 0))
        return CACHE_BAD ("%s is %lld, fewer than the rank's stored samples",
                          RANK_NAME ("rank_recorded", r), (long long) c->rank_recorded[r]);
      if (tprof_cache_check_rank_values (pf, op, r, error) < 0)
        return -1;
    }
  if (c->rank_count != NULL && stored != op->n)
    return CACHE_BAD ("rank_count adds up to %llu, but the operation stores %llu samples",
                      (unsigned long long) stored, (unsigned long long) op->n);
  return 0;
}

/* The samples the `count` attribute must equal: all recorded ones. */
static int64_t
tprof_cache_expected_count (const TprofProfileFile *pf,
                            const TprofH5Operation *op)
{
  int64_t total = 0;

  if (op->cache.rank_recorded == NULL)
    return (int64_t) op->n;
  for (int r = 0; r < pf->world_size; r++)
    if (__builtin_add_overflow (total, op->cache.rank_recorded[r], &total))
      return -1;
  return total;
}

/* One statistic attribute: NaN exactly when @count is too small for it. */
static int
tprof_cache_check_float (const TprofProfileFile *pf,
                         const TprofH5Operation *op,
                         int                     i,
                         int64_t                 count,
                         TprofError             *error)
{
  double v = op->cache.floats[i];
  double max = op->cache.floats_present & (1u << TPROF_CACHE_MAX) ? op->cache.floats[TPROF_CACHE_MAX] : NAN;
  int64_t needed = i == TPROF_CACHE_SUM ? 0 : i == TPROF_CACHE_STD ? 2 : 1;

  if (count < needed && !(i == TPROF_CACHE_SUM ? v == 0 : isnan (v)))
    return CACHE_BAD ("%s is %g, expected %s for %lld samples",
                      STAT_NAME (i), v, i == TPROF_CACHE_SUM ? "0" : "NaN", (long long) count);
  if (count >= needed && (i == TPROF_CACHE_SUM || i == TPROF_CACHE_MEAN || i == TPROF_CACHE_STD
                          ? !tprof_cache_is_total (v, max, count, i == TPROF_CACHE_STD)
                          : !tprof_cache_is_time (v)))
    return CACHE_BAD ("%s is %g, expected a finite time >= 0", STAT_NAME (i), v);
  return 0;
}

/* min <= median <= p95 <= p99 <= max, over those present. */
static int
tprof_cache_check_order (const TprofProfileFile *pf,
                         const TprofH5Operation *op,
                         TprofError             *error)
{
  static const int chain[] = { TPROF_CACHE_MIN, TPROF_CACHE_MEDIAN, TPROF_CACHE_P95,
                               TPROF_CACHE_P99, TPROF_CACHE_MAX };
  const TprofOperationCache *c = &op->cache;
  int last = -1;

  for (size_t k = 0; k < 5; k++)
    {
      int i = chain[k];

      if (!(c->floats_present & (1u << i)) || isnan (c->floats[i]))
        continue;
      if (last >= 0 && c->floats[last] > c->floats[i] && !tprof_cache_close (c->floats[last], c->floats[i]))
        return CACHE_BAD ("%s (%g) is larger than %s (%g)",
                          STAT_NAME (last), c->floats[last], STAT_SHORT (i), c->floats[i]);
      last = i;
    }
  return 0;
}

/* The extreme of @values over ranks that recorded samples (NaN: none). */
static double
tprof_cache_rank_extreme (const TprofProfileFile *pf,
                          const TprofOperationCache *c,
                          const double           *values,
                          bool                    largest)
{
  double best = NAN;

  if (pf->world_size == 1)
    return tprof_cache_recorded (c, 0) != 0 ? values[0] : NAN;
  for (int r = 0; r < pf->world_size; r++)
    if (!isnan (values[r]) && tprof_cache_recorded (c, r) != 0
        && (isnan (best) || (largest ? values[r] > best : values[r] < best)))
      best = values[r];
  return best;
}

/* The ranks' sums added up by the engine (one rank's is its own). */
static double
tprof_cache_ranks_sum (const TprofProfileFile    *pf,
                       const TprofOperationCache *c)
{
  return pf->world_size == 1 ? c->rank_sum[0] : _tprof_values_sum (c->rank_sum, (size_t) pf->world_size);
}

/* The attributes against each other and against the per-rank members. */
static int
tprof_cache_check_consistent (const TprofProfileFile *pf,
                              const TprofH5Operation *op,
                              int64_t                 count,
                              TprofError             *error)
{
  const TprofOperationCache *c = &op->cache;
  const double *f = c->floats;
  bool has_sum = c->floats_present & (1u << TPROF_CACHE_SUM);

  if (has_sum && (c->floats_present & (1u << TPROF_CACHE_MEAN)) && count > 0
      && !tprof_cache_close (f[TPROF_CACHE_MEAN], f[TPROF_CACHE_SUM] / (double) count))
    return CACHE_BAD ("%s is %.17g, but sum / count is %.17g",
                      STAT_NAME (TPROF_CACHE_MEAN), f[TPROF_CACHE_MEAN], f[TPROF_CACHE_SUM] / (double) count);
  if (has_sum && c->rank_sum != NULL
      && !tprof_cache_close (f[TPROF_CACHE_SUM], tprof_cache_ranks_sum (pf, c)))
    return CACHE_BAD ("%s is %.17g, but the ranks' sums add up to %.17g", STAT_NAME (TPROF_CACHE_SUM), f[TPROF_CACHE_SUM],
                      tprof_cache_ranks_sum (pf, c));
  if ((c->floats_present & (1u << TPROF_CACHE_MIN)) && c->rank_min != NULL && count > 0
      && !tprof_cache_close (f[TPROF_CACHE_MIN], tprof_cache_rank_extreme (pf, c, c->rank_min, false)))
    return CACHE_BAD ("%s is %.17g, but the smallest rank's minimum is %.17g", STAT_NAME (TPROF_CACHE_MIN), f[TPROF_CACHE_MIN],
                      tprof_cache_rank_extreme (pf, c, c->rank_min, false));
  if ((c->floats_present & (1u << TPROF_CACHE_MAX)) && c->rank_max != NULL && count > 0
      && !tprof_cache_close (f[TPROF_CACHE_MAX], tprof_cache_rank_extreme (pf, c, c->rank_max, true)))
    return CACHE_BAD ("%s is %.17g, but the largest rank's maximum is %.17g", STAT_NAME (TPROF_CACHE_MAX), f[TPROF_CACHE_MAX],
                      tprof_cache_rank_extreme (pf, c, c->rank_max, true));
  return 0;
}

/* Every statistic present, finite and >= 0 and in order (min <= median
 * <= p95 <= p99 <= max) for @count samples, 2 or more: the common case,
 * in which each check of tprof_cache_check_float() and
 * tprof_cache_check_order() passes, told at once. */
static bool
tprof_cache_floats_plain (const TprofOperationCache *c,
                          int64_t                    count)
{
  const double *f = c->floats;
  uint64_t any = 0;

  if (c->floats_present != TPROF_CACHE_ALL_FLOATS || count < 2)
    return false;
  for (int i = 0; i < TPROF_CACHE_N_FLOATS; i++)
    any |= _tprof_h5_value_head (f[i]);
  return any <= 0x7ff && f[TPROF_CACHE_MIN] <= f[TPROF_CACHE_MEDIAN] && f[TPROF_CACHE_MEDIAN] <= f[TPROF_CACHE_P95]
         && f[TPROF_CACHE_P95] <= f[TPROF_CACHE_P99] && f[TPROF_CACHE_P99] <= f[TPROF_CACHE_MAX];
}

static int
tprof_cache_check_attrs (const TprofProfileFile *pf,
                         const TprofH5Operation *op,
                         TprofError             *error)
{
  const TprofOperationCache *c = &op->cache;
  int64_t expected = tprof_cache_expected_count (pf, op);
  int64_t count = c->has_count ? c->count : expected;

  if (expected < 0)
    return CACHE_BAD ("rank_recorded adds up to more than 2^63 samples");
  if (c->has_count && c->count != expected)
    return CACHE_BAD ("%s is %lld, but the operation %s %lld samples",
                      STAT_NAME (-1), (long long) c->count, c->rank_recorded != NULL ? "recorded" : "stores",
                      (long long) expected);
  if (tprof_cache_floats_plain (c, count))
    return tprof_cache_check_consistent (pf, op, count, error);
  for (int i = 0; i < TPROF_CACHE_N_FLOATS; i++)
    if ((c->floats_present & (1u << i)) && tprof_cache_check_float (pf, op, i, count, error) < 0)
      return -1;
  if (tprof_cache_check_order (pf, op, error) < 0)
    return -1;
  return tprof_cache_check_consistent (pf, op, count, error);
}

/* With every member present: the operation's statistics, read no samples. */
static int
tprof_cache_fill_stats (const TprofProfileFile *pf,
                        TprofH5Operation       *op,
                        TprofError             *error)
{
  const TprofOperationCache *c = &op->cache;
  const double *f = c->floats;
  TprofH5OperationStats *st = _tprof_h5_operation_stats (pf, op);
  TprofSummary *s = &st->stats.summary;
  /* most worlds are small: no allocation per operation then */
  double small_totals[TPROF_CACHE_SMALL_WORLD];
  int32_t small_ranks[TPROF_CACHE_SMALL_WORLD];
  bool small = pf->world_size <= TPROF_CACHE_SMALL_WORLD;
  double *totals = small ? small_totals : malloc ((size_t) pf->world_size * sizeof *totals);
  int32_t *ranks = small ? small_ranks : malloc ((size_t) pf->world_size * sizeof *ranks);
  size_t n_ranks = 0;

  if (totals == NULL || ranks == NULL)
    {
      if (!small)
        free (totals), free (ranks);
      return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", pf->path);
    }
  for (int r = 0; r < pf->world_size; r++)
    if (tprof_cache_recorded (c, r) > 0)
      {
        totals[n_ranks] = c->rank_sum[r];
        ranks[n_ranks++] = r;
      }
  *s = (TprofSummary) {
    .count = (size_t) c->count, .rank_count = n_ranks,
    .sum = f[TPROF_CACHE_SUM], .mean = f[TPROF_CACHE_MEAN], .std = f[TPROF_CACHE_STD],
    .min = f[TPROF_CACHE_MIN], .max = f[TPROF_CACHE_MAX], .median = f[TPROF_CACHE_MEDIAN],
    .p95 = f[TPROF_CACHE_P95], .p99 = f[TPROF_CACHE_P99],
  };
  _tprof_rank_totals_balance (totals, ranks, n_ranks, s);
  if (!small)
    free (totals), free (ranks);
  st->stats.rank_count = c->rank_count;
  st->stats.rank_sum = c->rank_sum;
  st->stats.rank_min = c->rank_min;
  st->stats.rank_max = c->rank_max;
  st->stats.rank_recorded = tprof_cache_sampled (pf, c) ? c->rank_recorded : NULL;
  st->stats_ready = true;
  st->cached = true;
  return 0;
}

int
_tprof_operation_cache_validate (const TprofProfileFile *pf,
                                 const TprofH5Operation *op,
                                 TprofError             *error)
{
  if (tprof_cache_check_ranks (pf, op, error) < 0 || tprof_cache_check_attrs (pf, op, error) < 0)
    return -1;
  return 0;
}

int
_tprof_operation_cache_accept (TprofProfileFile *pf,
                               TprofH5Operation *op,
                               TprofError       *error)
{
  const TprofOperationCache *c = &op->cache;

  if (_tprof_operation_cache_validate (pf, op, error) < 0)
    return -1;
  if (c->has_count && c->floats_present == TPROF_CACHE_ALL_FLOATS && c->rank_count != NULL
      && c->rank_sum != NULL && c->rank_min != NULL && c->rank_max != NULL)
    return tprof_cache_fill_stats (pf, op, error);
  return 0;
}

int
_tprof_operation_cache_read (TprofProfileFile *pf,
                             TprofH5Operation *op,
                             hid_t             group,
                             TprofError       *error)
{
  if (tprof_cache_read_attrs (pf, group, op, error) < 0
      || tprof_cache_read_rank_members (pf, group, op, error) < 0)
    return -1;
  return _tprof_operation_cache_accept (pf, op, error);
}

int
_tprof_operation_cache_check_rank (const TprofProfileFile *pf,
                                   const TprofH5Operation *op,
                                   int                     r,
                                   const TprofPartSums    *got,
                                   TprofError             *error)
{
  const TprofOperationCache *c = &op->cache;
  size_t count = got != NULL ? got->count : 0;
  double sum = got != NULL ? got->sum : 0.0;
  double min = got != NULL ? got->min : NAN, max = got != NULL ? got->max : NAN;

  if (c->rank_count != NULL && (int64_t) count != c->rank_count[r])
    return CACHE_DIFFERS ("rank %d has %zu samples, %s is %lld",
                          r, count, RANK_NAME ("rank_count", r), (long long) c->rank_count[r]);
  if (tprof_cache_rank_sampled (c, r))
    {
      if (count > 0 && ((c->rank_min != NULL && min < c->rank_min[r])
                        || (c->rank_max != NULL && max > c->rank_max[r])))
        return CACHE_DIFFERS ("rank %d has samples in [%.17g, %.17g], outside its cached extremes",
                              r, min, max);
      return 0;
    }
  if (c->rank_sum != NULL && !tprof_cache_close (sum, c->rank_sum[r]))
    return CACHE_DIFFERS ("rank %d: %s is %.17g, the samples add up to %.17g", r, RANK_FIELD ("rank_sum", r),
                          c->rank_sum[r], sum);
  if (c->rank_min != NULL && !tprof_cache_close (min, c->rank_min[r]))
    return CACHE_DIFFERS ("rank %d: %s is %.17g, the samples give %.17g", r, RANK_FIELD ("rank_min", r),
                          c->rank_min[r], min);
  if (c->rank_max != NULL && !tprof_cache_close (max, c->rank_max[r]))
    return CACHE_DIFFERS ("rank %d: %s is %.17g, the samples give %.17g", r, RANK_FIELD ("rank_max", r),
                          c->rank_max[r], max);
  return 0;
}

/* Every rank of @ranks (NULL: all) against its per-rank members. */
static int
tprof_cache_check_ranks_read (const TprofProfileFile  *pf,
                              const TprofH5Operation  *op,
                              const TprofGatheredTime *gt,
                              const int32_t           *ranks,
                              size_t                   n_ranks,
                              TprofError              *error)
{
  TprofRankSummary *summaries = NULL;
  size_t n_found = tprof_gathered_time_rank_summaries (gt, &summaries);
  size_t n_check = ranks != NULL ? n_ranks : (size_t) pf->world_size;
  size_t j = 0;
  int result = 0;

  if (n_found == (size_t) -1)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory checking operation '%s'",
                            pf->path, op->name);
  /* both ascending by rank */
  for (size_t i = 0; result == 0 && i < n_check; i++)
    {
      int r = ranks != NULL ? ranks[i] : (int) i;
      TprofPartSums got;

      _tprof_part_sums_init (&got);
      while (j < n_found && summaries[j].rank < r)
        j++;
      if (j < n_found && summaries[j].rank == r)
        got = (TprofPartSums) { summaries[j].count, summaries[j].sum, summaries[j].min, summaries[j].max };
      result = _tprof_operation_cache_check_rank (pf, op, r, &got, error);
    }
  free (summaries);
  return result;
}

int
_tprof_operation_cache_check_figures (const TprofProfileFile  *pf,
                                      const TprofH5Operation  *op,
                                      const TprofBatchSummary *s,
                                      TprofError              *error)
{
  const TprofOperationCache *c = &op->cache;
  const double got[TPROF_CACHE_N_FLOATS] = {
    [TPROF_CACHE_SUM] = s->sum, [TPROF_CACHE_MEAN] = s->mean, [TPROF_CACHE_STD] = s->std,
    [TPROF_CACHE_MIN] = s->min, [TPROF_CACHE_MAX] = s->max, [TPROF_CACHE_MEDIAN] = s->median,
    [TPROF_CACHE_P95] = s->p95, [TPROF_CACHE_P99] = s->p99,
  };

  if (c->has_count && (int64_t) s->count != c->count)
    return CACHE_DIFFERS ("%s is %lld, the samples number %llu", STAT_NAME (-1), (long long) c->count,
                          (unsigned long long) s->count);
  /* a cache the engine wrote holds its very figures, bit for bit: all
   * eight at once (equal bits are close, NaN or not) */
  if (c->floats_present == TPROF_CACHE_ALL_FLOATS && memcmp (c->floats, got, sizeof got) == 0)
    return 0;
  for (int i = 0; i < TPROF_CACHE_N_FLOATS; i++)
    if ((c->floats_present & (1u << i)) && !tprof_cache_close (c->floats[i], got[i]))
      return CACHE_DIFFERS ("%s is %.17g, the samples give %.17g", STAT_NAME (i), c->floats[i], got[i]);
  return 0;
}

/* Every statistic attribute against the analysis engine's. */
static int
tprof_cache_check_summary (const TprofProfileFile  *pf,
                           const TprofH5Operation  *op,
                           const TprofGatheredTime *gt,
                           TprofError              *error)
{
  TprofSummary s;

  if (!tprof_gathered_time_summarize (gt, &s))
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory checking operation '%s'",
                            pf->path, op->name);
  return _tprof_operation_cache_check_figures (pf, op, &(TprofBatchSummary) {
                                                 s.count, s.sum, s.mean, s.std, s.min, s.max, s.median, s.p95,
                                                 s.p99 }, error);
}

bool
_tprof_operation_cache_sampled (const TprofProfileFile *pf,
                                const TprofH5Operation *op)
{
  return tprof_cache_sampled (pf, &op->cache);
}

int
_tprof_operation_cache_check (const TprofProfileFile  *pf,
                              const TprofH5Operation  *op,
                              const TprofGatheredTime *gt,
                              const int32_t           *ranks,
                              size_t                   n_ranks,
                              TprofError              *error)
{
  const TprofOperationCache *c = &op->cache;
  bool sampled = false;

  if (c->rank_count != NULL || c->rank_sum != NULL || c->rank_min != NULL || c->rank_max != NULL)
    if (tprof_cache_check_ranks_read (pf, op, gt, ranks, n_ranks, error) < 0)
      return -1;
  if (ranks != NULL || (!c->has_count && c->floats_present == 0))
    return 0;
  /* the attributes of a sampled operation cover samples the file lacks */
  sampled = tprof_cache_sampled (pf, c);
  return sampled ? 0 : tprof_cache_check_summary (pf, op, gt, error);
}

bool
_tprof_operation_cache_attach_recorded (const TprofProfileFile *pf,
                                        const TprofH5Operation *op,
                                        TprofGatheredTime      *gt,
                                        const int32_t          *ranks,
                                        size_t                  n_ranks)
{
  const TprofOperationCache *c = &op->cache;
  const TprofH5OperationStats *st = pf->op_stats != NULL ? _tprof_h5_operation_stats (pf, op) : NULL;
  size_t n_check = ranks != NULL ? n_ranks : (size_t) pf->world_size, n = 0;
  const int64_t *recorded = NULL;
  const double *sum = NULL, *min = NULL, *max = NULL;
  TprofRankRecorded *rec;
  bool ok;

  /* the statistics, where the isolated reader's helper sent them; else
   * the cache this process read */
  if (st != NULL && st->stats_ready && st->stats.rank_recorded != NULL)
    {
      recorded = st->stats.rank_recorded;
      sum = st->stats.rank_sum;
      min = st->stats.rank_min;
      max = st->stats.rank_max;
    }
  else if (tprof_cache_sampled (pf, c))
    {
      recorded = c->rank_recorded;
      sum = c->rank_sum;
      min = c->rank_min;
      max = c->rank_max;
    }
  if (recorded == NULL || sum == NULL || min == NULL || max == NULL)
    return true;
  rec = malloc ((n_check > 0 ? n_check : 1) * sizeof *rec);
  if (rec == NULL)
    return false;
  for (size_t i = 0; i < n_check; i++)
    {
      int r = ranks != NULL ? ranks[i] : (int) i;

      if (recorded[r] > 0)
        rec[n++] = (TprofRankRecorded) { r, (uint64_t) recorded[r], sum[r], min[r], max[r] };
    }
  ok = n == 0 || tprof_gathered_time_set_recorded (gt, rec, n);
  free (rec);
  return ok;
}
