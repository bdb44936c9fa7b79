/* tprof-profile-writer.c — TprofProfileWriter: HDF5 writes a profile's metadata into the reserved temporary file. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tprof/tprof-clock.h"
#include "tprof/tprof-profiled-time.h"
#include "tprof-h5-writer-private.h"
#include "tprof-profiled-time-internal.h"

/* Root attribute @a of @pt's file: its text in *@text or its number in
 * *@number; false when the file has none. created, producer and clock
 * are those a profile loaded from a file was read with (a copy says
 * when, by what and with which clock its samples were taken), else this
 * save's (@now: the time, or "" when unknown). */
static bool
tprof_profile_writer_root_value (TprofRootAttr            a,
                                 const TprofProfiledTime *pt,
                                 const char              *now,
                                 const char             **text,
                                 long long               *number)
{
  *text = NULL;
  switch (a)
    {
    case TPROF_ROOT_FORMAT:
      *text = TPROF_FORMAT_NAME;
      break;
    case TPROF_ROOT_FORMAT_VERSION:
      *number = TPROF_FORMAT_VERSION;
      return true;
    case TPROF_ROOT_WORLD_SIZE:
      *number = tprof_profiled_time_world_size (pt);
      return true;
    case TPROF_ROOT_CREATED:
      *text = tprof_profiled_time_created (pt) != NULL ? tprof_profiled_time_created (pt)
              : now[0] != '\0' ? now : NULL;
      break;
    case TPROF_ROOT_PRODUCER:
      *text = tprof_profiled_time_producer (pt) != NULL ? tprof_profiled_time_producer (pt) : TPROF_PRODUCER;
      break;
    case TPROF_ROOT_CLOCK:
      *text = tprof_profiled_time_clock (pt) != NULL ? tprof_profiled_time_clock (pt) : TPROF_CLOCK_NAME;
      break;
    case TPROF_ROOT_TIMELINE_ORIGIN:
      *text = tprof_profiled_time_timeline_origin (pt);
      break;
    case TPROF_N_ROOT_ATTRS:
      break;
    }
  return *text != NULL;
}

