/* tprof-gather-name-table.c — a rank's name table on the wire: packed by the sender, checked and read by receivers. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-gather-mpi-private.h"

/* The name table: u64 n_names, u64 counts[n_names], per name u64 recorded
 * (0: not sampled) and the bits of three doubles (sum, min, max of all it
 * recorded, when sampled), then the host name and the names, each
 * NUL-terminated. */
#define RECORDED_U64 4

static uint64_t
double_bits (double v)
{
  uint64_t bits;

  memcpy (&bits, &v, sizeof bits);
  return bits;
}

static double
bits_double (uint64_t bits)
{
  double v;

  memcpy (&v, &bits, sizeof v);
  return v;
}

static void
blob_put_u64 (unsigned char **p, uint64_t v)
{
  memcpy (*p, &v, sizeof v);
  *p += sizeof v;
}

static void
blob_put_str (unsigned char **p, const char *s)
{
  size_t len = strlen (s) + 1;

  memcpy (*p, s, len);
  *p += len;
}

static bool
blob_get_u64 (const unsigned char **p, const unsigned char *end, uint64_t *v)
{
  if ((size_t) (end - *p) < sizeof *v)
    return false;
  memcpy (v, *p, sizeof *v);
  *p += sizeof *v;
  return true;
}

static bool
blob_get_str (const unsigned char **p, const unsigned char *end, const char **s)
{
  const unsigned char *nul = memchr (*p, '\0', (size_t) (end - *p));

  if (nul == NULL)
    return false;
  *s = (const char *) *p;
  *p = nul + 1;
  return true;
}

/* The number of samples of operation @i of @local, or -1 with @error set
 * when its runs are malformed. */
static int
local_count_samples (const TprofGatherLocal *local, size_t i, size_t *count, TprofError *error)
{
  *count = 0;
  if (local->run_base[i + 1] < local->run_base[i])
    return tprof_error_set (error, TPROF_ERROR_INVALID,
                            "tprof gather: operation '%s' has a malformed list of runs (it ends before it starts)",
                            local->names[i]);
  for (size_t k = local->run_base[i]; k < local->run_base[i + 1]; k++)
    {
      if (local->runs[k].n > 0 && local->runs[k].samples == NULL)
        return tprof_error_set (error, TPROF_ERROR_INVALID,
                                "tprof gather: operation '%s' has %zu samples but no data",
                                local->names[i], local->runs[k].n);
      if (!_tprof_gather_size_add (count, local->runs[k].n))
        return tprof_error_set (error, TPROF_ERROR_TOO_LARGE,
                                "tprof gather: operation '%s' has more samples than this machine can address",
                                local->names[i]);
    }
  return 0;
}

/* The name table of @local into g->blob. Counting the runs twice (to size
 * the table, then to write it) is cheaper than keeping the counts. */
int
_tprof_gather_pack_local (TprofGather *g, const TprofGatherLocal *local, TprofError *error)
{
  char host[MPI_MAX_PROCESSOR_NAME + 1] = "";
  int host_len = 0;
  size_t bytes = 0;
  size_t n_samples = 0;
  size_t count;
  unsigned char *p;
  bool ok;

  if (MPI_Get_processor_name (host, &host_len) != MPI_SUCCESS)
    snprintf (host, sizeof host, "unknown");
  host[MPI_MAX_PROCESSOR_NAME] = '\0';
  ok = local->n_names < SIZE_MAX / (RECORDED_U64 + 1)
       && _tprof_gather_size_mul (local->n_names * (RECORDED_U64 + 1) + 1, sizeof (uint64_t), &bytes)
       && _tprof_gather_size_add (&bytes, strlen (host) + 1);
  for (size_t i = 0; ok && i < local->n_names; i++)
    {
      if (local->names[i] == NULL || local->names[i][0] == '\0')
        return tprof_error_set (error, TPROF_ERROR_INVALID,
                                "tprof gather: operation %zu has an empty name", i);
      if (local_count_samples (local, i, &count, error) < 0)
        return -1;
      ok = _tprof_gather_size_add (&bytes, strlen (local->names[i]) + 1)
           && _tprof_gather_size_add (&n_samples, count);
    }
  if (!ok || bytes > PTRDIFF_MAX)
    return tprof_error_set (error, TPROF_ERROR_TOO_LARGE,
                            "tprof gather: this rank's records are too large to describe");
  g->blob = _tprof_gather_malloc (TPROF_GATHER_STAGE_PACK, bytes);
  if (g->blob == NULL)
    return _tprof_gather_set_no_memory (error, "packing the operation names");
  p = g->blob;
  blob_put_u64 (&p, local->n_names);
  for (size_t i = 0; i < local->n_names; i++)
    {
      local_count_samples (local, i, &count, error);
      blob_put_u64 (&p, count);
    }
  for (size_t i = 0; i < local->n_names; i++)
    {
      const TprofRankRecorded *rec = local->recorded != NULL ? &local->recorded[i] : NULL;

      blob_put_u64 (&p, rec != NULL ? rec->recorded : 0);
      blob_put_u64 (&p, double_bits (rec != NULL ? rec->sum : 0.0));
      blob_put_u64 (&p, double_bits (rec != NULL ? rec->min : 0.0));
      blob_put_u64 (&p, double_bits (rec != NULL ? rec->max : 0.0));
    }
  blob_put_str (&p, host);
  for (size_t i = 0; i < local->n_names; i++)
    blob_put_str (&p, local->names[i]);
  g->blob_bytes = bytes;
  g->meta[g->rank * TPROF_GATHER_META_N + TPROF_GATHER_META_BLOB_BYTES] = bytes;
  g->meta[g->rank * TPROF_GATHER_META_N + TPROF_GATHER_META_N_SAMPLES] = n_samples;
  /* a timeline only where every sample of every rank has its start */
  g->meta[g->rank * TPROF_GATHER_META_N + TPROF_GATHER_META_TIMELINE] = 1;
  for (size_t k = 0; local->n_names > 0 && k < local->run_base[local->n_names]; k++)
    if (local->runs[k].n > 0 && local->runs[k].starts == NULL)
      g->meta[g->rank * TPROF_GATHER_META_N + TPROF_GATHER_META_TIMELINE] = 0;
  return 0;
}

