/* test-profile-file-bitflips.c — single-bit flips of a small profile opened isolated: no crash of the caller, no hang, every result a profile or a clear error. */
/* SPDX-License-Identifier: MIT */
#include <string.h>

#include <glib/gstdio.h>

#include "h5-test-util.h"

/* Every bit of the first bytes (the superblock and the root group's
 * header), then flips drawn from the rest of the file. */
#define HEADER_BYTES 32
#define N_RANDOM_FLIPS 96

typedef struct
{
  guint loaded;
  guint refused;
  guint crashed;  /* the helper's crash, reported as an error */
} Outcome;

/* Opens @path isolated and reads every operation; the result must be a
 * whole profile or one clear error naming the file. */
static void
open_flipped (const char *path, Outcome *outcome)
{
  TprofError error = { 0 };
  TprofProfileFile *pf = tprof_profile_file_open_isolated (path, &error);
  bool failed = pf == NULL;

  for (size_t op = 0; pf != NULL && op < tprof_profile_file_n_operations (pf) && !failed; op++)
    {
      TprofGatheredTime *gt = tprof_profile_file_read_operation (pf, op, NULL, 0, NULL, NULL, NULL, &error);

      failed = gt == NULL;
      tprof_gathered_time_free (gt);
    }
  tprof_profile_file_close (pf);
  if (!failed)
    {
      outcome->loaded++;
      return;
    }
  g_assert_cmpint (error.code, !=, TPROF_ERROR_NONE);
  if (!g_str_has_prefix (error.message, path) || strchr (error.message, '\n') != NULL)
    g_error ("not a clear error: \"%s\"", error.message);
  if (strstr (error.message, "crashed") != NULL)
    outcome->crashed++;
  else
    outcome->refused++;
}

static void
test_bit_flips (void)
{
  g_autofree char *dir = h5_test_make_dir ();
  g_autofree char *good = g_build_filename (dir, "good.h5", NULL);
  g_autofree char *flipped = g_build_filename (dir, "flipped.h5", NULL);
  TprofProfiledTime *pt = tprof_profiled_time_new (3);
  const double times[] = { 0.5, 0.25, 0.125, 1.0, 2.0, 4.0 };
  const int32_t ranks[] = { 0, 0, 1, 1, 2, 2 };
  TprofError error = { 0 };
  GRand *rand = g_rand_new_with_seed (20261203);
  Outcome outcome = { 0 };
  g_autofree char *bytes = NULL;
  gsize size;

  g_assert_cmpint (tprof_profiled_time_add (pt, "forward", h5_test_gathered (times, ranks, 6), &error), ==, 0);
  g_assert_cmpint (tprof_profiled_time_add (pt, "backward", h5_test_gathered (times, ranks, 6), &error), ==, 0);
  g_assert_cmpint (tprof_profiled_time_save (pt, good, &error), ==, 0);
  tprof_profiled_time_free (pt);
  g_assert_true (g_file_get_contents (good, &bytes, &size, NULL));

  for (guint k = 0; k < HEADER_BYTES * 8 + N_RANDOM_FLIPS; k++)
    {
      gsize bit = k < HEADER_BYTES * 8 ? k : (gsize) g_rand_int_range (rand, HEADER_BYTES * 8, (gint32) (size * 8));

      bytes[bit / 8] ^= (char) (1 << (bit % 8));
      g_assert_true (g_file_set_contents (flipped, bytes, (gssize) size, NULL));
      bytes[bit / 8] ^= (char) (1 << (bit % 8));
      open_flipped (flipped, &outcome);
    }
  g_test_message ("%u flips of a %zu-byte profile: %u loaded, %u refused, %u crashed HDF5 in the helper",
                  HEADER_BYTES * 8 + N_RANDOM_FLIPS, size, outcome.loaded, outcome.refused, outcome.crashed);
  g_assert_cmpuint (outcome.refused, >, 0);
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/h5/isolated/bit-flips", test_bit_flips);
  status = g_test_run ();
  h5_test_cleanup ();
  return status;
}
