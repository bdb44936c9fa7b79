/* tprof-h5-read.c — tprof_profiled_time_load(): checks and reads an HDF5 profile (DESIGN.md section 2). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tprof/tprof-profiled-time.h"
#include "tprof-h5-private.h"
#include "tprof-profiled-time-private.h"

typedef struct
{
  const char        *path;
  TprofError        *error;
  hid_t              file;
  TprofProfiledTime *pt;
  int                world_size;
} TprofH5Reader;

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

static const char *
tprof_h5_class_name (H5T_class_t klass)
{
  if (klass == H5T_INTEGER)
    return "integer";
  if (klass == H5T_FLOAT)
    return "floating point";
  if (klass == H5T_STRING)
    return "string";
  if (klass == H5T_COMPOUND)
    return "compound";
  if (klass == H5T_ENUM)
    return "enum";
  if (klass == H5T_ARRAY)
    return "array";
  if (klass == H5T_VLEN)
    return "variable-length sequence";
  return "unsupported";
}

/* Opens dataset @dset_name of operation @op and checks it is 1-D of class
 * @klass; stores its length in *@n. Returns the dataset, or -1 with the
 * error set. */
static hid_t
tprof_h5_open_samples (TprofH5Reader *r,
                       hid_t          group,
                       const char    *op,
                       const char    *dset_name,
                       H5T_class_t    klass,
                       hsize_t       *n)
{
  hid_t dset = -1, type = -1, space = -1;
  H5T_class_t found_class;
  int ndims;
  htri_t exists = H5Lexists (group, dset_name, H5P_DEFAULT);

  if (exists <= 0)
    {
      tprof_error_set (r->error, TPROF_ERROR_FORMAT, "%s: operation '%s' has no dataset '%s'",
                       r->path, op, dset_name);
      return -1;
    }
  dset = H5Dopen2 (group, dset_name, H5P_DEFAULT);
  if (dset < 0)
    {
      _tprof_h5_error (r->error, TPROF_ERROR_FORMAT, r->path,
                       "operation '%s': '%s' is not a readable dataset", op, dset_name);
      return -1;
    }
  type = H5Dget_type (dset);
  found_class = type >= 0 ? H5Tget_class (type) : H5T_NO_CLASS;
  _tprof_h5_close (type);
  if (found_class != klass)
    {
      tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                       "%s: operation '%s': dataset '%s' holds %s values, expected %s",
                       r->path, op, dset_name, tprof_h5_class_name (found_class),
                       tprof_h5_class_name (klass));
      goto failed;
    }
  space = H5Dget_space (dset);
  ndims = space >= 0 ? H5Sget_simple_extent_ndims (space) : -1;
  if (ndims != 1 || H5Sget_simple_extent_dims (space, n, NULL) != 1)
    {
      tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                       "%s: operation '%s': dataset '%s' has %d dimensions, expected 1",
                       r->path, op, dset_name, ndims);
      goto failed;
    }
  _tprof_h5_close (space);
  return dset;

failed:
  _tprof_h5_close (space);
  _tprof_h5_close (dset);
  return -1;
}

