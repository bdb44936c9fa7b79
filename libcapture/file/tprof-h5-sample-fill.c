/* tprof-h5-sample-fill.c — fills and checks arrays of samples in blocks, split over threads, with pread() where the file stores them as memory does. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tprof-h5-reader-private.h"
#include "tprof-analysis-internal.h"

/* Samples per pread() of each array: the block is checked right after,
 * while it is still in the cache, and the system calls stay cheap. */
#define TPROF_H5_FILL_BLOCK ((size_t) 1 << 15)

int
_tprof_h5_pread_all (int    fd,
                     void  *buffer,
                     size_t bytes,
                     off_t  offset)
{
  char *p = buffer;

  while (bytes > 0)
    {
      ssize_t got = pread (fd, p, bytes, offset);

      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        return errno != 0 ? errno : EIO;
      if (got == 0)
        return -1;
      p += got;
      bytes -= (size_t) got;
      offset += got;
    }
  return 0;
}

/* Values converted per pread() when the file's type is not memory's. */
#define TPROF_H5_CONVERT_BLOCK ((size_t) 1 << 13)

static bool
tprof_h5_raw_is_native (TprofH5RawType type,
                        bool           as_double)
{
  bool host_big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

  if (type.kind == TPROF_H5_RAW_NATIVE)
    return true;
  if (type.big_endian != host_big)
    return false;
  return as_double ? type.kind == TPROF_H5_RAW_FLOAT && type.size == sizeof (double)
                   : type.kind == TPROF_H5_RAW_SIGNED && type.size == sizeof (int32_t);
}

/* The @size bytes at @p as an unsigned number, in @big_endian order. */
static uint64_t
tprof_h5_raw_bits (const uint8_t *p,
                   unsigned       size,
                   bool           big_endian)
{
  uint64_t bits = 0;

  for (unsigned i = 0; i < size; i++)
    bits = (bits << 8) | p[big_endian ? i : size - 1 - i];
  return bits;
}

static double
tprof_h5_raw_double (uint64_t bits,
                     unsigned size)
{
  if (size == sizeof (float))
    {
      uint32_t narrow = (uint32_t) bits;
      float f;

      memcpy (&f, &narrow, sizeof f);
      return (double) f;
    }
  double d;

  memcpy (&d, &bits, sizeof d);
  return d;
}

/* As HDF5 converts an integer to int32: out-of-range values clamped. */
static int32_t
tprof_h5_raw_int32 (uint64_t bits,
                    unsigned size,
                    bool     is_signed)
{
  unsigned shift = 64 - 8 * size;
  int64_t v;

  if (!is_signed)
    return bits > (uint64_t) INT32_MAX ? INT32_MAX : (int32_t) bits;
  v = (int64_t) (bits << shift) >> shift;  /* sign-extended */
  return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t) v;
}

int
_tprof_h5_pread_values (int            fd,
                        off_t          offset,
                        TprofH5RawType type,
                        size_t         count,
                        void          *out,
                        bool           as_double)
{
  size_t out_size = as_double ? sizeof (double) : sizeof (int32_t);
  uint8_t *scratch;
  int status = 0;

  if (tprof_h5_raw_is_native (type, as_double))
    return _tprof_h5_pread_all (fd, out, count * out_size, offset);
  scratch = malloc (TPROF_H5_CONVERT_BLOCK * type.size);
  if (scratch == NULL)
    return ENOMEM;
  for (size_t done = 0; done < count && status == 0; done += TPROF_H5_CONVERT_BLOCK)
    {
      size_t m = count - done < TPROF_H5_CONVERT_BLOCK ? count - done : TPROF_H5_CONVERT_BLOCK;

      status = _tprof_h5_pread_all (fd, scratch, m * type.size, offset + (off_t) (done * type.size));
      for (size_t i = 0; status == 0 && i < m; i++)
        {
          uint64_t bits = tprof_h5_raw_bits (scratch + i * type.size, type.size, type.big_endian);

          if (as_double)
            ((double *) out)[done + i] = tprof_h5_raw_double (bits, type.size);
          else
            ((int32_t *) out)[done + i] = tprof_h5_raw_int32 (bits, type.size,
                                                              type.kind == TPROF_H5_RAW_SIGNED);
        }
    }
  free (scratch);
  return status;
}

