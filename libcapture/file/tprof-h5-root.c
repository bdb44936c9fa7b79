/* tprof-h5-root.c — a profile file's root attributes and its /ranks members, read as the format's tables list them. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-h5-reader-private.h"

/* String member @m of /ranks (world_size strings) into @pf. */
static int
tprof_h5_read_rank_strings (TprofProfileFile *pf,
                            hid_t             ranks_group,
                            TprofRanksMember  m,
                            TprofError       *error)
{
  const char *path = _tprof_ranks_members[m].path;
  hid_t dset = H5Dopen2 (ranks_group, _tprof_ranks_members[m].name, H5P_DEFAULT), space = -1;
  hsize_t dims[1] = { 0 };
  char **texts = NULL;
  char problem[128] = "";
  int result = -1;

  if (dset >= 0)
    space = H5Dget_space (dset);
  if (space < 0 || H5Sget_simple_extent_ndims (space) != 1 ||
      H5Sget_simple_extent_dims (space, dims, NULL) != 1 || dims[0] != (hsize_t) pf->world_size)
    tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: %s must be a 1-D dataset of world_size (%d) strings",
                     pf->path, path, pf->world_size);
  else if (_tprof_h5_read_string_dataset (dset, (size_t) pf->world_size, &texts, problem, sizeof problem) < 0)
    tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: %s %s", pf->path, path, problem);
  else if (m == TPROF_RANKS_HOSTNAME)
    {
      pf->hostnames = texts;
      texts = NULL;
      result = 0;
    }
  _tprof_h5_free_strings (texts, (size_t) pf->world_size);
  _tprof_h5_close (space);
  _tprof_h5_close (dset);
  return result;
}

/* Float member @m of /ranks: world_size values as its rule says (finite;
 * TIME: finite and >= 0; FINITE_OR_NAN: NaN too, a rank without one). */
static int
tprof_h5_read_rank_doubles (TprofProfileFile *pf,
                            hid_t             ranks_group,
                            TprofRanksMember  m,
                            TprofError       *error)
{
  const TprofRanksMemberInfo *info = &_tprof_ranks_members[m];
  bool non_negative = info->rule == TPROF_RULE_TIME, nan = info->rule == TPROF_RULE_FINITE_OR_NAN;
  size_t n = (size_t) pf->world_size;
  double *values = malloc (n * sizeof *values);
  int found;

  if (values == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", pf->path);
  found = _tprof_h5_read_member (pf, ranks_group, "/" TPROF_RANKS_GROUP, info->name, H5T_FLOAT, H5T_NATIVE_DOUBLE,
                                 n, values, error);
  for (size_t r = 0; found > 0 && r < n; r++)
    if ((!isfinite (values[r]) && !(nan && isnan (values[r]))) || (non_negative && values[r] < 0))
      {
        tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: %s[%zu] is %g, expected a finite %s%s",
                         pf->path, info->path, r, values[r], non_negative ? "value >= 0" : "value",
                         nan ? " or NaN" : "");
        found = -1;
      }
  if (found <= 0)
    {
      free (values);
      return found < 0 ? -1 : 0;
    }
  if (m == TPROF_RANKS_CLOCK_OFFSET)
    pf->clock_offsets = values;
  else if (m == TPROF_RANKS_CLOCK_OFFSET_ERROR)
    pf->clock_offset_errors = values;
  else if (m == TPROF_RANKS_DATA_UNTIL)
    pf->data_until = values;
  else
    free (values);
  return 0;
}

/* The members of /ranks of type @type that the file holds (each is
 * optional, and so is the group). 0, or -1 with the error set. */
static int
tprof_h5_read_ranks (TprofProfileFile *pf,
                     TprofColumnType   type,
                     TprofError       *error)
{
  hid_t ranks_group;
  int result = 0;

  if (H5Lexists (pf->file, TPROF_RANKS_GROUP, H5P_DEFAULT) <= 0)
    return 0;
  ranks_group = H5Gopen2 (pf->file, TPROF_RANKS_GROUP, H5P_DEFAULT);
  if (ranks_group < 0)
    return _tprof_h5_error (error, TPROF_ERROR_FORMAT, pf->path, "/" TPROF_RANKS_GROUP " is not a group");
  for (int m = 0; result == 0 && m < TPROF_N_RANKS_MEMBERS; m++)
    {
      if (_tprof_ranks_members[m].type != type
          || H5Lexists (ranks_group, _tprof_ranks_members[m].name, H5P_DEFAULT) <= 0)
        continue;
      result = type == TPROF_COLTYPE_STRING ? tprof_h5_read_rank_strings (pf, ranks_group, m, error)
               : tprof_h5_read_rank_doubles (pf, ranks_group, m, error);
    }
  _tprof_h5_close (ranks_group);
  return result;
}