/* Reads @n samples of @dset into a new array of @elem_size bytes per value. */
static void *
tprof_h5_read_samples (TprofH5Reader *r,
                       hid_t          dset,
                       hid_t          mem_type,
                       size_t         elem_size,
                       size_t         n,
                       const char    *op,
                       const char    *dset_name)
{
  void *data;

  if (n > SIZE_MAX / elem_size || (data = malloc (n * elem_size)) == NULL)
    {
      tprof_error_set (r->error, TPROF_ERROR_NO_MEMORY,
                       "%s: operation '%s': not enough memory for %zu samples",
                       r->path, op, n);
      return NULL;
    }
  if (H5Dread (dset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    {
      _tprof_h5_error (r->error, TPROF_ERROR_FORMAT, r->path,
                       "operation '%s': cannot read dataset '%s'", op, dset_name);
      free (data);
      return NULL;
    }
  return data;
}

/* Branch-free passes over the bits, cheap even unvectorized: true when
 * every sample is valid, the common case, so the search for the culprit
 * rarely runs. */
static bool
tprof_h5_samples_valid (const double  *times,
                        const int32_t *ranks,
                        size_t         n,
                        int            world_size)
{
  uint64_t times_bad = 0;
  uint32_t ranks_bad = 0;

  for (size_t i = 0; i < n; i++)
    {
      uint64_t bits;

      /* The sign bit flags negatives (and -0.0, which the slow pass then
       * accepts); adding one to the exponent carries into the sign bit
       * exactly for infinities and NaNs. */
      memcpy (&bits, &times[i], sizeof bits);
      times_bad |= (bits | (bits + UINT64_C (0x0010000000000000))) >> 63;
    }
  /* unsigned: negative ranks wrap to huge ones */
  for (size_t i = 0; i < n; i++)
    ranks_bad |= (uint32_t) ranks[i] >= (uint32_t) world_size;
  return times_bad == 0 && ranks_bad == 0;
}

static int
tprof_h5_check_samples (TprofH5Reader *r,
                        const char    *op,
                        const double  *times,
                        const int32_t *ranks,
                        size_t         n)
{
  if (TPROF_LIKELY (tprof_h5_samples_valid (times, ranks, n, r->world_size)))
    return 0;
  for (size_t i = 0; i < n; i++)
    {
      if (!isfinite (times[i]) || times[i] < 0)
        return tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                                "%s: operation '%s': times[%zu] is %s (%g), expected a finite time >= 0",
                                r->path, op, i,
                                isnan (times[i]) ? "NaN" : isinf (times[i]) ? "infinite" : "negative",
                                times[i]);
      if (ranks[i] < 0 || ranks[i] >= r->world_size)
        return tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                                "%s: operation '%s': ranks[%zu] is %d, outside [0, %d) (world_size %d)",
                                r->path, op, i, (int) ranks[i], r->world_size, r->world_size);
    }
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
  hid_t group, times_dset = -1, ranks_dset = -1;
  hsize_t n_times = 0, n_ranks = 0;
  char *op = NULL;
  double *times = NULL;
  int32_t *ranks = NULL;
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

  times_dset = tprof_h5_open_samples (r, group, op, "times", H5T_FLOAT, &n_times);
  if (times_dset < 0)
    goto out;
  ranks_dset = tprof_h5_open_samples (r, group, op, "ranks", H5T_INTEGER, &n_ranks);
  if (ranks_dset < 0)
    goto out;
  if (n_times != n_ranks)
    {
      tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                       "%s: operation '%s': length mismatch: 'times' has %llu samples, 'ranks' has %llu",
                       r->path, op, (unsigned long long) n_times, (unsigned long long) n_ranks);
      goto out;
    }
  if (n_times > SIZE_MAX)
    {
      tprof_error_set (r->error, TPROF_ERROR_TOO_LARGE, "%s: operation '%s': too many samples",
                       r->path, op);
      goto out;
    }

  if (n_times != 0)
    {
      times = tprof_h5_read_samples (r, times_dset, H5T_NATIVE_DOUBLE, sizeof *times,
                                     (size_t) n_times, op, "times");
      if (times == NULL)
        goto out;
      ranks = tprof_h5_read_samples (r, ranks_dset, H5T_NATIVE_INT32, sizeof *ranks,
                                     (size_t) n_times, op, "ranks");
      if (ranks == NULL || tprof_h5_check_samples (r, op, times, ranks, (size_t) n_times) < 0)
        goto out;
    }

  gt = tprof_gathered_time_new_take (times, ranks, (size_t) n_times);
  times = NULL;
  ranks = NULL;
  if (gt == NULL || !_tprof_profiled_time_append (r->pt, op, gt))
    {
      tprof_error_set (r->error, TPROF_ERROR_NO_MEMORY,
                       "%s: out of memory reading operation '%s'", r->path, op);
      goto out;
    }
  result = 0;

out:
  free (times);
  free (ranks);
  free (op);
  _tprof_h5_close (ranks_dset);
  _tprof_h5_close (times_dset);
  _tprof_h5_close (group);
  return result;
}

static int
tprof_h5_read_timings (TprofH5Reader *r)
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

