/* tprof-h5-write.c — tprof_profiled_time_save(): a profile to HDF5 (DESIGN.md section 2) through a temporary file. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "tprof/tprof-clock.h"
#include "tprof/tprof-profiled-time.h"
#include "tprof-h5-private.h"

/* The file is built in memory by HDF5's core driver and written out by us:
 * in HDF5 1.10 a close that fails on a full disk leaves a half-destroyed
 * file id that crashes the process at exit, so HDF5 must never do the I/O.
 * These callbacks let the image outlive the close without a copy. */
typedef struct
{
  void   *buffer;
  size_t  size;   /* of the mapping */
  bool    kept;
} TprofH5Image;

static void
tprof_h5_image_release (TprofH5Image *image)
{
  if (image->buffer != NULL)
    munmap (image->buffer, image->size);
  image->buffer = NULL;
  image->size = 0;
  image->kept = false;
}

typedef struct
{
  const char *path;      /* what the user asked for: used in messages */
  hid_t       file;
  hid_t       str_type;  /* variable-length UTF-8 */
  hid_t       lcpl;      /* UTF-8 link names */
  hid_t       scalar;
} TprofH5Writer;

static int
tprof_h5_write_string_attr (TprofH5Writer *w,
                            hid_t          obj,
                            const char    *attr_name,
                            const char    *value)
{
  hid_t attr = H5Acreate2 (obj, attr_name, w->str_type, w->scalar, H5P_DEFAULT, H5P_DEFAULT);
  herr_t status = attr >= 0 ? H5Awrite (attr, w->str_type, &value) : -1;

  _tprof_h5_close (attr);
  return status < 0 ? -1 : 0;
}

static int
tprof_h5_write_int_attr (TprofH5Writer *w,
                         hid_t          obj,
                         const char    *attr_name,
                         long long      value)
{
  hid_t attr = H5Acreate2 (obj, attr_name, H5T_STD_I64LE, w->scalar, H5P_DEFAULT, H5P_DEFAULT);
  herr_t status = attr >= 0 ? H5Awrite (attr, H5T_NATIVE_LLONG, &value) : -1;

  _tprof_h5_close (attr);
  return status < 0 ? -1 : 0;
}

