/* tprof-h5-timings.c — a profile file's operations under /timings, in creation order where tracked: names, sample counts, caches. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-h5-reader-private.h"

/* Link names of /timings in the order to read them. */
typedef struct
{
  char   **names;
  size_t   n;
  size_t   capacity;
  char    *bad_link;   /* a link that is not a hard link, when found */
  bool     no_memory;
} TprofH5LinkList;

static void
tprof_h5_link_list_clear (TprofH5LinkList *list)
{
  _tprof_h5_free_strings (list->names, list->n);
  free (list->bad_link);
  memset (list, 0, sizeof *list);
}

static herr_t
tprof_h5_link_list_add (hid_t             group,
                        const char       *name,
                        const H5L_info_t *info,
                        void             *user_data)
{
  TprofH5LinkList *list = user_data;

  /* Soft and external links could alias an operation or open other files. */
  if (info->type != H5L_TYPE_HARD)
    {
      list->bad_link = strdup (name);
      list->no_memory = list->bad_link == NULL;
      return 1;
    }
  if (list->n == list->capacity)
    {
      size_t capacity = list->capacity != 0 ? list->capacity * 2 : 64;
      char **names = capacity <= SIZE_MAX / sizeof *names
        ? realloc (list->names, capacity * sizeof *names) : NULL;

      if (names == NULL)
        {
          list->no_memory = true;
          return 1;
        }
      list->names = names;
      list->capacity = capacity;
    }
  list->names[list->n] = strdup (name);
  if (list->names[list->n] == NULL)
    {
      list->no_memory = true;
      return 1;
    }
  list->n++;
  return 0;
}

static int
tprof_h5_list_links (TprofProfileFile *pf,
                     hid_t             timings,
                     TprofH5LinkList  *list,
                     TprofError       *error)
{
  hid_t gcpl = H5Gget_create_plist (timings);
  unsigned flags = 0;
  bool tracked;
  herr_t status = -1;

  if (gcpl >= 0 && H5Pget_link_creation_order (gcpl, &flags) < 0)
    flags = 0;
  _tprof_h5_close (gcpl);
  tracked = (flags & H5P_CRT_ORDER_TRACKED) != 0;

  /* Creation order needs an index for large groups; without one, fall back
   * to name order rather than refuse the file. */
  if (tracked)
    status = H5Literate (timings, H5_INDEX_CRT_ORDER, H5_ITER_INC, NULL,
                         tprof_h5_link_list_add, list);
  if (status < 0 && !list->no_memory && list->bad_link == NULL)
    {
      tprof_h5_link_list_clear (list);
      status = H5Literate (timings, H5_INDEX_NAME, H5_ITER_INC, NULL,
                           tprof_h5_link_list_add, list);
    }

  if (list->no_memory)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY,
                            "%s: out of memory listing /timings", pf->path);
  if (list->bad_link != NULL)
    return tprof_error_set (error, TPROF_ERROR_FORMAT,
                            "%s: /timings/%s is a soft or external link, expected a group",
                            pf->path, list->bad_link);
  if (status < 0)
    return _tprof_h5_error (error, TPROF_ERROR_FORMAT, pf->path, "cannot list the groups of /timings");
  return 0;
}

/* The operation's name: its `name` attribute, or its un-escaped link name. */
static char *
tprof_h5_read_op_name (TprofProfileFile *pf,
                       hid_t             group,
                       const char       *link_name,
                       TprofError       *error)
{
  char problem[128];
  char *name = NULL;
  int found = _tprof_h5_read_string_attr (group, "name", &name, problem, sizeof problem);

  if (found < 0)
    {
      tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: /timings/%s: attribute 'name' %s",
                       pf->path, link_name, problem);
      return NULL;
    }
  if (found == 0)
    name = _tprof_h5_unescape_name (link_name);
  if (name == NULL)
    {
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", pf->path);
      return NULL;
    }
  if (found == 0 && !_tprof_h5_utf8_valid (name, strlen (name)))
    {
      tprof_error_set (error, TPROF_ERROR_FORMAT,
                       "%s: /timings/%s has no 'name' attribute and its link name is not valid UTF-8",
                       pf->path, link_name);
      free (name);
      return NULL;
    }
  if (name[0] == '\0')
    {
      tprof_error_set (error, TPROF_ERROR_FORMAT,
                       "%s: /timings/%s: attribute 'name' is empty", pf->path, link_name);
      free (name);
      return NULL;
    }
  return name;
}

/* Checks `times` and `ranks` (and `starts`, `threads` where present) are
 * 1-D of the right classes and one length, without reading a value. */
