/* tprof-h5-read-timings.c — the operations under /timings, in creation order where tracked, each with its name and samples. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-h5-private.h"
#include "tprof-profiled-time-private.h"

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
tprof_h5_list_links (TprofH5Reader   *r,
                     hid_t            timings,
                     TprofH5LinkList *list)
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
    return tprof_error_set (r->error, TPROF_ERROR_NO_MEMORY,
                            "%s: out of memory listing /timings", r->path);
  if (list->bad_link != NULL)
    return tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                            "%s: /timings/%s is a soft or external link, expected a group",
                            r->path, list->bad_link);
  if (status < 0)
    return _tprof_h5_error (r->error, TPROF_ERROR_FORMAT, r->path, "cannot list the groups of /timings");
  return 0;
}

/* The operation's name: its `name` attribute, or its un-escaped link name. */
static char *
tprof_h5_read_op_name (TprofH5Reader *r,
                       hid_t          group,
                       const char    *link_name)
{
  char problem[128];
  char *name = NULL;
  int found = _tprof_h5_read_string_attr (group, "name", &name, problem, sizeof problem);

  if (found < 0)
    {
      tprof_error_set (r->error, TPROF_ERROR_FORMAT, "%s: /timings/%s: attribute 'name' %s",
                       r->path, link_name, problem);
      return NULL;
    }
  if (found == 0)
    name = _tprof_h5_unescape_name (link_name);
  if (name == NULL)
    {
      tprof_error_set (r->error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", r->path);
      return NULL;
    }
  if (found == 0 && !_tprof_h5_utf8_valid (name, strlen (name)))
    {
      tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                       "%s: /timings/%s has no 'name' attribute and its link name is not valid UTF-8",
                       r->path, link_name);
      free (name);
      return NULL;
    }
  if (name[0] == '\0')
    {
      tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                       "%s: /timings/%s: attribute 'name' is empty", r->path, link_name);
      free (name);
      return NULL;
    }
  return name;
}

static int
tprof_h5_read_operation (TprofH5Reader *r,
                         hid_t          timings,
                         const char    *link_name)
{
  hid_t group;
  char *op = NULL;
  double *times = NULL;
  int32_t *ranks = NULL;
  size_t n = 0;
  TprofGatheredTime *gt;
  int result = -1;

  group = H5Gopen2 (timings, link_name, H5P_DEFAULT);
  if (group < 0)
    return _tprof_h5_error (r->error, TPROF_ERROR_FORMAT, r->path,
                            "/timings/%s is not a group", link_name);
  op = tprof_h5_read_op_name (r, group, link_name);
  if (op == NULL)
    goto out;
  if (_tprof_profiled_time_find (r->pt, op) != TPROF_PROFILED_TIME_NOT_FOUND)
    {
      tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                       "%s: duplicate operation name '%s' (again in /timings/%s)",
                       r->path, op, link_name);
      goto out;
    }
  if (_tprof_h5_read_op_samples (r, group, op, &times, &ranks, &n) < 0)
    goto out;

  gt = tprof_gathered_time_new_take (times, ranks, n);
  if (gt == NULL || !_tprof_profiled_time_append (r->pt, op, gt))
    {
      tprof_error_set (r->error, TPROF_ERROR_NO_MEMORY,
                       "%s: out of memory reading operation '%s'", r->path, op);
      goto out;
    }
  result = 0;

out:
  free (op);
  _tprof_h5_close (group);
  return result;
}

int
_tprof_h5_read_timings (TprofH5Reader *r)
{
  TprofH5LinkList list = { 0 };
  htri_t exists = H5Lexists (r->file, "timings", H5P_DEFAULT);
  hid_t timings;
  int result = 0;

  if (exists <= 0)
    return tprof_error_set (r->error, TPROF_ERROR_FORMAT, "%s: group /timings is missing", r->path);
  timings = H5Gopen2 (r->file, "timings", H5P_DEFAULT);
  if (timings < 0)
    return _tprof_h5_error (r->error, TPROF_ERROR_FORMAT, r->path, "/timings is not a group");

  result = tprof_h5_list_links (r, timings, &list);
  for (size_t i = 0; result == 0 && i < list.n; i++)
    result = tprof_h5_read_operation (r, timings, list.names[i]);

  tprof_h5_link_list_clear (&list);
  _tprof_h5_close (timings);
  return result;
}
