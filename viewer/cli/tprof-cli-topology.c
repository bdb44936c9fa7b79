/* tprof-cli-topology.c — --topology and --by: the ranks of a profile grouped by host and the file's levels, and the level asked for. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tprof-cli.h"

TprofTopology *
tprof_cli_topology_load (TprofProfileFile *profile,
                         const char       *file,
                         const char       *topology_path,
                         int              *status)
{
  int world = tprof_profile_file_world_size (profile);
  g_autofree const char **hosts = g_new (const char *, world);
  TprofError error = { 0 };
  TprofTopology *topo;

  for (int r = 0; r < world; r++)
    hosts[r] = tprof_profile_file_hostname (profile, r);
  topo = tprof_topology_new (world, hosts, &error);
  if (topo == NULL)
    {
      *status = tprof_cli_library_error (file, &error);
      return NULL;
    }
  if (topology_path != NULL && tprof_topology_load (topo, topology_path, &error) != 0)
    {
      /* the message starts with the topology file's name and line */
      g_printerr ("tprof: %s\n", error.message);
      *status = TPROF_CLI_EXIT_FAILED;
      tprof_topology_free (topo);
      return NULL;
    }
  return topo;
}

gboolean
tprof_cli_topology_level (const char          *command,
                          const char          *file,
                          const TprofTopology *topo,
                          const char          *by,
                          size_t              *level,
                          int                 *status)
{
  int found;

  if (by == NULL)
    {
      *level = tprof_topology_default_level (topo);
      return TRUE;
    }
  found = tprof_topology_find_level (topo, by);
  if (found < 0)
    {
      g_autoptr(GString) names = g_string_new ("rank, host");

      for (size_t l = 2; l < tprof_topology_n_levels (topo); l++)
        g_string_append_printf (names, ", %s", tprof_topology_level_name (topo, l));
      *status = tprof_cli_usage_error (command, _("--by \"%s\": not a level (%s; --topology FILE adds "
                                                  "others)"), by, names->str);
      return FALSE;
    }
  if (found == TPROF_TOPOLOGY_HOST && !tprof_topology_has_hosts (topo))
    {
      *status = tprof_cli_file_error (file, _("no two ranks share a host name (/ranks/hostname): --by host "
                                              "groups nothing; use --by rank, or --topology FILE"));
      return FALSE;
    }
  *level = (size_t) found;
  return TRUE;
}
