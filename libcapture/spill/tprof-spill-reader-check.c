/* tprof-spill-reader-check.c — the checks of one spill record: its framing and checksum, then its contents against what the file defined before it. */
/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tprof-crc32c.h"
#include "tprof-h5-internal.h"
#include "tprof-spill-reader-private.h"

#define SAMPLES_FIELDS 16
#define RAW_SECONDS_BIT (UINT64_C (1) << 63)

void
_tprof_spill_crc_problem (uint16_t type,
                          uint32_t crc,
                          uint32_t stored,
                          char    *problem,
                          size_t   problem_size)
{
  snprintf (problem, problem_size, "checksum mismatch in a record of type %u (CRC-32C 0x%08" PRIx32
            ", stored 0x%08" PRIx32 ")", type, crc, stored);
}

TprofSpillFrame
_tprof_spill_frame (const uint8_t    *data,
                    size_t            n,
                    TprofSpillRecord *record,
                    char             *problem,
                    size_t            problem_size)
{
  uint32_t magic, crc;
  uint64_t padded;

  if (n < 4)
    return TPROF_SPILL_FRAME_INCOMPLETE;
  magic = _tprof_spill_get_u32 (data);
  if (magic != TPROF_SPILL_MAGIC)
    {
      snprintf (problem, problem_size, "no record starts here (magic 0x%08" PRIx32 ", expected 0x%08" PRIx32 ")",
                magic, TPROF_SPILL_MAGIC);
      return TPROF_SPILL_FRAME_DAMAGED;
    }
  if (n < TPROF_SPILL_HEAD_SIZE)
    return TPROF_SPILL_FRAME_INCOMPLETE;
  record->type = _tprof_spill_get_u16 (data + 4);
  record->len = _tprof_spill_get_u32 (data + 8);
  if (record->len > TPROF_SPILL_MAX_PAYLOAD)
    {
      snprintf (problem, problem_size, "a record of %" PRIu32 " bytes is impossible (at most %zu)",
                record->len, TPROF_SPILL_MAX_PAYLOAD);
      return TPROF_SPILL_FRAME_DAMAGED;
    }
  padded = ((uint64_t) record->len + 7) & ~(uint64_t) 7;
  if (n - TPROF_SPILL_HEAD_SIZE < (uint64_t) record->len)
    return TPROF_SPILL_FRAME_INCOMPLETE;
  record->payload = data + TPROF_SPILL_HEAD_SIZE;
  crc = _tprof_crc32c (_tprof_crc32c (0, data, 12), record->payload, record->len);
  if (crc != _tprof_spill_get_u32 (data + 12))
    {
      _tprof_spill_crc_problem (record->type, crc, _tprof_spill_get_u32 (data + 12), problem, problem_size);
      return TPROF_SPILL_FRAME_DAMAGED;
    }
  /* the padding may still be on its way: the record is whole without it,
   * but the next one starts after it */
  record->size = TPROF_SPILL_HEAD_SIZE + (size_t) padded;
  if (n < record->size)
    return TPROF_SPILL_FRAME_INCOMPLETE;
  return TPROF_SPILL_FRAME_OK;
}

void
_tprof_spill_frame_known (const uint8_t    *data,
                          TprofSpillRecord *record)
{
  record->type = _tprof_spill_get_u16 (data + 4);
  record->len = _tprof_spill_get_u32 (data + 8);
  record->payload = data + TPROF_SPILL_HEAD_SIZE;
  record->size = _tprof_spill_record_size (record->len);
}

/* Whether the @n bytes at @s are UTF-8 without NUL (a C string holds them whole). */
static bool
is_utf8 (const uint8_t *s,
         size_t         n)
{
  return memchr (s, 0, n) == NULL && _tprof_h5_utf8_valid ((const char *) s, n);
}

bool
_tprof_spill_str (const TprofSpillRecord *record,
                  size_t                 *pos,
                  char                  **out)
{
  size_t len;

  if (record->len - *pos < 2)
    return false;
  len = _tprof_spill_get_u16 (record->payload + *pos);
  if (record->len - *pos - 2 < len || !is_utf8 (record->payload + *pos + 2, len))
    return false;
  if (out != NULL)
    {
      *out = malloc (len + 1);
      if (*out == NULL)
        return false;
      memcpy (*out, record->payload + *pos + 2, len);
      (*out)[len] = '\0';
    }
  *pos += 2 + len;
  return true;
}

static double
clock_seconds (const TprofSpillClock *clock,
               uint64_t               ticks)
{
  return clock->ref_seconds + (double) ((int64_t) ticks - clock->ref_ticks) * clock->seconds_per_tick;
}