static int
gather_set_corrupt (TprofError *error, int rank)
{
  return tprof_error_set (error, TPROF_ERROR_FORMAT,
                          "tprof gather: the name table received from rank %d is corrupt", rank);
}

static void
gather_blob_bounds (TprofGather *g, int r, const unsigned char **p, const unsigned char **end)
{
  *p = g->blobs + g->blob_offsets[r];
  *end = *p + g->meta[r * TPROF_GATHER_META_N + TPROF_GATHER_META_BLOB_BYTES];
}

/* First pass: how many names each rank sent. */
static int
gather_count_names (TprofGather *g, TprofError *error)
{
  g->name_base = malloc (((size_t) g->size + 1) * sizeof *g->name_base);
  g->hostnames = calloc ((size_t) g->size, sizeof *g->hostnames);
  if (g->name_base == NULL || g->hostnames == NULL)
    return _tprof_gather_set_no_memory (error, "reading the operation names");
  g->name_base[0] = 0;
  for (int r = 0; r < g->size; r++)
    {
      const unsigned char *p, *end;
      uint64_t n;

      gather_blob_bounds (g, r, &p, &end);
      /* each name takes at least a count, its recorded figures and two bytes */
      if (!blob_get_u64 (&p, end, &n) || n > (size_t) (end - p) / ((RECORDED_U64 + 1) * sizeof (uint64_t) + 2))
        return gather_set_corrupt (error, r);
      g->name_base[r + 1] = g->name_base[r] + (size_t) n;
    }
  return 0;
}

/* Second pass: counts, host name and names of every rank, checked. */
static int
gather_read_names (TprofGather *g, TprofError *error)
{
  size_t n = g->name_base[g->size];

  g->name_str = malloc ((n > 0 ? n : 1) * sizeof *g->name_str);
  g->name_count = malloc ((n > 0 ? n : 1) * sizeof *g->name_count);
  g->name_op = malloc ((n > 0 ? n : 1) * sizeof *g->name_op);
  g->name_offset = malloc ((n > 0 ? n : 1) * sizeof *g->name_offset);
  g->name_recorded = malloc ((n > 0 ? n : 1) * sizeof *g->name_recorded);
  if (g->name_str == NULL || g->name_count == NULL || g->name_op == NULL || g->name_offset == NULL
      || g->name_recorded == NULL)
    return _tprof_gather_set_no_memory (error, "reading the operation names");
  for (int r = 0; r < g->size; r++)
    {
      const unsigned char *p, *end;
      size_t n_samples = 0;
      uint64_t skip;

      gather_blob_bounds (g, r, &p, &end);
      blob_get_u64 (&p, end, &skip);
      for (size_t i = g->name_base[r]; i < g->name_base[r + 1]; i++)
        {
          uint64_t count;

          if (!blob_get_u64 (&p, end, &count) || count > SIZE_MAX
              || !_tprof_gather_size_add (&n_samples, (size_t) count))
            return gather_set_corrupt (error, r);
          g->name_count[i] = (size_t) count;
        }
      for (size_t i = g->name_base[r]; i < g->name_base[r + 1]; i++)
        {
          uint64_t v[RECORDED_U64];

          for (int k = 0; k < RECORDED_U64; k++)
            if (!blob_get_u64 (&p, end, &v[k]))
              return gather_set_corrupt (error, r);
          g->name_recorded[i] = (TprofRankRecorded) { r, v[0], bits_double (v[1]), bits_double (v[2]),
                                                      bits_double (v[3]) };
          /* sampled: more recorded than sent, figures of times >= 0 */
          if (v[0] != 0 && (v[0] < g->name_count[i] || !(g->name_recorded[i].sum >= 0)
                            || !(g->name_recorded[i].min >= 0)
                            || !(g->name_recorded[i].max >= g->name_recorded[i].min)))
            return gather_set_corrupt (error, r);
        }
      if (n_samples != g->meta[r * TPROF_GATHER_META_N + TPROF_GATHER_META_N_SAMPLES]
          || !blob_get_str (&p, end, &g->hostnames[r]))
        return gather_set_corrupt (error, r);
      for (size_t i = g->name_base[r]; i < g->name_base[r + 1]; i++)
        if (!blob_get_str (&p, end, &g->name_str[i]) || g->name_str[i][0] == '\0')
          return gather_set_corrupt (error, r);
      if (p != end)
        return gather_set_corrupt (error, r);
    }
  return 0;
}

int
_tprof_gather_unpack_names (TprofGather *g, TprofError *error)
{
  if (gather_count_names (g, error) < 0)
    return -1;
  return gather_read_names (g, error);
}