/* One 1-D contiguous dataset, written with a single H5Dwrite. */
static int
tprof_h5_write_array (hid_t       group,
                      const char *dset_name,
                      hid_t       file_type,
                      hid_t       mem_type,
                      const void *data,
                      size_t      n)
{
  hsize_t dims[1] = { n };
  hid_t space = H5Screate_simple (1, dims, NULL);
  hid_t dset = -1;
  herr_t status = -1;

  if (space >= 0)
    dset = H5Dcreate2 (group, dset_name, file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (dset >= 0)
    status = n == 0 ? 0 : H5Dwrite (dset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
  _tprof_h5_close (dset);
  _tprof_h5_close (space);
  return status < 0 ? -1 : 0;
}

typedef struct
{
  int32_t rank;
  size_t  index;
} TprofRankedIndex;

static int
tprof_ranked_index_compare (const void *a,
                            const void *b)
{
  const TprofRankedIndex *x = a;
  const TprofRankedIndex *y = b;

  /* ties broken by position: a stable order */
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* Fills @out_times/@out_ranks with the samples grouped by ascending rank,
 * each rank's samples in their original order. */
static bool
tprof_h5_group_by_rank (const double  *times,
                        const int32_t *ranks,
                        size_t         n,
                        int            world_size,
                        double        *out_times,
                        int32_t       *out_ranks)
{
  if ((size_t) world_size <= n + 1024)
    {
      /* counting sort: O(n + world_size) */
      size_t *next = calloc ((size_t) world_size + 1, sizeof *next);

      if (next == NULL)
        return false;
      for (size_t i = 0; i < n; i++)
        next[ranks[i] + 1]++;
      for (int r = 0; r < world_size; r++)
        next[r + 1] += next[r];
      for (size_t i = 0; i < n; i++)
        {
          size_t at = next[ranks[i]]++;

          out_times[at] = times[i];
          out_ranks[at] = ranks[i];
        }
      free (next);
    }
  else
    {
      /* few samples over a huge world: sort the samples, not the ranks */
      TprofRankedIndex *sorted = n <= SIZE_MAX / sizeof *sorted ? malloc (n * sizeof *sorted) : NULL;

      if (sorted == NULL)
        return false;
      for (size_t i = 0; i < n; i++)
        sorted[i] = (TprofRankedIndex) { ranks[i], i };
      qsort (sorted, n, sizeof *sorted, tprof_ranked_index_compare);
      for (size_t i = 0; i < n; i++)
        {
          out_times[i] = times[sorted[i].index];
          out_ranks[i] = sorted[i].rank;
        }
      free (sorted);
    }
  return true;
}

typedef enum
{
  TPROF_H5_GROUPED,
  TPROF_H5_INTERLEAVED,
  TPROF_H5_OUT_OF_RANGE,
} TprofH5RankOrder;

/* The profile checked its ranks when they were added; checked again here
 * because the counting sort indexes by rank. */
static TprofH5RankOrder
tprof_h5_rank_order (const int32_t *ranks,
                     size_t         n,
                     int            world_size)
{
  TprofH5RankOrder order = TPROF_H5_GROUPED;

  for (size_t i = 0; i < n; i++)
    {
      if (ranks[i] < 0 || ranks[i] >= world_size)
        return TPROF_H5_OUT_OF_RANGE;
      if (i > 0 && ranks[i] < ranks[i - 1])
        order = TPROF_H5_INTERLEAVED;
    }
  return order;
}

static int
tprof_h5_write_operation (TprofH5Writer           *w,
                          const TprofProfiledTime *pt,
                          hid_t                    timings,
                          size_t                   op,
                          TprofError              *error)
{
  const char *name = tprof_profiled_time_name (pt, op);
  const TprofGatheredTime *gt = tprof_profiled_time_nth (pt, op);
  const double *times = tprof_gathered_time_times (gt);
  const int32_t *ranks = tprof_gathered_time_ranks (gt);
  size_t n = tprof_gathered_time_count (gt);
  double *sorted_times = NULL;
  int32_t *sorted_ranks = NULL;
  char *link_name = _tprof_h5_escape_name (name);
  TprofH5RankOrder order;
  hid_t group = -1;
  int result = -1;

  if (link_name == NULL)
    goto no_memory;

  order = tprof_h5_rank_order (ranks, n, tprof_profiled_time_world_size (pt));
  if (order == TPROF_H5_OUT_OF_RANGE)
    {
      tprof_error_set (error, TPROF_ERROR_INVALID, "%s: operation '%s' has a rank outside [0, %d)",
                       w->path, name, tprof_profiled_time_world_size (pt));
      goto out;
    }
  /* Gathered profiles come grouped already: write them without a copy. */
  if (order == TPROF_H5_INTERLEAVED)
    {
      /* n fits: the selection already holds n doubles */
      sorted_times = malloc (n * sizeof *sorted_times);
      sorted_ranks = malloc (n * sizeof *sorted_ranks);
      if (sorted_times == NULL || sorted_ranks == NULL ||
          !tprof_h5_group_by_rank (times, ranks, n, tprof_profiled_time_world_size (pt),
                                   sorted_times, sorted_ranks))
        goto no_memory;
      times = sorted_times;
      ranks = sorted_ranks;
    }

  group = H5Gcreate2 (timings, link_name, w->lcpl, H5P_DEFAULT, H5P_DEFAULT);
  if (group < 0 ||
      tprof_h5_write_string_attr (w, group, "name", name) < 0 ||
      tprof_h5_write_array (group, "times", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, times, n) < 0 ||
      tprof_h5_write_array (group, "ranks", H5T_STD_I32LE, H5T_NATIVE_INT32, ranks, n) < 0)
    {
      _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot write operation '%s'", name);
      goto out;
    }
  result = 0;
  goto out;

no_memory:
  tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory writing operation '%s'",
                   w->path, name);

out:
  _tprof_h5_close (group);
  free (link_name);
  free (sorted_times);
  free (sorted_ranks);
  return result;
}

static int
tprof_h5_write_hostnames (TprofH5Writer           *w,
                          const TprofProfiledTime *pt,
                          TprofError              *error)
{
  int world_size = tprof_profiled_time_world_size (pt);
  const char **hostnames;
  hsize_t dims[1] = { (hsize_t) world_size };
  hid_t group = -1, space = -1, dset = -1;
  int result = -1;

  if (tprof_profiled_time_hostname (pt, 0) == NULL)
    return 0;
  hostnames = calloc ((unsigned) world_size, sizeof *hostnames);
  if (hostnames == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY,
                            "%s: out of memory writing host names", w->path);
  for (int r = 0; r < world_size; r++)
    hostnames[r] = tprof_profiled_time_hostname (pt, r);

  group = H5Gcreate2 (w->file, "ranks", w->lcpl, H5P_DEFAULT, H5P_DEFAULT);
  if (group >= 0)
    space = H5Screate_simple (1, dims, NULL);
  if (space >= 0)
    dset = H5Dcreate2 (group, "hostname", w->str_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (dset >= 0 && H5Dwrite (dset, w->str_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, hostnames) >= 0)
    result = 0;
  else
    _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot write /ranks/hostname");

  _tprof_h5_close (dset);
  _tprof_h5_close (space);
  _tprof_h5_close (group);
  free (hostnames);
  return result;
}

static int
tprof_h5_write_root (TprofH5Writer           *w,
                     const TprofProfiledTime *pt,
                     TprofError              *error)
{
  char created[32] = "";
  time_t now = time (NULL);
  struct tm utc;

  if (gmtime_r (&now, &utc) != NULL)
    strftime (created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &utc);

  if (tprof_h5_write_string_attr (w, w->file, "format", TPROF_H5_FORMAT) < 0 ||
      tprof_h5_write_int_attr (w, w->file, "format_version", TPROF_H5_FORMAT_VERSION) < 0 ||
      tprof_h5_write_int_attr (w, w->file, "world_size", tprof_profiled_time_world_size (pt)) < 0 ||
      (created[0] != '\0' && tprof_h5_write_string_attr (w, w->file, "created", created) < 0) ||
      tprof_h5_write_string_attr (w, w->file, "producer", TPROF_PRODUCER) < 0 ||
      tprof_h5_write_string_attr (w, w->file, "clock", TPROF_CLOCK_NAME) < 0)
    return _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot write the root attributes");
  return 0;
}

static int
tprof_h5_write_timings (TprofH5Writer           *w,
                        const TprofProfiledTime *pt,
                        TprofError              *error)
{
  hid_t gcpl = H5Pcreate (H5P_GROUP_CREATE);
  hid_t timings = -1;
  int result = 0;

  if (gcpl >= 0 &&
      H5Pset_link_creation_order (gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) >= 0)
    timings = H5Gcreate2 (w->file, "timings", w->lcpl, gcpl, H5P_DEFAULT);
  if (timings < 0)
    result = _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot create /timings");

  for (size_t op = 0; result == 0 && op < tprof_profiled_time_len (pt); op++)
    result = tprof_h5_write_operation (w, pt, timings, op, error);

  _tprof_h5_close (timings);
  _tprof_h5_close (gcpl);
  return result;
}

/* The image lives in an anonymous mapping populated up front: faulting in
 * a large fresh heap buffer page by page would cost more than the copy. */
static void *
tprof_h5_image_map (size_t size)
{
  void *map = mmap (NULL, size, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

  return map != MAP_FAILED ? map : NULL;
}

static void *
tprof_h5_image_malloc (size_t size, H5FD_file_image_op_t op, void *udata)
{
  TprofH5Image *image = udata;
  void *map = tprof_h5_image_map (size);

  if (map != NULL)
    {
      image->buffer = map;
      image->size = size;
    }
  return map;
}

static void *
tprof_h5_image_memcpy (void *dest, const void *src, size_t size, H5FD_file_image_op_t op, void *udata)
{
  return memcpy (dest, src, size);
}

static void *
tprof_h5_image_realloc (void *ptr, size_t size, H5FD_file_image_op_t op, void *udata)
{
  TprofH5Image *image = udata;
  void *map;

  if (ptr == NULL)
    return tprof_h5_image_malloc (size, op, udata);
  if (ptr != image->buffer)
    return NULL;
  map = mremap (ptr, image->size, size, MREMAP_MAYMOVE);
  if (map == MAP_FAILED)
    return NULL;
  image->buffer = map;
  image->size = size;
  return map;
}

static herr_t
tprof_h5_image_free (void *ptr, H5FD_file_image_op_t op, void *udata)
{
  TprofH5Image *image = udata;

  if (ptr == NULL || ptr != image->buffer)
    return ptr == NULL ? 0 : -1;
  if (op == H5FD_FILE_IMAGE_OP_FILE_CLOSE)
    image->kept = true;
  else
    tprof_h5_image_release (image);
  return 0;
}

static void *
tprof_h5_image_udata_copy (void *udata)
{
  return udata;
}

static herr_t
tprof_h5_image_udata_free (void *udata)
{
  return 0;
}

/* Roughly the file's size, so the in-memory image rarely grows; it grows
 * by this much too, hence the cap (growing is a cheap mremap). */
static size_t
tprof_h5_estimate_size (const TprofProfiledTime *pt)
{
  const size_t cap = (size_t) 256 << 20;
  size_t size = (size_t) 1 << 20;

  for (size_t op = 0; op < tprof_profiled_time_len (pt) && size < cap; op++)
    {
      size_t n = tprof_gathered_time_count (tprof_profiled_time_nth (pt, op));

      /* HDF5 needs about 2 kB for a group, its attribute and two datasets */
      size += n < cap ? n * (sizeof (double) + sizeof (int32_t)) + 2048 : cap;
    }
  size += size / 16;
  return size < cap ? size : cap;
}

static hid_t
tprof_h5_image_fapl (const TprofProfiledTime *pt,
                     TprofH5Image            *image)
{
  H5FD_file_image_callbacks_t callbacks = {
    tprof_h5_image_malloc, tprof_h5_image_memcpy, tprof_h5_image_realloc,
    tprof_h5_image_free, tprof_h5_image_udata_copy, tprof_h5_image_udata_free,
    image,
  };
  hid_t fapl = H5Pcreate (H5P_FILE_ACCESS);

  if (fapl < 0 ||
      H5Pset_fapl_core (fapl, tprof_h5_estimate_size (pt), 0) < 0 ||
      H5Pset_file_image_callbacks (fapl, &callbacks) < 0)
    {
      _tprof_h5_close (fapl);
      return -1;
    }
  return fapl;
}

/* Builds the whole profile as an HDF5 image in memory: on success stores
 * the image in *@image_out (the caller releases it) and its size. The
 * in-memory file is named after the unique @tmp_path, so it cannot clash
 * with a file HDF5 already has open at @path. */
static int
tprof_h5_build_image (const TprofProfiledTime *pt,
                      const char              *tmp_path,
                      const char              *path,
                      TprofH5Image            *image_out,
                      size_t                  *image_size,
                      TprofError              *error)
{
  TprofH5Writer w = { path, -1, -1, -1, -1 };
  TprofH5Image image = { NULL, 0, false };
  hid_t fapl = -1;
  ssize_t size = -1;
  int result = -1;

  w.str_type = _tprof_h5_vlen_utf8_type ();
  w.scalar = H5Screate (H5S_SCALAR);
  w.lcpl = H5Pcreate (H5P_LINK_CREATE);
  fapl = tprof_h5_image_fapl (pt, &image);
  if (w.str_type < 0 || w.scalar < 0 || w.lcpl < 0 || fapl < 0 ||
      H5Pset_char_encoding (w.lcpl, H5T_CSET_UTF8) < 0)
    {
      _tprof_h5_error (error, TPROF_ERROR_NO_MEMORY, path, "cannot set up HDF5");
      goto out;
    }
  w.file = H5Fcreate (tmp_path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  if (w.file < 0)
    {
      _tprof_h5_error (error, TPROF_ERROR_NO_MEMORY, path, "cannot create the HDF5 image in memory");
      goto out;
    }
  if (tprof_h5_write_root (&w, pt, error) < 0 ||
      tprof_h5_write_timings (&w, pt, error) < 0 ||
      tprof_h5_write_hostnames (&w, pt, error) < 0)
    goto out;
  if (H5Fflush (w.file, H5F_SCOPE_GLOBAL) < 0 || (size = H5Fget_file_image (w.file, NULL, 0)) <= 0)
    {
      _tprof_h5_error (error, TPROF_ERROR_NO_MEMORY, path, "cannot finish the HDF5 image");
      goto out;
    }
  *image_size = (size_t) size;
  result = 0;

out:
  /* in memory, a close has nothing to fail on */
  _tprof_h5_close (w.file);
  _tprof_h5_close (fapl);
  _tprof_h5_close (w.lcpl);
  _tprof_h5_close (w.scalar);
  _tprof_h5_close (w.str_type);
  if (result == 0 && (!image.kept || *image_size > image.size))
    result = tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: the HDF5 image was lost", path);
  if (result == 0)
    *image_out = image;
  else
    tprof_h5_image_release (&image);
  return result;
}

/* Creates a new empty file "<dir>/.<base>.XXXXXX" beside @path, like
 * mkstemp() but with the permissions the umask gives ordinary files. Returns
 * its malloc'd name and its descriptor in *@fd, or NULL with @error set. */
static char *
tprof_h5_create_temp (const char *path,
                      int        *fd,
                      TprofError *error)
{
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  static unsigned counter;
  const char *slash = strrchr (path, '/');
  const char *base = slash != NULL ? slash + 1 : path;
  size_t dir_len = (size_t) (base - path);
  size_t len = strlen (path) + sizeof "/..XXXXXX";
  char *tmp;
  int saved_errno = EEXIST;

  if (base[0] == '\0')
    {
      tprof_error_set (error, TPROF_ERROR_INVALID, "%s: the path names a directory, not a file", path);
      return NULL;
    }
  tmp = malloc (len);
  if (tmp == NULL)
    {
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", path);
      return NULL;
    }

  for (int attempt = 0; attempt < 100 && saved_errno == EEXIST; attempt++)
    {
      uint64_t seed = (uint64_t) tprof_clock_now_ns () ^ ((uint64_t) getpid () << 32)
                      ^ ((uint64_t) __atomic_add_fetch (&counter, 1, __ATOMIC_RELAXED) * 2654435761u);
      char suffix[7];

      for (int k = 0; k < 6; k++, seed /= sizeof alphabet - 1)
        suffix[k] = alphabet[seed % (sizeof alphabet - 1)];
      suffix[6] = '\0';
      snprintf (tmp, len, "%.*s.%s.%s", (int) dir_len, path, base, suffix);
      *fd = open (tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (*fd >= 0)
        return tmp;
      saved_errno = errno;
    }

  tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot create a temporary file beside it: %s",
                   path, strerror (saved_errno));
  free (tmp);
  return NULL;
}

/* Writes all of @data to @fd and makes it durable; 0, or -1 with errno. */
static int
tprof_h5_write_all (int         fd,
                    const char *data,
                    size_t      size)
{
  while (size > 0)
    {
      ssize_t written = write (fd, data, size);

      if (written < 0 && errno == EINTR)
        continue;
      if (written <= 0)
        {
          if (written == 0)
            errno = EIO;
          return -1;
        }
      data += written;
      size -= (size_t) written;
    }
  return fsync (fd);
}

int
tprof_profiled_time_save (const TprofProfiledTime *pt,
                          const char              *path,
                          TprofError              *error)
{
  TprofH5Guard guard;
  TprofH5Image image = { NULL, 0, false };
  size_t image_size = 0;
  char *tmp;
  int fd = -1;
  int result;

  tprof_error_clear (error);
  if (pt == NULL || path == NULL || path[0] == '\0')
    return tprof_error_set (error, TPROF_ERROR_INVALID, "tprof_profiled_time_save: %s",
                            pt == NULL ? "the profile is NULL" : "the path is empty");

  /* the temporary file first: an unwritable place fails before any work */
  tmp = tprof_h5_create_temp (path, &fd, error);
  if (tmp == NULL)
    return -1;

  _tprof_h5_enter (&guard);
  result = tprof_h5_build_image (pt, tmp, path, &image, &image_size, error);
  _tprof_h5_leave (&guard);

  if (result == 0 && tprof_h5_write_all (fd, image.buffer, image_size) < 0)
    result = tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot write %s: %s",
                              path, tmp, strerror (errno));
  tprof_h5_image_release (&image);
  if (close (fd) < 0 && result == 0)
    result = tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot write %s: %s",
                              path, tmp, strerror (errno));
  if (result == 0 && rename (tmp, path) < 0)
    result = tprof_error_set (error, TPROF_ERROR_IO, "%s: cannot replace it with %s: %s",
                              path, tmp, strerror (errno));
  if (result < 0)
    unlink (tmp);
  free (tmp);
  return result;
}