static int
tprof_h5_read_hostnames (TprofH5Reader *r)
{
  hid_t ranks_group = -1, dset = -1, space = -1;
  hsize_t dims[1] = { 0 };
  char **hostnames = NULL;
  char problem[128] = "";
  int result = -1;

  if (H5Lexists (r->file, "ranks", H5P_DEFAULT) <= 0)
    return 0;
  ranks_group = H5Gopen2 (r->file, "ranks", H5P_DEFAULT);
  if (ranks_group < 0)
    return _tprof_h5_error (r->error, TPROF_ERROR_FORMAT, r->path, "/ranks is not a group");
  if (H5Lexists (ranks_group, "hostname", H5P_DEFAULT) <= 0)
    {
      _tprof_h5_close (ranks_group);
      return 0;
    }

  dset = H5Dopen2 (ranks_group, "hostname", H5P_DEFAULT);
  if (dset >= 0)
    space = H5Dget_space (dset);
  if (space < 0 || H5Sget_simple_extent_ndims (space) != 1 ||
      H5Sget_simple_extent_dims (space, dims, NULL) != 1 || dims[0] != (hsize_t) r->world_size)
    {
      tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                       "%s: /ranks/hostname must be a 1-D dataset of world_size (%d) strings",
                       r->path, r->world_size);
      goto out;
    }
  if (_tprof_h5_read_string_dataset (dset, (size_t) r->world_size, &hostnames,
                                     problem, sizeof problem) < 0)
    {
      tprof_error_set (r->error, TPROF_ERROR_FORMAT, "%s: /ranks/hostname %s", r->path, problem);
      goto out;
    }
  result = tprof_profiled_time_set_hostnames (r->pt, (const char *const *) hostnames, r->error);

out:
  _tprof_h5_free_strings (hostnames, (size_t) r->world_size);
  _tprof_h5_close (space);
  _tprof_h5_close (dset);
  _tprof_h5_close (ranks_group);
  return result;
}

/* The required integer root attribute @name, or -1 with the error set. */
static int
tprof_h5_read_required_int (TprofH5Reader *r,
                            const char    *name,
                            long long     *value)
{
  char problem[128];
  int found = _tprof_h5_read_int_attr (r->file, name, value, problem, sizeof problem);

  if (found < 0)
    return tprof_error_set (r->error, TPROF_ERROR_FORMAT, "%s: root attribute '%s' %s",
                            r->path, name, problem);
  if (found == 0)
    return tprof_error_set (r->error, TPROF_ERROR_FORMAT, "%s: root attribute '%s' is missing",
                            r->path, name);
  return 0;
}

static int
tprof_h5_read_root (TprofH5Reader *r)
{
  static const char *const optional[] = { "created", "producer", "clock" };
  char *info[3] = { NULL, NULL, NULL };
  char problem[128];
  char *format = NULL;
  long long version, world_size;
  int found;

  found = _tprof_h5_read_string_attr (r->file, "format", &format, problem, sizeof problem);
  if (found < 0)
    return tprof_error_set (r->error, TPROF_ERROR_FORMAT, "%s: root attribute 'format' %s",
                            r->path, problem);
  if (found == 0)
    return tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                            "%s: not a tprof profile (root attribute 'format' is missing)", r->path);
  if (strcmp (format, TPROF_H5_FORMAT) != 0)
    {
      tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                       "%s: not a tprof profile (root attribute 'format' is '%.64s', expected '%s')",
                       r->path, format, TPROF_H5_FORMAT);
      free (format);
      return -1;
    }
  free (format);

  if (tprof_h5_read_required_int (r, "format_version", &version) < 0)
    return -1;
  if (version > TPROF_H5_FORMAT_VERSION)
    return tprof_error_set (r->error, TPROF_ERROR_VERSION,
                            "%s: the file is newer than this reader (format_version %lld; "
                            "this reader understands up to %d): update tprof",
                            r->path, version, TPROF_H5_FORMAT_VERSION);
  if (version < 1)
    return tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                            "%s: root attribute 'format_version' is %lld, expected 1",
                            r->path, version);

  if (tprof_h5_read_required_int (r, "world_size", &world_size) < 0)
    return -1;
  if (world_size < 1 || world_size > INT_MAX)
    return tprof_error_set (r->error, TPROF_ERROR_FORMAT,
                            "%s: root attribute 'world_size' is %lld, expected an integer in [1, %d]",
                            r->path, world_size, INT_MAX);
  r->world_size = (int) world_size;
  r->pt = tprof_profiled_time_new (r->world_size);
  if (r->pt == NULL)
    return tprof_error_set (r->error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", r->path);

  for (size_t i = 0; i < 3; i++)
    if (_tprof_h5_read_string_attr (r->file, optional[i], &info[i], problem, sizeof problem) < 0)
      {
        tprof_error_set (r->error, TPROF_ERROR_FORMAT, "%s: root attribute '%s' %s",
                         r->path, optional[i], problem);
        for (size_t k = 0; k < i; k++)
          free (info[k]);
        return -1;
      }
  _tprof_profiled_time_take_info (r->pt, info[0], info[1], info[2]);
  return 0;
}

