/* tprof-cli-summary-tree.c — the operation tree `tprof summary` shows: each operation's parent and self time, from the nesting of its samples. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <math.h>

#include <glib/gi18n-lib.h>

#include "tprof-cli.h"

typedef struct
{
  TprofGatheredTime **ops;
  gboolean            no_timeline;
} TreeRead;

/* Keeps each operation; stops at the first with samples but no starts. */
static bool
keep_operation (size_t             op,
                TprofGatheredTime *gt,
                void              *user_data,
                TprofError        *error)
{
  TreeRead *read = user_data;

  read->ops[op] = gt;
  read->no_timeline = tprof_gathered_time_count (gt) > 0 && tprof_gathered_time_starts (gt) == NULL;
  return !read->no_timeline;
}

gboolean
tprof_cli_summary_tree (TprofProfileFile *profile,
                        const GArray     *ranks,
                        TprofCliTree     *tree)
{
  gsize n = tprof_profile_file_n_operations (profile);
  TprofGatheredTime **ops = g_new0 (TprofGatheredTime *, MAX (n, 1));
  TreeRead read = { ops, FALSE };
  TprofNesting *nesting = NULL;
  TprofError error = { 0 };
  gboolean ok = TRUE;

  tree->computed = FALSE;
  tree->parents = g_new (gssize, MAX (n, 1));
  tree->self_sums = g_new (double, MAX (n, 1));
  for (gsize op = 0; op < n; op++)
    {
      tree->parents[op] = -1;
      tree->self_sums[op] = NAN;
    }
  /* every operation's starts are needed: a sample's parent may be of any */
  if (tprof_profile_file_read_all (profile, ranks != NULL ? (const int32_t *) ranks->data : NULL,
                                   ranks != NULL ? ranks->len : 0, keep_operation, &read, &error) < 0)
    {
      /* no timeline: no tree, and nothing wrong */
      ok = read.no_timeline;
      if (!ok)
        tprof_cli_library_error (tprof_profile_file_path (profile), &error);
      goto out;
    }
  nesting = tprof_nesting_new ((const TprofGatheredTime *const *) ops, n, &error);
  if (nesting == NULL)
    {
      ok = FALSE;
      tprof_cli_library_error (tprof_profile_file_path (profile), &error);
      goto out;
    }
  for (gsize op = 0; op < n; op++)
    {
      size_t parent;

      if (tprof_nesting_parent_operation (nesting, op, &parent))
        tree->parents[op] = (gssize) parent;
      tree->self_sums[op] = tprof_nesting_self_sum (nesting, op);
    }
  tree->computed = TRUE;

out:
  tprof_nesting_free (nesting);
  for (gsize op = 0; op < n; op++)
    tprof_gathered_time_free (ops[op]);
  g_free (ops);
  return ok;
}

void
tprof_cli_tree_clear (TprofCliTree *tree)
{
  g_clear_pointer (&tree->parents, g_free);
  g_clear_pointer (&tree->self_sums, g_free);
  tree->computed = FALSE;
}