void
_tprof_spill_sample (const TprofSpillRecord *record,
                     const TprofSpillClock  *clock,
                     size_t                  i,
                     double                 *start,
                     double                 *duration)
{
  uint32_t n = _tprof_spill_get_u32 (record->payload + 8);
  const uint8_t *starts = record->payload + SAMPLES_FIELDS;
  const uint8_t *durations = starts + (size_t) n * 8;

  if (_tprof_spill_get_u32 (record->payload + 12) == 0)
    {
      *start = _tprof_spill_get_f64 (starts + i * 8);
      *duration = _tprof_spill_get_f64 (durations + i * 8);
      return;
    }
  uint64_t d = _tprof_spill_get_u64 (durations + i * 8);

  *start = clock_seconds (clock, _tprof_spill_get_u64 (starts + i * 8));
  if (d & RAW_SECONDS_BIT)
    *duration = (double) (d & ~RAW_SECONDS_BIT) * clock->seconds_per_tick;
  else
    *duration = _tprof_spill_get_f64 (durations + i * 8);
}

static bool
check_names (const TprofSpillRecord *record,
             uint32_t               *n_names,
             char                   *problem,
             size_t                  problem_size)
{
  uint32_t first, n;
  size_t pos = 8;

  if (record->len < 8)
    return snprintf (problem, problem_size, "NAMES record of %" PRIu32 " bytes, expected at least 8", record->len), false;
  first = _tprof_spill_get_u32 (record->payload);
  n = _tprof_spill_get_u32 (record->payload + 4);
  if (first != *n_names)
    return snprintf (problem, problem_size, "NAMES record starts at id %" PRIu32 ", but %" PRIu32 " names were defined",
                     first, *n_names), false;
  for (uint32_t k = 0; k < n; k++)
    if (record->len - pos < 2 || _tprof_spill_get_u16 (record->payload + pos) == 0
        || !_tprof_spill_str (record, &pos, NULL))
      return snprintf (problem, problem_size, "NAMES record: name %" PRIu32 " is empty, cut short or not UTF-8",
                       first + k), false;
  if (pos != record->len)
    return snprintf (problem, problem_size, "NAMES record has %zu bytes after its %" PRIu32 " names",
                     (size_t) record->len - pos, n), false;
  if (n > UINT32_MAX - first)
    return snprintf (problem, problem_size, "NAMES record defines too many names"), false;
  *n_names += n;
  return true;
}

/* Whether the @n samples of @record have finite starts and finite
 * durations >= 0, in one pass without branches that also lowers
 * *@earliest to their smallest start; the caller finds the bad one. */
static bool
samples_valid (const TprofSpillRecord *record,
               const TprofSpillClock  *clock,
               uint32_t                n,
               double                 *earliest)
{
  const uint8_t *starts = record->payload + SAMPLES_FIELDS, *durations = starts + (size_t) n * 8;
  double lo = *earliest;
  bool ok = true;

  if (_tprof_spill_get_u32 (record->payload + 12) != 0)
    {
      for (uint32_t i = 0; i < n; i++)
        {
          double start, duration;

          _tprof_spill_sample (record, clock, i, &start, &duration);
          ok &= isfinite (start) & isfinite (duration) & (duration >= 0);
          lo = start < lo ? start : lo;
        }
    }
  else
    for (uint32_t i = 0; i < n; i++)
      {
        double start = _tprof_spill_get_f64 (starts + i * 8), duration = _tprof_spill_get_f64 (durations + i * 8);

        ok &= isfinite (start) & isfinite (duration) & (duration >= 0);
        lo = start < lo ? start : lo;
      }
  if (ok)
    *earliest = lo;
  return ok;
}

bool
_tprof_spill_samples_head_check (const uint8_t   fields[16],
                                 uint32_t        len,
                                 uint32_t        n_names,
                                 const TprofSpillClock *clock,
                                 char           *problem,
                                 size_t          problem_size)
{
  uint32_t op = _tprof_spill_get_u32 (fields), n = _tprof_spill_get_u32 (fields + 8);
  uint32_t encoding = _tprof_spill_get_u32 (fields + 12);

  if ((int32_t) _tprof_spill_get_u32 (fields + 4) < 0)
    return snprintf (problem, problem_size, "SAMPLES record of a negative thread"), false;
  if (op >= n_names)
    return snprintf (problem, problem_size, "SAMPLES record of operation %" PRIu32 ", but %" PRIu32 " names are defined",
                     op, n_names), false;
  if ((uint64_t) len != SAMPLES_FIELDS + (uint64_t) n * 16)
    return snprintf (problem, problem_size, "SAMPLES record of %" PRIu32 " samples has %" PRIu32 " bytes, expected %" PRIu64,
                     n, len, SAMPLES_FIELDS + (uint64_t) n * 16), false;
  if (encoding > 1)
    return snprintf (problem, problem_size, "SAMPLES record of unknown encoding %" PRIu32, encoding), false;
  if (encoding == 1 && !clock->set)
    return snprintf (problem, problem_size, "raw SAMPLES record without a CLOCK record before it"), false;
  return true;
}

