/* h5-test-util.h — helpers shared by the HDF5 profile tests: temporary files, Python helpers, leak checks. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>
#include <hdf5.h>

#include <tprof/capture.h>

/* A new temporary directory, removed with its content by h5_test_cleanup(). */
char *h5_test_make_dir (void);
void h5_test_cleanup (void);

/* Runs `PYTHON3 tests/h5/SCRIPT ARGS...` (NULL-terminated) and asserts it
 * exits 0 after printing OK. */
void h5_test_run_python (const char *script, ...) G_GNUC_NULL_TERMINATED;

/* Asserts that no HDF5 object (file, group, dataset, attribute) is left open. */
void h5_test_assert_no_open_objects (void);

/* A selection from copies of @times and @ranks. */
TprofGatheredTime *h5_test_gathered (const double *times, const int32_t *ranks, size_t n);

/* Saves @pt to @path, loads it back and returns the loaded profile,
 * asserting both succeed and leak no HDF5 object. */
TprofProfiledTime *h5_test_round_trip (const TprofProfiledTime *pt, const char *path);

/* The file's bytes (caller frees), asserting it can be read. */
GBytes *h5_test_read_bytes (const char *path);

/* Asserts @dir holds exactly the @n_expected entries named in @expected
 * (a failed save must leave no temporary file behind). */
void h5_test_assert_dir_entries (const char *dir, const char *const *expected, size_t n_expected);

/* Overwrites value @index of column @column (a path such as
 * "segments/offset") of the format-3 file @path with HDF5, as another
 * program would, dropping the column's checksum unless @keep_crc. */
void h5_test_patch_value (const char *path, const char *column, hsize_t index, hid_t mem_type, const void *value,
                          gboolean keep_crc);
