/* test-profile.c — TprofProfile: what a loaded profile tells the window, and an index per operation. */
/* SPDX-License-Identifier: MIT */

#include "config.h"

#include <tprof/capture.h>

#include "app-test-util.h"
#include "tprof-profile.h"

static const char * const op_names[] = {
  "forward", "allreduce", "io/checkpoint", "empty", "constant", "zeros", "big",
};

typedef struct
{
  GAsyncResult *result;
} Loaded;

static void
load_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Loaded *loaded = user_data;

  loaded->result = g_object_ref (result);
}

static gboolean
loaded_done (gpointer data)
{
  return ((Loaded *) data)->result != NULL;
}

static TprofProfile *
load_profile (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TprofProfile *profile = _tprof_profile_new (file);
  g_autoptr(GError) error = NULL;
  Loaded loaded = { NULL };

  _tprof_profile_load_async (profile, NULL, load_done_cb, &loaded);
  app_test_wait (loaded_done, &loaded);
  g_assert_true (_tprof_profile_load_finish (profile, loaded.result, &error));
  g_assert_no_error (error);
  g_object_unref (loaded.result);
  return profile;
}

static void
test_profile_metadata (void)
{
  g_autofree char *dir = app_test_make_dir ();
  g_autofree char *path = app_test_make_profile (dir, "basic.h5", APP_TEST_PROFILE_BASIC);
  g_autoptr(TprofProfile) profile = load_profile (path);

  g_assert_cmpfloat (_tprof_profile_get_progress (profile), ==, 1.0);
  g_assert_cmpint (_tprof_profile_get_world_size (profile), ==, APP_TEST_BASIC_WORLD);
  g_assert_cmpuint (_tprof_profile_get_n_operations (profile), ==, APP_TEST_BASIC_N_OPS);
  for (guint i = 0; i < G_N_ELEMENTS (op_names); i++)
    {
      const TprofOperationIndex *index = _tprof_profile_get_operation_index (profile, i);

      g_assert_cmpstr (_tprof_profile_get_name (profile, i), ==, op_names[i]);
      /* the table's row is the index's summary, libcapture's numbers */
      g_assert_nonnull (index);
      g_assert_true (_tprof_profile_get_summary (profile, i) == tprof_operation_index_summary (index));
    }
  g_assert_null (_tprof_profile_get_name (profile, APP_TEST_BASIC_N_OPS));
  g_assert_null (_tprof_profile_get_operation_index (profile, APP_TEST_BASIC_N_OPS));
  g_assert_cmpstr (_tprof_profile_get_hostname (profile, 0), ==, "node-a");
  g_assert_cmpstr (_tprof_profile_get_hostname (profile, 7), ==, "node-b");
  g_assert_null (_tprof_profile_get_hostname (profile, 8));
  g_assert_cmpuint (tprof_operation_index_count (_tprof_profile_get_operation_index (profile, 6)), ==, 16000);
  g_assert_cmpuint (tprof_operation_index_count (_tprof_profile_get_operation_index (profile, 3)), ==, 0);

  app_test_remove_dir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/app/profile/metadata", test_profile_metadata);

  return g_test_run ();
}
