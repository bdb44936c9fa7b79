/* test-h5-save-unload.c — the library unloaded right after a save over a file: the thread letting the replaced file go is over first, and the file is let go. */
/* SPDX-License-Identifier: MIT */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include <tprof/tprof-error.h>

#include "held-files.h"

/* The library's entry points, by dlsym(): this program is not linked
 * with it, so that dlclose() unloads it. */
typedef struct
{
  void *(*profiled_time_new) (int world_size);
  void *(*gathered_time_new) (const double *times, const int32_t *ranks, size_t n);
  int (*profiled_time_add) (void *pt, const char *name, void *gt, void *error);
  int (*profiled_time_save) (const void *pt, const char *path, void *error);
  void (*profiled_time_free) (void *pt);
} Api;

static void *
must_sym (void       *lib,
          const char *name)
{
  void *sym = dlsym (lib, name);

  if (sym == NULL)
    g_error ("%s: %s", name, dlerror ());
  return sym;
}

static void
save_twice (const Api  *api,
            const char *path)
{
  static const double times[] = { 0.5, 0.25, 0.125 };
  static const int32_t ranks[] = { 0, 0, 0 };

  for (int i = 0; i < 2; i++)
    {
      void *pt = api->profiled_time_new (1);
      TprofError error = { 0 };

      g_assert_cmpint (api->profiled_time_add (pt, "step", api->gathered_time_new (times, ranks, 3), NULL), ==, 0);
      if (api->profiled_time_save (pt, path, &error) != 0)
        g_error ("%s", error.message);
      api->profiled_time_free (pt);
    }
}

static void
test_unload_after_save (void)
{
  const char *lib_path = g_getenv ("TPROF_TEST_CAPTURE_LIBRARY");
  char *dir = g_dir_make_tmp ("tprof-unload-XXXXXX", NULL);
  char *path = g_build_filename (dir, "p.h5", NULL);
  void *lib;
  Api api;

  g_assert_nonnull (lib_path);
  g_assert_nonnull (dir);
  lib = dlopen (lib_path, RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL)
    g_error ("%s: %s", lib_path, dlerror ());
  api.profiled_time_new = must_sym (lib, "tprof_profiled_time_new");
  api.gathered_time_new = must_sym (lib, "tprof_gathered_time_new");
  api.profiled_time_add = must_sym (lib, "tprof_profiled_time_add");
  api.profiled_time_save = must_sym (lib, "tprof_profiled_time_save");
  api.profiled_time_free = must_sym (lib, "tprof_profiled_time_free");
  save_twice (&api, path);
  g_assert_cmpint (dlclose (lib), ==, 0);
  /* unloaded, then (the test means nothing where it stays) */
  g_assert_null (dlopen (lib_path, RTLD_NOW | RTLD_NOLOAD));
  g_assert_cmpint (held_deleted_files_in (dir), ==, 0);
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
  g_free (path);
  g_free (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/h5/save-unload/unload-after-save", test_unload_after_save);
  return g_test_run ();
}
