/* save-full-profile.c — saves a 4-rank profile using every member the file can hold (starts, threads, sampled counts, host names, clock offsets), and writes what it recorded as JSON for an h5py check. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include <tprof/capture.h>

#define WORLD 4

typedef struct
{
  const char *name;
  int         per_rank[WORLD];  /* samples stored per rank */
  int         threads;          /* threads per rank (1 or 2) */
  int         interleaved;      /* ranks in round-robin order, not grouped */
  int         sampled;          /* attach recorded counts larger than stored */
} OpSpec;

static const OpSpec ops[] = {
  { "step", { 5, 3, 0, 4 }, 2, 0, 0 },
  { "allreduce", { 6, 6, 6, 6 }, 1, 0, 0 },
  { "io/write 100%", { 2, 0, 1, 3 }, 1, 1, 0 },
  { "sampled", { 4, 4, 0, 2 }, 2, 0, 1 },
  { "empty", { 0, 0, 0, 0 }, 1, 0, 0 },
  { "Ænd \"quoted\"", { 0, 1, 0, 0 }, 1, 0, 0 },
};

static void
append_string (GString *json, const char *s)
{
  g_string_append_c (json, '"');
  for (const unsigned char *p = (const unsigned char *) s; *p != '\0'; p++)
    if (*p == '"' || *p == '\\')
      g_string_append_printf (json, "\\%c", *p);
    else if (*p < 0x20)
      g_string_append_printf (json, "\\u%04x", *p);
    else
      g_string_append_c (json, (char) *p);
  g_string_append_c (json, '"');
}

static void
append_doubles (GString *json, const char *key, const double *v, size_t n)
{
  g_string_append_printf (json, ", \"%s\": [", key);
  for (size_t i = 0; i < n; i++)
    g_string_append_printf (json, "%s%.17g", i > 0 ? ", " : "", v[i]);
  g_string_append_c (json, ']');
}

static void
append_ints (GString *json, const char *key, const int32_t *v, size_t n)
{
  g_string_append_printf (json, ", \"%s\": [", key);
  for (size_t i = 0; i < n; i++)
    g_string_append_printf (json, "%s%d", i > 0 ? ", " : "", (int) v[i]);
  g_string_append_c (json, ']');
}

/* The samples of @spec: per rank (or round-robin over the ranks), each
 * thread's samples in start order, threads one after another, as the
 * time manager hands them out. */
static TprofGatheredTime *
make_operation (const OpSpec *spec, GRand *rand, GString *json)
{
  size_t n = 0, k = 0;
  double *times, *starts;
  int32_t *ranks, *threads;
  int left[WORLD];
  TprofGatheredTime *gt;

  for (int r = 0; r < WORLD; r++)
    n += spec->per_rank[r];
  times = malloc ((n + 1) * sizeof *times);
  starts = malloc ((n + 1) * sizeof *starts);
  ranks = malloc ((n + 1) * sizeof *ranks);
  threads = malloc ((n + 1) * sizeof *threads);
  memcpy (left, spec->per_rank, sizeof left);
  while (k < n)
    for (int r = 0; r < WORLD; r++)
      {
        int take = spec->interleaved ? MIN (left[r], 1) : left[r];

        for (int i = 0; i < take; i++, k++)
          {
            int index = spec->per_rank[r] - left[r] + i;
            int thread = spec->threads > 1 && index >= (spec->per_rank[r] + 1) / 2;

            times[k] = g_rand_double_range (rand, 1e-6, 2e-3);
            ranks[k] = r;
            threads[k] = thread;
            /* each thread's samples in start order */
            starts[k] = 0.5 * r + 0.1 * thread + 0.004 * (index - (thread ? (spec->per_rank[r] + 1) / 2 : 0))
                        + g_rand_double_range (rand, 0, 1e-3);
          }
        left[r] -= take;
      }
  gt = tprof_gathered_time_new (times, ranks, n);
  g_assert_true (tprof_gathered_time_set_timeline_take (gt, starts, threads));

  g_string_append (json, "{\"name\": ");
  append_string (json, spec->name);
  append_doubles (json, "times", times, n);
  append_ints (json, "ranks", ranks, n);
  append_doubles (json, "starts", starts, n);
  append_ints (json, "threads", threads, n);
  g_string_append (json, ", \"recorded\": [");
  if (spec->sampled)
    {
      TprofRankRecorded rec[WORLD];
      size_t n_rec = 0;

      for (int r = 0; r < WORLD; r++)
        if (spec->per_rank[r] > 0)
          {
            double lo = 1.0, hi = 0.0, sum = 0.0;

            for (size_t i = 0; i < n; i++)
              if (ranks[i] == r)
                {
                  lo = MIN (lo, times[i]);
                  hi = MAX (hi, times[i]);
                  sum += times[i];
                }
            /* ten times as many recorded, a little wider than those kept */
            rec[n_rec] = (TprofRankRecorded) { r, 10u * spec->per_rank[r], 10 * sum, lo / 2, hi * 2 };
            g_string_append_printf (json, "%s{\"rank\": %d, \"recorded\": %d, \"sum\": %.17g, \"min\": %.17g, "
                                    "\"max\": %.17g}", n_rec > 0 ? ", " : "", r, 10 * spec->per_rank[r],
                                    rec[n_rec].sum, rec[n_rec].min, rec[n_rec].max);
            n_rec++;
          }
      g_assert_true (tprof_gathered_time_set_recorded (gt, rec, n_rec));
    }
  g_string_append (json, "]}");
  free (times);
  free (ranks);
  return gt;
}