/* Whether sample @i (seconds) has a finite start and a finite duration
 * >= 0; false fills @problem. */
static bool
sample_valid (uint32_t i,
              double   start,
              double   duration,
              char    *problem,
              size_t   problem_size)
{
  if (isfinite (start) && isfinite (duration) && duration >= 0)
    return true;
  snprintf (problem, problem_size, "SAMPLES record: sample %" PRIu32 " has start %g and duration %g", i, start, duration);
  return false;
}

static bool
check_samples (const TprofSpillRecord *record,
               uint32_t                n_names,
               const TprofSpillClock  *clock,
               double                 *earliest,
               char                   *problem,
               size_t                  problem_size)
{
  uint32_t n;

  if (record->len < SAMPLES_FIELDS)
    return snprintf (problem, problem_size, "SAMPLES record of %" PRIu32 " bytes, expected at least 16", record->len), false;
  if (!_tprof_spill_samples_head_check (record->payload, record->len, n_names, clock, problem, problem_size))
    return false;
  n = _tprof_spill_get_u32 (record->payload + 8);
  if (samples_valid (record, clock, n, earliest))
    return true;
  for (uint32_t i = 0; i < n; i++)
    {
      double start, duration;

      _tprof_spill_sample (record, clock, i, &start, &duration);
      if (!sample_valid (i, start, duration, problem, problem_size))
        return false;
    }
  return false;
}

bool
_tprof_spill_samples_settle (double                *starts,
                             double                *durations,
                             uint32_t               n,
                             uint32_t               encoding,
                             const TprofSpillClock *clock,
                             char                  *problem,
                             size_t                 problem_size)
{
  bool ok = true;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (encoding != 0)
#endif
    for (uint32_t i = 0; i < n; i++)
      {
        uint8_t s[8], d[8];

        memcpy (s, &starts[i], 8);
        memcpy (d, &durations[i], 8);
        uint64_t dt = _tprof_spill_get_u64 (d);

        starts[i] = encoding == 0 ? _tprof_spill_get_f64 (s) : clock_seconds (clock, _tprof_spill_get_u64 (s));
        durations[i] = encoding != 0 && (dt & RAW_SECONDS_BIT) ? (double) (dt & ~RAW_SECONDS_BIT) * clock->seconds_per_tick
                                                               : _tprof_spill_get_f64 (d);
      }
  for (uint32_t i = 0; i < n; i++)
    ok &= isfinite (starts[i]) & isfinite (durations[i]) & (durations[i] >= 0);
  for (uint32_t i = 0; !ok && i < n; i++)  /* the bad one named */
    if (!sample_valid (i, starts[i], durations[i], problem, problem_size))
      return false;
  return ok;
}

bool
_tprof_spill_record_check (const TprofSpillRecord *record,
                           uint32_t               *n_names,
                           TprofSpillClock        *clock,
                           double                 *earliest,
                           char                   *problem,
                           size_t                  problem_size)
{
  static const uint32_t fixed[] = {
    [TPROF_SPILL_CLOCK] = 24, [TPROF_SPILL_COMMIT] = 24, [TPROF_SPILL_SIGNAL] = 16,
  };
  size_t pos = 8;

  switch (record->type)
    {
    case TPROF_SPILL_HEADER:
      return snprintf (problem, problem_size, "a second HEADER record"), false;
    case TPROF_SPILL_NAMES:
      return check_names (record, n_names, problem, problem_size);
    case TPROF_SPILL_SAMPLES:
      return check_samples (record, *n_names, clock, earliest, problem, problem_size);
    case TPROF_SPILL_CLOCK:
    case TPROF_SPILL_COMMIT:
    case TPROF_SPILL_SIGNAL:
      if (record->len != fixed[record->type])
        return snprintf (problem, problem_size, "record of type %u has %" PRIu32 " bytes, expected %" PRIu32,
                         record->type, record->len, fixed[record->type]), false;
      if (record->type == TPROF_SPILL_CLOCK)
        {
          clock->ref_ticks = (int64_t) _tprof_spill_get_u64 (record->payload);
          clock->ref_seconds = _tprof_spill_get_f64 (record->payload + 8);
          clock->seconds_per_tick = _tprof_spill_get_f64 (record->payload + 16);
          if (!isfinite (clock->ref_seconds) || !isfinite (clock->seconds_per_tick) || clock->seconds_per_tick <= 0)
            return snprintf (problem, problem_size, "CLOCK record of %g s per tick", clock->seconds_per_tick), false;
          clock->set = true;
        }
      return true;
    case TPROF_SPILL_END:
      if (record->len < 8 || !_tprof_spill_str (record, &pos, NULL) || pos != record->len)
        return snprintf (problem, problem_size, "END record of %" PRIu32 " bytes is malformed", record->len), false;
      return true;
    default:
      return true;  /* STATE, and types this reader does not know */
    }
}