/* Every root attribute of the format's table that @pt has. */
static int
tprof_profile_writer_root_attrs (TprofProfileWriter      *w,
                                 hid_t                    file,
                                 const TprofProfiledTime *pt)
{
  char now[32] = "";
  time_t t = time (NULL);
  struct tm utc;

  if (gmtime_r (&t, &utc) != NULL)
    strftime (now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &utc);
  for (int a = 0; a < TPROF_N_ROOT_ATTRS; a++)
    {
      const char *text;
      long long number = 0;

      if (!tprof_profile_writer_root_value (a, pt, now, &text, &number))
        continue;
      if (_tprof_root_attrs[a].type == TPROF_COLTYPE_STRING
          ? _tprof_profile_writer_string_attr (w, file, _tprof_root_attrs[a].name, text) < 0
          : _tprof_profile_writer_int_attr (w, file, _tprof_root_attrs[a].name, number) < 0)
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
  *w = (TprofProfileWriter) { path, out, world_size, -1, { -1, -1, -1 }, -1, -1, -1, -1, -1, TPROF_H5_DEFERRED_BOUND };
}

uint64_t
_tprof_profile_writer_root_bound (const TprofProfiledTime *pt)
{
  /* the superblock, the root group and the empty groups take a few
   * kilobytes; each attribute its header and its text */
  uint64_t bound = (uint64_t) 16 << 10;

  for (int a = 0; a < TPROF_N_ROOT_ATTRS; a++)
    {
      const char *text;
      long long number;

      if (tprof_profile_writer_root_value (a, pt, "0000-00-00T00:00:00Z", &text, &number) && text != NULL)
        bound += 256 + strlen (text);
    }
  return bound;
}

int
_tprof_profile_writer_create (TprofProfileWriter      *w,
                              const TprofProfiledTime *pt,
                              const char              *path,
                              TprofSaveFile           *out,
                              TprofError              *error)
{
  return _tprof_profile_writer_create_aligned (w, pt, path, out, 0, error);
}

int
_tprof_profile_writer_create_aligned (TprofProfileWriter      *w,
                                      const TprofProfiledTime *pt,
                                      const char              *path,
                                      TprofSaveFile           *out,
                                      size_t                   alignment,
                                      TprofError              *error)
{
  hid_t fapl = H5Pcreate (H5P_FILE_ACCESS);
  const char *name = NULL;

  if (fapl >= 0 && alignment > 1 && H5Pset_alignment (fapl, 1, alignment) < 0)
    _tprof_h5_close (fapl), fapl = -1;

  tprof_profile_writer_init (w, path, out, tprof_profiled_time_world_size (pt));
  /* the temporary file is ours alone: no lock, which some file systems
   * (Lustre, NFS) refuse; HDF5 writes it through its descriptor, so that
   * the space reserved in it (or its image in memory) is kept */
  if (fapl >= 0 && _tprof_save_file_set_driver (out, fapl, &name) == 0 && H5Pset_file_locking (fapl, 0, 1) >= 0 &&
      tprof_profile_writer_init_lists (w) == 0)
    w->file = H5Fcreate (name, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  _tprof_h5_close (fapl);
  if (w->file >= 0 && tprof_profile_writer_root_attrs (w, w->file, pt) == 0)
    for (int g = 0; g < TPROF_N_COLUMN_GROUPS; g++)
      w->groups[g] = H5Gcreate2 (w->file, _tprof_column_groups[g], w->lcpl, H5P_DEFAULT, H5P_DEFAULT);
  if (w->file < 0 || w->groups[0] < 0 || w->groups[1] < 0 || w->groups[2] < 0)
    {
      _tprof_h5_error (error, TPROF_ERROR_IO, path, "cannot create its temporary file with HDF5");
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

/* Member @m of /ranks for @pt: its world_size numbers, or for a string
 * member @pt itself (the texts come from tprof_profile_writer_ranks_text());
 * NULL when @pt has none. */
static const void *
tprof_profile_writer_ranks_values (TprofRanksMember         m,
                                   const TprofProfiledTime *pt)
{
  /* the offsets and their errors go together */
  bool offsets = tprof_profiled_time_clock_offsets (pt) != NULL
                 && tprof_profiled_time_clock_offset_errors (pt) != NULL;

  switch (m)
    {
    case TPROF_RANKS_HOSTNAME:
      return tprof_profiled_time_hostname (pt, 0) != NULL ? pt : NULL;
    case TPROF_RANKS_CLOCK_OFFSET:
      return offsets ? tprof_profiled_time_clock_offsets (pt) : NULL;
    case TPROF_RANKS_CLOCK_OFFSET_ERROR:
      return offsets ? tprof_profiled_time_clock_offset_errors (pt) : NULL;
    case TPROF_RANKS_DATA_UNTIL:
      return _tprof_profiled_time_data_until (pt);
    case TPROF_N_RANKS_MEMBERS:
      break;
    }
  return NULL;
}

/* Rank @r's text of string member @m. */
static const char *
tprof_profile_writer_ranks_text (TprofRanksMember         m,
                                 const TprofProfiledTime *pt,
                                 int                      r)
{
  return m == TPROF_RANKS_HOSTNAME ? tprof_profiled_time_hostname (pt, r) : "";
}

/* A string member: variable-length strings in a global heap, which HDF5
 * writes itself (inside the reservation, grown for them first). */
static int
tprof_profile_writer_ranks_strings (TprofProfileWriter      *w,
                                    const TprofProfiledTime *pt,
                                    hid_t                    group,
                                    TprofRanksMember         m,
                                    TprofError              *error)
{
  hsize_t dims[1] = { (hsize_t) w->world_size };
  const char **texts = calloc ((size_t) w->world_size, sizeof *texts);
  uint64_t bytes = 0;
  hid_t space = -1, dset = -1;
  int result = -1;

  if (texts == NULL)
    return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory writing %s", w->path,
                            _tprof_ranks_members[m].path);
  for (int r = 0; r < w->world_size; r++)
    {
      texts[r] = tprof_profile_writer_ranks_text (m, pt, r);
      bytes += strlen (texts[r]) + 32;
    }
  if (_tprof_profile_writer_reserve (w, bytes, error) < 0)
    goto out;
  space = H5Screate_simple (1, dims, NULL);
  if (space >= 0)
    dset = H5Dcreate2 (group, _tprof_ranks_members[m].name, w->str_type, space, H5P_DEFAULT, H5P_DEFAULT,
                       H5P_DEFAULT);
  if (dset >= 0 && H5Dwrite (dset, w->str_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, texts) >= 0)
    result = 0;
  else
    _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot write %s", _tprof_ranks_members[m].path);

out:
  _tprof_h5_close (dset);
  _tprof_h5_close (space);
  free (texts);
  return result;
}

/* A float member: world_size values, reserved then written. */
static int
tprof_profile_writer_ranks_doubles (TprofProfileWriter *w,
                                    hid_t               group,
                                    TprofRanksMember    m,
                                    const double       *values,
                                    TprofError         *error)
{
  size_t n = (size_t) w->world_size;

  if (_tprof_profile_writer_reserve (w, n * sizeof (double), error) < 0
      || _tprof_profile_writer_add_array (w, group, _tprof_ranks_members[m].name, H5T_IEEE_F64LE,
                                          H5T_NATIVE_DOUBLE, values, n, error) < 0)
    return error != NULL && error->code != 0 ? -1
           : _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot write %s", _tprof_ranks_members[m].path);
  return 0;
}

int
_tprof_profile_writer_add_ranks (TprofProfileWriter      *w,
                                 const TprofProfiledTime *pt,
                                 TprofError              *error)
{
  bool any = false;
  hid_t group = -1;
  int result = 0;

  for (int m = 0; m < TPROF_N_RANKS_MEMBERS; m++)
    any = any || tprof_profile_writer_ranks_values (m, pt) != NULL;
  if (!any)
    return 0;
  group = H5Gcreate2 (w->file, TPROF_RANKS_GROUP, w->lcpl, H5P_DEFAULT, H5P_DEFAULT);
  if (group < 0)
    return _tprof_h5_error (error, TPROF_ERROR_IO, w->path, "cannot write the group /" TPROF_RANKS_GROUP);
  for (int m = 0; result == 0 && m < TPROF_N_RANKS_MEMBERS; m++)
    {
      const void *values = tprof_profile_writer_ranks_values (m, pt);

      if (values == NULL)
        continue;
      result = _tprof_ranks_members[m].type == TPROF_COLTYPE_STRING
               ? tprof_profile_writer_ranks_strings (w, pt, group, m, error)
               : tprof_profile_writer_ranks_doubles (w, group, m, values, error);
    }
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