bool
_tprof_h5_format_stored_integer (int            fd,
                                 off_t          offset,
                                 TprofH5RawType type,
                                 char          *text,
                                 size_t         text_size)
{
  uint8_t raw[8];
  uint64_t bits;
  unsigned shift;

  if (type.kind == TPROF_H5_RAW_NATIVE)
    type = (TprofH5RawType) { TPROF_H5_RAW_SIGNED, sizeof (int32_t), __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ };
  if (type.size == 0 || type.size > sizeof raw || _tprof_h5_pread_all (fd, raw, type.size, offset) != 0)
    return false;
  bits = tprof_h5_raw_bits (raw, type.size, type.big_endian);
  shift = 64 - 8 * type.size;
  if (type.kind == TPROF_H5_RAW_UNSIGNED)
    snprintf (text, text_size, "%llu", (unsigned long long) bits);
  else
    snprintf (text, text_size, "%lld", (long long) ((int64_t) (bits << shift) >> shift));
  return true;
}

typedef struct
{
  const TprofH5SampleSource *source;
  double                    *times;
  int32_t                   *ranks;
  size_t                     start;
  size_t                     stop;
  int                        world_size;
  /* where the chunk stopped: at stop when every sample is valid */
  size_t                     reached;
  int                        read_error;
  const char                *failed_array;
} TprofH5FillTask;

static int
tprof_h5_fill_block (TprofH5FillTask *task,
                     size_t           start,
                     size_t           end)
{
  const TprofH5SampleSource *source = task->source;
  int status = 0;

  if (source->times_offset >= 0)
    {
      size_t size = source->times_type.kind != TPROF_H5_RAW_NATIVE ? source->times_type.size : sizeof (double);

      status = _tprof_h5_pread_values (source->fd, source->times_offset + (off_t) (start * size),
                                       source->times_type, end - start, task->times + start, true);
      task->failed_array = "times";
    }
  if (status == 0 && source->ranks_offset >= 0)
    {
      size_t size = source->ranks_type.kind != TPROF_H5_RAW_NATIVE ? source->ranks_type.size : sizeof (int32_t);

      status = _tprof_h5_pread_values (source->fd, source->ranks_offset + (off_t) (start * size),
                                       source->ranks_type, end - start, task->ranks + start, false);
      task->failed_array = "ranks";
    }
  return status;
}

static void
tprof_h5_fill_task_run (void *data)
{
  TprofH5FillTask *task = data;

  for (size_t block = task->start; block < task->stop; block += TPROF_H5_FILL_BLOCK)
    {
      size_t end = task->stop - block > TPROF_H5_FILL_BLOCK ? block + TPROF_H5_FILL_BLOCK : task->stop;
      size_t invalid;

      task->read_error = tprof_h5_fill_block (task, block, end);
      if (task->read_error != 0)
        {
          task->reached = block;
          return;
        }
      invalid = _tprof_h5_find_invalid (task->times, task->ranks, block, end, task->world_size);
      if (invalid < end)
        {
          task->reached = invalid;
          return;
        }
    }
  task->reached = task->stop;
}

int
_tprof_h5_fill_samples (const TprofH5SampleSource  *source,
                        double                     *times,
                        int32_t                    *ranks,
                        size_t                      n,
                        int                         world_size,
                        size_t                     *first_invalid,
                        const char                **failed_array)
{
  TprofH5FillTask tasks[TPROF_STATS_MAX_CHUNKS];
  size_t bounds[TPROF_STATS_MAX_CHUNKS + 1];
  size_t n_chunks = _tprof_stats_split (n, bounds);

  for (size_t c = 0; c < n_chunks; c++)
    tasks[c] = (TprofH5FillTask) { source, times, ranks, bounds[c], bounds[c + 1], world_size,
                                   bounds[c], 0, NULL };
  _tprof_stats_run_parallel (tasks, n_chunks, sizeof *tasks, tprof_h5_fill_task_run);

  /* Chunks cover ascending ranges: the first one that stopped early has
   * only valid, fully read chunks before it. */
  *first_invalid = n;
  for (size_t c = 0; c < n_chunks; c++)
    {
      if (tasks[c].read_error != 0)
        {
          *failed_array = tasks[c].failed_array;
          return tasks[c].read_error;
        }
      if (tasks[c].reached < tasks[c].stop)
        {
          *first_invalid = tasks[c].reached;
          return 0;
        }
    }
  return 0;
}
