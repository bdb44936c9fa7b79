/* tprof-profile-writer.c — TprofProfileWriter: HDF5 writes a profile's metadata into the reserved temporary file. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tprof/tprof-clock.h"
#include "tprof/tprof-profiled-time.h"
#include "tprof-h5-writer-private.h"
#include "tprof-profiled-time-internal.h"

/* What one more operation, or the host names, may make HDF5 allocate on
 * top of raw data: object headers, B-tree nodes, a global heap collection. */
#define TPROF_H5_METADATA_BOUND ((uint64_t) 256 << 10)

/* created, producer and clock: those a profile loaded from a file was
 * read with (a copy says when, by what and with which clock its samples
 * were taken), else this save's. */
static int
tprof_profile_writer_root_attrs (TprofProfileWriter      *w,
                                 hid_t                    file,
                                 const TprofProfiledTime *pt)
{
  char now_text[32] = "";
  time_t now = time (NULL);
  struct tm utc;
  const char *created = tprof_profiled_time_created (pt);
  const char *producer = tprof_profiled_time_producer (pt);
  const char *clock = tprof_profiled_time_clock (pt);

  if (created == NULL && gmtime_r (&now, &utc) != NULL)
    strftime (now_text, sizeof now_text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  if (created == NULL)
    created = now_text;
  if (_tprof_profile_writer_string_attr (w, file, "format", TPROF_H5_FORMAT) < 0 ||
      _tprof_profile_writer_int_attr (w, file, "format_version", TPROF_H5_FORMAT_VERSION) < 0 ||
      _tprof_profile_writer_int_attr (w, file, "world_size", tprof_profiled_time_world_size (pt)) < 0 ||
      (created[0] != '\0' && _tprof_profile_writer_string_attr (w, file, "created", created) < 0) ||
      _tprof_profile_writer_string_attr (w, file, "producer", producer != NULL ? producer : TPROF_PRODUCER) < 0 ||
      _tprof_profile_writer_string_attr (w, file, "clock", clock != NULL ? clock : TPROF_CLOCK_NAME) < 0)
    return -1;
  return 0;
}

/* The groups of format 3's columns (docs/file-format.md). */
static int
tprof_profile_writer_create_groups (TprofProfileWriter *w,
                                    hid_t               file)
{
  for (int g = 0; g < TPROF_N_COLUMN_GROUPS; g++)
    {
      hid_t group = H5Gcreate2 (file, _tprof_column_groups[g], w->lcpl, H5P_DEFAULT, H5P_DEFAULT);

      _tprof_h5_close (group);
      if (group < 0)
        return -1;
    }
  return 0;
}

/* The types and property lists every object shares: made once. */
static int
tprof_profile_writer_init_lists (TprofProfileWriter *w)
{
  w->str_type = _tprof_h5_vlen_utf8_type ();
  w->scalar = H5Screate (H5S_SCALAR);
  w->lcpl = H5Pcreate (H5P_LINK_CREATE);
  w->dcpl_contiguous = H5Pcreate (H5P_DATASET_CREATE);
  w->dcpl_compact = H5Pcreate (H5P_DATASET_CREATE);
  if (w->str_type < 0 || w->scalar < 0 || w->lcpl < 0 || w->dcpl_contiguous < 0 || w->dcpl_compact < 0 ||
      H5Pset_char_encoding (w->lcpl, H5T_CSET_UTF8) < 0 ||
      H5Pset_layout (w->dcpl_contiguous, H5D_CONTIGUOUS) < 0 ||
      H5Pset_alloc_time (w->dcpl_contiguous, H5D_ALLOC_TIME_EARLY) < 0 ||
      H5Pset_fill_time (w->dcpl_contiguous, H5D_FILL_TIME_NEVER) < 0 ||
      H5Pset_layout (w->dcpl_compact, H5D_COMPACT) < 0 ||
      H5Pset_fill_time (w->dcpl_compact, H5D_FILL_TIME_NEVER) < 0)
    return -1;
  return 0;
}

static void
tprof_profile_writer_clear_lists (TprofProfileWriter *w)
{
  _tprof_h5_close (w->dcpl_compact);
  _tprof_h5_close (w->dcpl_contiguous);
  _tprof_h5_close (w->lcpl);
  _tprof_h5_close (w->scalar);
  _tprof_h5_close (w->str_type);
  w->dcpl_compact = w->dcpl_contiguous = w->lcpl = w->scalar = w->str_type = -1;
}

static void
tprof_profile_writer_init (TprofProfileWriter *w,
                           const char         *path,
                           TprofSaveFile      *out,
                           int                 world_size)
{
  *w = (TprofProfileWriter) { path, out, world_size, -1, { -1, -1, -1 }, -1, -1, -1, -1, -1, 64 << 10 };
}

int
_tprof_profile_writer_skeleton (const TprofProfiledTime *pt,
                                const char              *path,
                                const char              *tmp_path,
                                void                   **image,
                                size_t                  *size,
                                TprofError              *error)
{
  TprofProfileWriter w;
  hid_t fapl = H5Pcreate (H5P_FILE_ACCESS);
  hid_t file = -1;
  ssize_t got = -1;

  tprof_profile_writer_init (&w, path, NULL, tprof_profiled_time_world_size (pt));
  *image = NULL;
  /* in memory (no backing store), named after the unique temporary path
   * so that it cannot clash with a file HDF5 has open at @path */
  if (fapl >= 0 && H5Pset_fapl_core (fapl, 64 << 10, 0) >= 0 && tprof_profile_writer_init_lists (&w) == 0)
    file = H5Fcreate (tmp_path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  if (file >= 0 && tprof_profile_writer_root_attrs (&w, file, pt) == 0 &&
      tprof_profile_writer_create_groups (&w, file) == 0 && H5Fflush (file, H5F_SCOPE_GLOBAL) >= 0)
    got = H5Fget_file_image (file, NULL, 0);
  if (got > 0 && (*image = malloc ((size_t) got)) != NULL &&
      H5Fget_file_image (file, *image, (size_t) got) != got)
    got = -1;
  if (got <= 0 || *image == NULL)
    _tprof_h5_error (error, TPROF_ERROR_NO_MEMORY, path, "cannot build the file's root in memory");
  /* in memory, a close has nothing to fail on */
  _tprof_h5_close (file);
  _tprof_h5_close (fapl);
  tprof_profile_writer_clear_lists (&w);
  if (got > 0 && *image != NULL)
    {
      *size = (size_t) got;
      return 0;
    }
  free (*image);
  *image = NULL;
  return -1;
}

int
_tprof_profile_writer_open (TprofProfileWriter *w,
                            const char         *path,
                            TprofSaveFile      *out,
                            int                 world_size,
                            TprofError         *error)
{
  hid_t fapl = H5Pcreate (H5P_FILE_ACCESS);
  const char *name = NULL;

  tprof_profile_writer_init (w, path, out, world_size);
  /* the temporary file is ours alone: no lock, which some file systems
   * (Lustre, NFS) refuse */
  if (fapl >= 0 && _tprof_save_file_set_driver (out, fapl, &name) == 0 && H5Pset_file_locking (fapl, 0, 1) >= 0 &&
      tprof_profile_writer_init_lists (w) == 0)
    w->file = H5Fopen (name, H5F_ACC_RDWR, fapl);
  for (int g = 0; w->file >= 0 && g < TPROF_N_COLUMN_GROUPS; g++)
    w->groups[g] = H5Gopen2 (w->file, _tprof_column_groups[g], H5P_DEFAULT);
  _tprof_h5_close (fapl);
  if (w->file < 0 || w->groups[0] < 0 || w->groups[1] < 0 || w->groups[2] < 0)
    {
      _tprof_h5_error (error, TPROF_ERROR_IO, path, "cannot open its temporary file with HDF5");
      _tprof_profile_writer_close (w, NULL, error);
      return -1;
    }
  return 0;
}

int
_tprof_profile_writer_reserve (TprofProfileWriter *w,
                               uint64_t            upcoming,
                               TprofError         *error)
{
  haddr_t eoa = 0;
  uint64_t need;

  if (H5Fget_eoa (w->file, &eoa) < 0)
    return _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot query the end of the file");
  if (__builtin_add_overflow ((uint64_t) eoa, upcoming + TPROF_H5_METADATA_BOUND + w->deferred_bound, &need) ||
      need > (uint64_t) INT64_MAX)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: the file would be too large", w->path);
  return _tprof_save_file_reserve (w->out, (off_t) need, error);
}

/* Host names are variable-length strings in a global heap: HDF5 writes
 * them (inside the reservation, grown for them first). */
static int
tprof_profile_writer_hostnames (TprofProfileWriter      *w,
                                const TprofProfiledTime *pt,
                                hid_t                    group,
                                TprofError              *error)
{
  hsize_t dims[1] = { (hsize_t) w->world_size };
  const char **hostnames;
  uint64_t bytes = 0;
  hid_t space = -1, dset = -1;
  int result = -1;

  hostnames = calloc ((size_t) w->world_size, sizeof *hostnames);
  if (hostnames == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory writing host names", w->path);
  for (int r = 0; r < w->world_size; r++)
    {
      hostnames[r] = tprof_profiled_time_hostname (pt, r);
      bytes += strlen (hostnames[r]) + 32;
    }

  if (_tprof_profile_writer_reserve (w, bytes, error) < 0)
    goto out;
  space = H5Screate_simple (1, dims, NULL);
  if (space >= 0)
    dset = H5Dcreate2 (group, "hostname", w->str_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (dset >= 0 && H5Dwrite (dset, w->str_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, hostnames) >= 0)
    result = 0;
  else
    _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot write /ranks/hostname");

out:
  _tprof_h5_close (dset);
  _tprof_h5_close (space);
  free (hostnames);
  return result;
}

/* The timeline's clock offsets and their error bounds (docs/file-format.md). */
static int
tprof_profile_writer_clock_offsets (TprofProfileWriter      *w,
                                    const TprofProfiledTime *pt,
                                    hid_t                    group,
                                    TprofError              *error)
{
  size_t n = (size_t) w->world_size;

  if (_tprof_profile_writer_reserve (w, 2 * n * sizeof (double), error) < 0
      || _tprof_profile_writer_add_array (w, group, "clock_offset", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                                          tprof_profiled_time_clock_offsets (pt), n, error) < 0
      || _tprof_profile_writer_add_array (w, group, "clock_offset_error", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                                          tprof_profiled_time_clock_offset_errors (pt), n, error) < 0)
    return error != NULL && error->code != 0 ? -1
           : _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot write /ranks/clock_offset");
  return 0;
}

/* Until when each rank has samples, on the timeline (a profile merged
 * from spill files). */
static int
tprof_profile_writer_data_until (TprofProfileWriter *w,
                                 const double       *data_until,
                                 hid_t               group,
                                 TprofError         *error)
{
  size_t n = (size_t) w->world_size;

  if (_tprof_profile_writer_reserve (w, n * sizeof (double), error) < 0
      || _tprof_profile_writer_add_array (w, group, "data_until", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                                          data_until, n, error) < 0)
    return error != NULL && error->code != 0 ? -1
           : _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot write /ranks/data_until");
  return 0;
}

int
_tprof_profile_writer_add_ranks (TprofProfileWriter      *w,
                                 const TprofProfiledTime *pt,
                                 TprofError              *error)
{
  bool hosts = tprof_profiled_time_hostname (pt, 0) != NULL;
  bool offsets = tprof_profiled_time_clock_offsets (pt) != NULL
                 && tprof_profiled_time_clock_offset_errors (pt) != NULL;
  const char *origin = tprof_profiled_time_timeline_origin (pt);
  const double *data_until = _tprof_profiled_time_data_until (pt);
  hid_t group = -1;
  int result = 0;

  if (origin != NULL && _tprof_profile_writer_string_attr (w, w->file, "timeline_origin", origin) < 0)
    return _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot write the attribute timeline_origin");
  if (!hosts && !offsets && data_until == NULL)
    return 0;
  group = H5Gcreate2 (w->file, "ranks", w->lcpl, H5P_DEFAULT, H5P_DEFAULT);
  if (group < 0)
    return _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot write the group /ranks");
  if (hosts)
    result = tprof_profile_writer_hostnames (w, pt, group, error);
  if (result == 0 && offsets)
    result = tprof_profile_writer_clock_offsets (w, pt, group, error);
  if (result == 0 && data_until != NULL)
    result = tprof_profile_writer_data_until (w, data_until, group, error);
  _tprof_h5_close (group);
  return result;
}

int
_tprof_profile_writer_close (TprofProfileWriter *w,
                             off_t              *size,
                             TprofError         *error)
{
  haddr_t eoa = HADDR_UNDEF;
  herr_t status = 0;

  /* Some metadata gets its file space when flushed: the reservation
   * covers them (see deferred_bound), so these writes cannot fail for
   * want of space. After the flush nothing is left to allocate, so the
   * end of allocation is the file's end: the reservation beyond it is cut
   * at commit (HDF5 cannot know of a reservation grown after it opened
   * the file, and then leaves it). */
  for (int g = 0; g < TPROF_N_COLUMN_GROUPS; g++)
    _tprof_h5_close (w->groups[g]);
  if (w->file >= 0 && (H5Fflush (w->file, H5F_SCOPE_LOCAL) < 0 || H5Fget_eoa (w->file, &eoa) < 0))
    status = -1;
  if (w->file >= 0 && H5Fclose (w->file) < 0)
    status = -1;
  for (int g = 0; g < TPROF_N_COLUMN_GROUPS; g++)
    w->groups[g] = -1;
  w->file = -1;
  tprof_profile_writer_clear_lists (w);
  if (status < 0)
    return error != NULL && error->code != 0 ? -1
           : _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot finish its temporary file");
  if (size != NULL)
    *size = eoa != HADDR_UNDEF && eoa <= (haddr_t) INT64_MAX ? (off_t) eoa : -1;
  return 0;
}