int
_tprof_h5_read_hostnames (TprofProfileFile *pf,
                          TprofError       *error)
{
  return tprof_h5_read_ranks (pf, TPROF_COLTYPE_STRING, error);
}

int
_tprof_h5_read_clock_offsets (TprofProfileFile *pf,
                              TprofError       *error)
{
  return tprof_h5_read_ranks (pf, TPROF_COLTYPE_FLOAT64, error);
}

/* Integer root attribute @a, checked by its rule, into @pf. */
static int
tprof_h5_read_root_int (TprofProfileFile *pf,
                        TprofRootAttr     a,
                        TprofError       *error)
{
  const char *name = _tprof_root_attrs[a].name;
  char problem[128];
  long long value;
  int found = _tprof_h5_read_int_attr (pf->file, name, &value, problem, sizeof problem);

  if (found < 0)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: root attribute '%s' %s", pf->path, name, problem);
  if (found == 0)
    return _tprof_root_attrs[a].required
           ? tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: root attribute '%s' is missing", pf->path, name)
           : 0;
  if (_tprof_root_attrs[a].rule == TPROF_RULE_VERSION && value > TPROF_H5_READER_MAX_VERSION)
    return tprof_error_set (error, TPROF_ERROR_VERSION,
                            "%s: the file is newer than this reader (format_version %lld; "
                            "this reader understands up to %d): update tprof",
                            pf->path, value, TPROF_H5_READER_MAX_VERSION);
  if (_tprof_root_attrs[a].rule == TPROF_RULE_VERSION && value < 1)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: root attribute '%s' is %lld, expected 1 to %d",
                            pf->path, name, value, TPROF_H5_READER_MAX_VERSION);
  if (_tprof_root_attrs[a].rule == TPROF_RULE_WORLD && (value < 1 || value > INT_MAX))
    return tprof_error_set (error, TPROF_ERROR_FORMAT,
                            "%s: root attribute '%s' is %lld, expected an integer in [1, %d]",
                            pf->path, name, value, INT_MAX);
  if (a == TPROF_ROOT_FORMAT_VERSION)
    pf->format_version = (int) value;
  else if (a == TPROF_ROOT_WORLD_SIZE)
    pf->world_size = (int) value;
  return 0;
}

/* Where the text of root attribute @a goes (NULL: checked, not kept). */
static char **
tprof_h5_root_text_slot (TprofProfileFile *pf,
                         TprofRootAttr     a)
{
  return a == TPROF_ROOT_CREATED ? &pf->created : a == TPROF_ROOT_PRODUCER ? &pf->producer
         : a == TPROF_ROOT_CLOCK ? &pf->clock : a == TPROF_ROOT_TIMELINE_ORIGIN ? &pf->timeline_origin : NULL;
}

/* String root attribute @a, checked by its rule, into @pf. */
static int
tprof_h5_read_root_text (TprofProfileFile *pf,
                         TprofRootAttr     a,
                         TprofError       *error)
{
  const char *name = _tprof_root_attrs[a].name;
  bool format = _tprof_root_attrs[a].rule == TPROF_RULE_FORMAT;
  char problem[128];
  char *text = NULL, **slot;
  int found = _tprof_h5_read_string_attr (pf->file, name, &text, problem, sizeof problem);

  if (found < 0)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: root attribute '%s' %s", pf->path, name, problem);
  if (found == 0 && _tprof_root_attrs[a].required)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: %sroot attribute '%s' is missing%s", pf->path,
                            format ? "not a tprof profile (" : "", name, format ? ")" : "");
  if (found > 0 && format && strcmp (text, TPROF_FORMAT_NAME) != 0)
    {
      tprof_error_set (error, TPROF_ERROR_FORMAT,
                       "%s: not a tprof profile (root attribute '%s' is '%.64s', expected '%s')",
                       pf->path, name, text, TPROF_FORMAT_NAME);
      free (text);
      return -1;
    }
  slot = tprof_h5_root_text_slot (pf, a);
  if (slot != NULL)
    {
      free (*slot);
      *slot = text;
    }
  else
    free (text);
  return 0;
}

int
_tprof_h5_read_root (TprofProfileFile *pf,
                     TprofError       *error)
{
  /* in the table's order: the format, then its version, before anything
   * whose meaning they decide */
  for (int a = 0; a < TPROF_N_ROOT_ATTRS; a++)
    if ((_tprof_root_attrs[a].type == TPROF_COLTYPE_STRING ? tprof_h5_read_root_text (pf, a, error)
         : tprof_h5_read_root_int (pf, a, error)) < 0)
      return -1;
  return 0;
}
