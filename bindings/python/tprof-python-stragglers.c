/* tprof-python-stragglers.c — tprof._capture._stragglers: the engine's straggler verdict (a host, a rank or nothing) on a loaded profile. */
/* SPDX-License-Identifier: MIT */
#include "tprof-python-private.h"

/* Every operation of @pt added to @s, the names of those that synchronise
 * the ranks in @synchronising; NULL with an exception set on failure. */
static bool
add_operations (const TprofProfiledTime *pt,
                TprofStragglers         *s,
                PyObject                *synchronising)
{
  for (size_t op = 0; op < tprof_profiled_time_len (pt); op++)
    {
      const TprofGatheredTime *gt = tprof_profiled_time_nth (pt, op);
      TprofArrival arrival;

      if (tprof_gathered_time_count (gt) > 0 && tprof_gathered_time_starts (gt) == NULL)
        {
          PyErr_Format (PyExc_ValueError, "operation '%s' has no timeline (no starts, when each sample began): "
                        "save it with this tprof's gather, over MPI or torch.distributed", tprof_profiled_time_name (pt, op));
          return false;
        }
      if (!tprof_stragglers_add (s, gt, &arrival))
        {
          PyErr_NoMemory ();
          return false;
        }
      if (arrival.synchronising)
        {
          PyObject *name = PyUnicode_FromString (tprof_profiled_time_name (pt, op));

          if (name == NULL || PyList_Append (synchronising, name) < 0)
            {
              Py_XDECREF (name);
              return false;
            }
          Py_DECREF (name);
        }
    }
  return true;
}

static TprofTopology *
topology_new (const TprofProfiledTime *pt,
              const char              *topology_path)
{
  int world = tprof_profiled_time_world_size (pt);
  const char **hosts = PyMem_Calloc ((size_t) world, sizeof *hosts);
  TprofError error = { 0 };
  TprofTopology *topo = NULL;

  if (hosts == NULL)
    return (TprofTopology *) PyErr_NoMemory ();
  for (int r = 0; r < world; r++)
    hosts[r] = tprof_profiled_time_hostname (pt, r);
  topo = tprof_topology_new (world, hosts, &error);
  PyMem_Free (hosts);
  if (topo != NULL && topology_path != NULL && tprof_topology_load (topo, topology_path, &error) != 0)
    {
      tprof_topology_free (topo);
      topo = NULL;
    }
  if (topo == NULL)
    _tprof_py_raise (&error);
  return topo;
}

/* The level called @by (NULL: the default); -1 with ValueError. */
static long
find_level (const TprofTopology *topo,
            const char          *by)
{
  int level;

  if (by == NULL)
    return (long) tprof_topology_default_level (topo);
  level = tprof_topology_find_level (topo, by);
  if (level < 0)
    PyErr_Format (PyExc_ValueError, "by='%s': not a level of the topology (rank, host, or one a topology file "
                  "names)", by);
  else if (level == TPROF_TOPOLOGY_HOST && !tprof_topology_has_hosts (topo))
    {
      PyErr_SetString (PyExc_ValueError, "by='host': no two ranks share a host name; use by='rank' or a topology");
      level = -1;
    }
  return level;
}

static PyObject *
group_dict (const TprofTopology         *topo,
            const TprofStragglerVerdict *v)
{
  size_t n;
  const int32_t *ranks = tprof_topology_group_ranks (topo, v->level, v->group, &n);
  PyObject *list = PyList_New ((Py_ssize_t) n);

  for (size_t i = 0; list != NULL && i < n; i++)
    PyList_SET_ITEM (list, (Py_ssize_t) i, PyLong_FromLong (ranks[i]));
  if (list == NULL)
    return NULL;
  return Py_BuildValue ("{s:s,s:s,s:N,s:K,s:K,s:d,s:d,s:d,s:i}",
                        "host", tprof_topology_group_name (topo, v->level, v->group),
                        "level", tprof_topology_level_name (topo, v->level), "ranks", list,
                        "late_count", (unsigned long long) v->late_count,
                        "occurrences", (unsigned long long) v->occurrences, "wait_caused", v->wait_caused,
                        "expected_late", v->expected_late, "p_value", v->p_value, "latest_rank", v->latest_rank);
}

/* Per rank late counts and waits as lists. */
static PyObject *
per_rank (const TprofStragglers *s,
          bool                   waits)
{
  int world = tprof_stragglers_world_size (s);
  PyObject *list = PyList_New (world);

  for (int r = 0; list != NULL && r < world; r++)
    PyList_SET_ITEM (list, r, waits ? PyFloat_FromDouble (tprof_stragglers_wait_caused (s)[r])
                                    : PyLong_FromUnsignedLongLong (tprof_stragglers_late_count (s)[r]));
  return list;
}

static PyObject *
verdict_dict (const TprofStragglers       *s,
              const TprofTopology         *topo,
              size_t                       level,
              const TprofStragglerVerdict *v,
              PyObject                    *synchronising)
{
  static const char *const kinds[] = { "none", "rank", "host" };
  PyObject *host = v->kind == TPROF_STRAGGLER_VERDICT_GROUP ? group_dict (topo, v) : Py_NewRef (Py_None);
  PyObject *straggler = v->rank >= 0 ? PyLong_FromLong (v->rank) : Py_NewRef (Py_None);

  if (host == NULL || straggler == NULL)
    {
      Py_XDECREF (host);
      Py_XDECREF (straggler);
      return NULL;
    }
  return Py_BuildValue ("{s:s,s:s,s:N,s:d,s:N,s:K,s:O,s:N,s:N}", "verdict", kinds[v->kind],
                        "level", tprof_topology_level_name (topo, level), "straggler", straggler,
                        "p_value", v->rank_p_value, "host", host, "occurrences", (unsigned long long) v->occurrences,
                        "synchronising", synchronising, "late_count", per_rank (s, false),
                        "wait_caused", per_rank (s, true));
}

PyObject *
_tprof_py_stragglers (PyObject *module,
                      PyObject *args,
                      PyObject *kwargs)
{
  static char *keywords[] = { "profile", "by", "topology", NULL };
  PyObject *profile, *result = NULL, *synchronising = NULL;
  const char *by = NULL, *topology_path = NULL;
  TprofStragglers *s = NULL;
  TprofTopology *topo = NULL;
  TprofStragglerVerdict verdict;
  const TprofProfiledTime *pt;
  long level;

  (void) module;
  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "O!|zz", keywords, &_tprof_py_profiled_time_type, &profile, &by,
                                    &topology_path))
    return NULL;
  pt = ((TprofPyProfiledTime *) profile)->pt;
  if ((topo = topology_new (pt, topology_path)) == NULL || (level = find_level (topo, by)) < 0)
    goto out;
  s = tprof_stragglers_new (tprof_profiled_time_world_size (pt));
  synchronising = PyList_New (0);
  if (s == NULL || synchronising == NULL)
    {
      PyErr_NoMemory ();
      goto out;
    }
  if (!add_operations (pt, s, synchronising))
    goto out;
  if (!tprof_stragglers_decide (s, topo, (size_t) level, &verdict))
    PyErr_NoMemory ();
  else
    result = verdict_dict (s, topo, (size_t) level, &verdict, synchronising);
out:
  Py_XDECREF (synchronising);
  tprof_stragglers_free (s);
  tprof_topology_free (topo);
  return result;
}