int
main (int argc, char **argv)
{
  static const char *const hosts[WORLD] = { "node-a", "node-a", "nœud-b", "node-c" };
  const double offsets[WORLD] = { 0, 1.5e-3, -2.25e-3, 7e-6 };
  const double errors[WORLD] = { 0, 1e-6, 2e-6, 3e-6 };
  const char *origin = "2026-12-05T03:00:00.123456Z";
  TprofProfiledTime *pt = tprof_profiled_time_new (WORLD);
  GRand *rand = g_rand_new_with_seed (23);
  GString *json = g_string_new (NULL);
  TprofError error = { 0 };
  GError *gerror = NULL;
  double *copy;

  if (argc != 3)
    {
      fprintf (stderr, "usage: %s OUT.h5 OUT.json\n", argv[0]);
      return 2;
    }
  g_string_append_printf (json, "{\"world_size\": %d, \"operations\": [", WORLD);
  for (size_t i = 0; i < G_N_ELEMENTS (ops); i++)
    {
      if (i > 0)
        g_string_append (json, ", ");
      if (tprof_profiled_time_add (pt, ops[i].name, make_operation (&ops[i], rand, json), &error) != 0)
        g_error ("%s", error.message);
    }
  g_string_append (json, "], \"hostnames\": [");
  for (int r = 0; r < WORLD; r++)
    {
      if (r > 0)
        g_string_append (json, ", ");
      append_string (json, hosts[r]);
    }
  g_string_append_c (json, ']');
  append_doubles (json, "clock_offset", offsets, WORLD);
  append_doubles (json, "clock_offset_error", errors, WORLD);
  g_string_append (json, ", \"timeline_origin\": ");
  append_string (json, origin);
  g_string_append (json, "}\n");

  g_assert_cmpint (tprof_profiled_time_set_hostnames (pt, hosts, &error), ==, 0);
  copy = malloc (sizeof offsets);
  memcpy (copy, offsets, sizeof offsets);
  tprof_profiled_time_set_timeline_take (pt, copy, memcpy (malloc (sizeof errors), errors, sizeof errors),
                                         strdup (origin));
  if (tprof_profiled_time_save (pt, argv[1], &error) != 0)
    g_error ("%s", error.message);
  if (!g_file_set_contents (argv[2], json->str, -1, &gerror))
    g_error ("%s", gerror->message);
  g_string_free (json, TRUE);
  g_rand_free (rand);
  tprof_profiled_time_free (pt);
  return 0;
}