static uint64_t
tprof_h5_decode_le (const unsigned char *p,
                    unsigned             n_bytes)
{
  uint64_t value = 0;

  for (unsigned i = n_bytes; i > 0; i--)
    value = (value << 8) | p[i - 1];
  return value;
}

/* Reads exactly @size bytes at @offset; false on error or end of file. */
static bool
tprof_h5_pread_full (int       fd,
                     void     *buffer,
                     size_t    size,
                     uint64_t  offset)
{
  unsigned char *p = buffer;

  while (size > 0)
    {
      ssize_t got = pread (fd, p, size, (off_t) offset);

      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        return false;
      p += got;
      size -= (size_t) got;
      offset += (uint64_t) got;
    }
  return true;
}

/* The "size of lengths" of the file's superblock (found at 0, 512, 1024,
 * ...), or 8, HDF5's default, when it cannot be told. */
static unsigned
tprof_h5_size_of_lengths (int      fd,
                          uint64_t file_size)
{
  static const unsigned char signature[8] = { 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n' };
  unsigned char head[16];

  for (uint64_t at = 0; at + sizeof head <= file_size; at = at != 0 ? at * 2 : 512)
    if (tprof_h5_pread_full (fd, head, sizeof head, at) &&
        memcmp (head, signature, sizeof signature) == 0)
      {
        unsigned lengths = head[8] < 2 ? head[14] : head[10];

        return lengths == 2 || lengths == 4 || lengths == 8 ? lengths : 8;
      }
  return 8;
}

/* Walks one global heap collection (@size bytes at @p) the way HDF5 does,
 * checking every size stays inside it. Returns NULL, or what is wrong. */
static const char *
tprof_h5_check_collection (const unsigned char *p,
                           size_t               size,
                           unsigned             lengths)
{
  size_t object_header = 8 + lengths;  /* index, references, reserved, size */
  const unsigned char *q = p + 8 + lengths;
  const unsigned char *stop = p + size;

  while ((size_t) (stop - q) >= object_header)
    {
      unsigned index = q[0] | (unsigned) q[1] << 8;
      uint64_t object_size = tprof_h5_decode_le (q + 8, lengths);
      uint64_t need;

      if (object_size > size)
        return "an object is larger than the collection";
      /* the free-space object (index 0) counts its own header */
      need = index > 0 ? object_header + ((object_size + 7) & ~(uint64_t) 7) : object_size;
      if (need == 0 || need > (uint64_t) (stop - q))
        return "its objects overrun it";
      q += need;
    }
  return NULL;
}

/* Checks the collection whose signature is at @at; stores its size. */
static const char *
tprof_h5_check_collection_at (int       fd,
                              uint64_t  at,
                              uint64_t  file_size,
                              unsigned  lengths,
                              uint64_t *collection_size)
{
  unsigned char header[16];
  unsigned char *collection;
  const char *problem;
  uint64_t size;

  if (file_size - at < 8 + lengths || !tprof_h5_pread_full (fd, header, 8 + lengths, at))
    return "it is cut short";
  size = tprof_h5_decode_le (header + 8, lengths);
  if (size < 8 + lengths || size > file_size - at)
    return "its size runs past the end of the file";
  collection = malloc ((size_t) size);
  if (collection == NULL)
    return "it is too large for the memory available";
  if (!tprof_h5_pread_full (fd, collection, (size_t) size, at))
    problem = "it cannot be read";
  else
    problem = tprof_h5_check_collection (collection, (size_t) size, lengths);
  free (collection);
  *collection_size = size;
  return problem;
}

/* Byte ranges of the file holding sample data, which cannot hold a global
 * heap and need not be scanned for one. */
typedef struct
{
  uint64_t start;
  uint64_t end;
} TprofH5Range;

typedef struct
{
  TprofH5Range *ranges;
  size_t        n;
  size_t        capacity;
  uint64_t      base;       /* the user block's size: HDF5 addresses start there */
  uint64_t      file_size;
} TprofH5RawData;

static void
tprof_h5_raw_data_add (TprofH5RawData *raw,
                       hid_t           group,
                       const char     *dset_name)
{
  hid_t dset;
  haddr_t offset;
  hsize_t size;

  if (H5Lexists (group, dset_name, H5P_DEFAULT) <= 0 ||
      (dset = H5Dopen2 (group, dset_name, H5P_DEFAULT)) < 0)
    return;
  offset = H5Dget_offset (dset);
  size = H5Dget_storage_size (dset);
  _tprof_h5_close (dset);
  /* only plausible ranges: a wrong one would hide a heap from the scan */
  if (offset == HADDR_UNDEF || size == 0 || offset > raw->file_size ||
      size > raw->file_size - offset || raw->base > raw->file_size - offset - size)
    return;
  if (raw->n == raw->capacity)
    {
      size_t capacity = raw->capacity != 0 ? raw->capacity * 2 : 64;
      TprofH5Range *ranges = capacity <= SIZE_MAX / sizeof *ranges
        ? realloc (raw->ranges, capacity * sizeof *ranges) : NULL;

      if (ranges == NULL)
        return;
      raw->ranges = ranges;
      raw->capacity = capacity;
    }
  raw->ranges[raw->n++] = (TprofH5Range) { raw->base + offset, raw->base + offset + size };
}

static herr_t
tprof_h5_raw_data_visit (hid_t             timings,
                         const char       *name,
                         const H5L_info_t *info,
                         void             *user_data)
{
  hid_t group;

  if (info->type != H5L_TYPE_HARD || (group = H5Gopen2 (timings, name, H5P_DEFAULT)) < 0)
    return 0;
  tprof_h5_raw_data_add (user_data, group, "times");
  tprof_h5_raw_data_add (user_data, group, "ranks");
  _tprof_h5_close (group);
  return 0;
}

static int
tprof_h5_range_compare (const void *a,
                        const void *b)
{
  const TprofH5Range *x = a;
  const TprofH5Range *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

/* Best effort: whatever cannot be listed is simply scanned. Opening every
 * dataset costs about as much as scanning 100 kB, so this only runs when
 * the operations hold more than that each on average. */
static void
tprof_h5_raw_data_find (TprofH5RawData *raw,
                        hid_t           file)
{
  hid_t fcpl = H5Fget_create_plist (file);
  hsize_t userblock = 0;
  H5G_info_t info;
  hid_t timings;

  if (fcpl >= 0 && H5Pget_userblock (fcpl, &userblock) >= 0)
    raw->base = userblock;
  _tprof_h5_close (fcpl);
  if (H5Lexists (file, "timings", H5P_DEFAULT) <= 0 ||
      (timings = H5Gopen2 (file, "timings", H5P_DEFAULT)) < 0)
    return;
  if (H5Gget_info (timings, &info) >= 0 && raw->file_size / 100000 > info.nlinks)
    H5Literate (timings, H5_INDEX_NAME, H5_ITER_INC, NULL, tprof_h5_raw_data_visit, raw);
  _tprof_h5_close (timings);
  if (raw->n > 1)
    qsort (raw->ranges, raw->n, sizeof *raw->ranges, tprof_h5_range_compare);
}

/* HDF5 1.10 trusts the sizes inside the global heap collections that hold
 * variable-length strings: damaged ones make it loop forever or copy out of
 * bounds. Every collection is checked before HDF5 reads any. The sample
 * data, the bulk of a large file, is skipped. */
static int
tprof_h5_check_global_heaps (const char *path,
                             hid_t       file,
                             TprofError *error)
{
  static const unsigned char signature[8] = { 'G', 'C', 'O', 'L', 1, 0, 0, 0 };
  enum { BLOCK = 1 << 20, OVERLAP = sizeof signature - 1 };
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  unsigned char *block = malloc (BLOCK);
  TprofH5RawData raw = { NULL, 0, 0, 0, 0 };
  struct stat st;
  uint64_t offset = 0;
  size_t next_range = 0;
  unsigned lengths;
  int result = 0;

  if (fd < 0 || block == NULL || fstat (fd, &st) < 0)
    {
      result = tprof_error_set (error, TPROF_ERROR_IO, "%s: %s", path,
                                strerror (block == NULL ? ENOMEM : errno));
      goto out;
    }
  raw.file_size = (uint64_t) st.st_size;
  lengths = tprof_h5_size_of_lengths (fd, raw.file_size);
  tprof_h5_raw_data_find (&raw, file);

  while (offset + sizeof signature <= raw.file_size)
    {
      uint64_t limit, at, collection_size = 0;
      size_t want;
      const unsigned char *hit;
      const char *problem;

      while (next_range < raw.n && raw.ranges[next_range].end <= offset)
        next_range++;
      if (next_range < raw.n && raw.ranges[next_range].start <= offset)
        {
          offset = raw.ranges[next_range].end;
          continue;
        }
      /* a signature must start before the next sample data */
      limit = next_range < raw.n ? raw.ranges[next_range].start : raw.file_size;
      want = BLOCK;
      if (limit - offset + OVERLAP < want)
        want = (size_t) (limit - offset + OVERLAP);
      if (raw.file_size - offset < want)
        want = (size_t) (raw.file_size - offset);

      if (!tprof_h5_pread_full (fd, block, want, offset))
        {
          result = tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot read: %s", path,
                                    errno != 0 ? strerror (errno) : "unexpected end of file");
          break;
        }
      hit = want >= sizeof signature ? memmem (block, want, signature, sizeof signature) : NULL;
      if (hit == NULL || offset + (uint64_t) (hit - block) >= limit)
        {
          if (offset + want >= raw.file_size)
            break;
          offset = offset + want >= limit + OVERLAP ? limit : offset + want - OVERLAP;
          continue;
        }
      at = offset + (uint64_t) (hit - block);
      problem = tprof_h5_check_collection_at (fd, at, raw.file_size, lengths, &collection_size);
      if (problem != NULL)
        {
          result = tprof_error_set (error, TPROF_ERROR_FORMAT,
                                    "%s: damaged HDF5 global heap at byte %llu: %s",
                                    path, (unsigned long long) at, problem);
          break;
        }
      /* strings inside may spell the signature too */
      offset = at + collection_size;
    }

out:
  if (fd >= 0)
    close (fd);
  free (block);
  free (raw.ranges);
  return result;
}

static TprofProfiledTime *
tprof_h5_read_file (const char *path,
                    TprofError *error)
{
  TprofH5Reader r = { path, error, -1, NULL, 0 };
  htri_t is_hdf5 = H5Fis_hdf5 (path);

  if (is_hdf5 <= 0)
    {
      if (is_hdf5 == 0)
        tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: not an HDF5 file", path);
      else
        _tprof_h5_error (error, TPROF_ERROR_FORMAT, path, "not a readable HDF5 file");
      return NULL;
    }
  r.file = H5Fopen (path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (r.file < 0)
    {
      _tprof_h5_error (error, TPROF_ERROR_FORMAT, path, "cannot open as HDF5");
      return NULL;
    }

  /* after H5Fopen, whose check of a truncated file says it best */
  if (tprof_h5_check_global_heaps (path, r.file, error) < 0 ||
      tprof_h5_read_root (&r) < 0 ||
      tprof_h5_read_timings (&r) < 0 ||
      tprof_h5_read_hostnames (&r) < 0)
    {
      tprof_profiled_time_free (r.pt);
      r.pt = NULL;
    }
  _tprof_h5_close (r.file);
  return r.pt;
}

/* Plain-POSIX checks first: their errno says more than HDF5 would. */
static int
tprof_h5_check_readable (const char *path,
                         TprofError *error)
{
  struct stat st;
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: %s", path, strerror (errno));
  if (fstat (fd, &st) < 0)
    {
      int saved_errno = errno;

      close (fd);
      return tprof_error_set (error, TPROF_ERROR_IO, "%s: %s", path, strerror (saved_errno));
    }
  close (fd);
  if (S_ISDIR (st.st_mode))
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: is a directory, not a profile", path);
  /* HDF5 needs to seek; a pipe or a device could also block forever */
  if (!S_ISREG (st.st_mode))
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: is not a regular file", path);
  if (st.st_size == 0)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: the file is empty", path);
  return 0;
}

TprofProfiledTime *
tprof_profiled_time_load (const char *path,
                          TprofError *error)
{
  TprofH5Guard guard;
  TprofProfiledTime *pt;

  tprof_error_clear (error);
  if (path == NULL || path[0] == '\0')
    {
      tprof_error_set (error, TPROF_ERROR_INVALID, "tprof_profiled_time_load: the path is empty");
      return NULL;
    }
  if (tprof_h5_check_readable (path, error) < 0)
    return NULL;

  _tprof_h5_enter (&guard);
  pt = tprof_h5_read_file (path, error);
  _tprof_h5_leave (&guard);
  return pt;
}