static int
tprof_h5_check_sample_datasets (TprofProfileFile *pf,
                                hid_t             group,
                                TprofH5Operation *op,
                                TprofError       *error)
{
  static const char *const extra[] = { "starts", "threads" };
  static const H5T_class_t extra_class[] = { H5T_FLOAT, H5T_INTEGER };
  hsize_t n_times = 0, n_ranks = 0, n_extra = 0;
  hid_t dset;

  dset = _tprof_h5_open_dataset_1d (pf, group, op->name, "times", H5T_FLOAT, &n_times, error);
  _tprof_h5_close (dset);
  if (dset < 0)
    return -1;
  dset = _tprof_h5_open_dataset_1d (pf, group, op->name, "ranks", H5T_INTEGER, &n_ranks, error);
  _tprof_h5_close (dset);
  if (dset < 0)
    return -1;
  if (n_times != n_ranks)
    return tprof_error_set (error, TPROF_ERROR_FORMAT,
                            "%s: operation '%s': length mismatch: 'times' has %llu samples, 'ranks' has %llu",
                            pf->path, op->name, (unsigned long long) n_times, (unsigned long long) n_ranks);
  if (n_times > SIZE_MAX / sizeof (double))
    return tprof_error_set (error, TPROF_ERROR_TOO_LARGE, "%s: operation '%s': too many samples",
                            pf->path, op->name);
  op->n = n_times;

  for (size_t i = 0; pf->format_version >= 2 && i < 2; i++)
    {
      if (H5Lexists (group, extra[i], H5P_DEFAULT) <= 0)
        continue;
      dset = _tprof_h5_open_dataset_1d (pf, group, op->name, extra[i], extra_class[i], &n_extra, error);
      _tprof_h5_close (dset);
      if (dset < 0)
        return -1;
      if (n_extra != n_times)
        return tprof_error_set (error, TPROF_ERROR_FORMAT,
                                "%s: operation '%s': length mismatch: 'times' has %llu samples, '%s' has %llu",
                                pf->path, op->name, (unsigned long long) n_times, extra[i],
                                (unsigned long long) n_extra);
    }
  return 0;
}

hid_t
_tprof_h5_open_operation (TprofProfileFile *pf,
                          size_t            op,
                          TprofError       *error)
{
  const char *link_name = pf->ops[op].link_name;
  hid_t timings = H5Gopen2 (pf->file, "timings", H5P_DEFAULT);
  hid_t group = timings >= 0 ? H5Gopen2 (timings, link_name, H5P_DEFAULT) : -1;

  if (group < 0)
    _tprof_h5_error (error, TPROF_ERROR_FORMAT, pf->path, "/timings/%s is not a group", link_name);
  _tprof_h5_close (timings);
  return group;
}

/* Reads the metadata of the operation at @link_name into the next slot. */
static int
tprof_h5_read_operation (TprofProfileFile *pf,
                         hid_t             timings,
                         const char       *link_name,
                         TprofError       *error)
{
  TprofH5Operation *op = &pf->ops[pf->n_ops];
  hid_t group;
  int result = -1;

  memset (op, 0, sizeof *op);
  op->link_name = strdup (link_name);
  if (op->link_name == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", pf->path);
  pf->n_ops++;  /* from here on, closing the file frees what the slot holds */
  group = H5Gopen2 (timings, link_name, H5P_DEFAULT);
  if (group < 0)
    return _tprof_h5_error (error, TPROF_ERROR_FORMAT, pf->path,
                            "/timings/%s is not a group", link_name);
  op->name = tprof_h5_read_op_name (pf, group, link_name, error);
  if (op->name != NULL
      && tprof_h5_check_sample_datasets (pf, group, op, error) == 0
      && (pf->format_version < 2 || _tprof_operation_cache_read (pf, op, group, error) == 0))
    result = 0;
  _tprof_h5_close (group);
  return result;
}

int
_tprof_h5_read_operations (TprofProfileFile *pf,
                           TprofError       *error)
{
  TprofH5LinkList list = { 0 };
  htri_t exists = H5Lexists (pf->file, "timings", H5P_DEFAULT);
  hid_t timings;
  int result;

  if (exists <= 0)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: group /timings is missing", pf->path);
  timings = H5Gopen2 (pf->file, "timings", H5P_DEFAULT);
  if (timings < 0)
    return _tprof_h5_error (error, TPROF_ERROR_FORMAT, pf->path, "/timings is not a group");

  result = tprof_h5_list_links (pf, timings, &list, error);
  if (result == 0)
    {
      pf->ops = calloc (list.n != 0 ? list.n : 1, sizeof *pf->ops);
      pf->op_stats = calloc (list.n != 0 ? list.n : 1, sizeof *pf->op_stats);
      if (pf->ops == NULL || pf->op_stats == NULL)
        result = tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", pf->path);
    }
  for (size_t i = 0; result == 0 && i < list.n; i++)
    result = tprof_h5_read_operation (pf, timings, list.names[i], error);
  if (result == 0)
    result = _tprof_h5_index_names (pf, error);

  tprof_h5_link_list_clear (&list);
  _tprof_h5_close (timings);
  return result;
}
