/* tprof-reader-locate.c — where an operation's arrays lie in the file, found by the isolated reader's helper, so that the client reads them itself. */
/* SPDX-License-Identifier: MIT */
#include <string.h>
#include <sys/stat.h>

#include "tprof-reader-private.h"

/* Only public HDF5 calls here: the helper links this file but cannot
 * reach the library's hidden functions. */

/* @type as one of the raw types, or false (float16, a padded integer, ...). */
static bool
tprof_reader_raw_type (hid_t           type,
                       H5T_class_t     klass,
                       TprofH5RawType *raw)
{
  /* built on each call: the H5T_* names expand to calls into HDF5 */
  const struct
  {
    hid_t          file_type;
    TprofH5RawType raw;
  } types[] = {
    { H5T_IEEE_F32LE, { TPROF_H5_RAW_FLOAT, 4, false } }, { H5T_IEEE_F32BE, { TPROF_H5_RAW_FLOAT, 4, true } },
    { H5T_IEEE_F64LE, { TPROF_H5_RAW_FLOAT, 8, false } }, { H5T_IEEE_F64BE, { TPROF_H5_RAW_FLOAT, 8, true } },
    { H5T_STD_I8LE, { TPROF_H5_RAW_SIGNED, 1, false } },  { H5T_STD_I8BE, { TPROF_H5_RAW_SIGNED, 1, true } },
    { H5T_STD_I16LE, { TPROF_H5_RAW_SIGNED, 2, false } }, { H5T_STD_I16BE, { TPROF_H5_RAW_SIGNED, 2, true } },
    { H5T_STD_I32LE, { TPROF_H5_RAW_SIGNED, 4, false } }, { H5T_STD_I32BE, { TPROF_H5_RAW_SIGNED, 4, true } },
    { H5T_STD_I64LE, { TPROF_H5_RAW_SIGNED, 8, false } }, { H5T_STD_I64BE, { TPROF_H5_RAW_SIGNED, 8, true } },
    { H5T_STD_U8LE, { TPROF_H5_RAW_UNSIGNED, 1, false } },  { H5T_STD_U8BE, { TPROF_H5_RAW_UNSIGNED, 1, true } },
    { H5T_STD_U16LE, { TPROF_H5_RAW_UNSIGNED, 2, false } }, { H5T_STD_U16BE, { TPROF_H5_RAW_UNSIGNED, 2, true } },
    { H5T_STD_U32LE, { TPROF_H5_RAW_UNSIGNED, 4, false } }, { H5T_STD_U32BE, { TPROF_H5_RAW_UNSIGNED, 4, true } },
    { H5T_STD_U64LE, { TPROF_H5_RAW_UNSIGNED, 8, false } }, { H5T_STD_U64BE, { TPROF_H5_RAW_UNSIGNED, 8, true } },
  };

  if (H5Tget_class (type) != klass)
    return false;
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (H5Tequal (type, types[i].file_type) > 0)
      {
        *raw = types[i].raw;
        return (raw->kind == TPROF_H5_RAW_FLOAT) == (klass == H5T_FLOAT);
      }
  return false;
}

/* Fills @a for dataset @name of @group: true when it is absent, or 1-D of
 * @n values of class @klass stored as one contiguous, unfiltered run in
 * this file. */
static bool
tprof_reader_locate_array (hid_t             group,
                           const char       *name,
                           H5T_class_t       klass,
                           uint64_t          n,
                           TprofReaderArray *a)
{
  hid_t dset, type = -1, space = -1, dcpl = -1;
  hsize_t dims[1] = { 0 };
  haddr_t addr = HADDR_UNDEF;
  bool direct;

  memset (a, 0, sizeof *a);
  if (H5Lexists (group, name, H5P_DEFAULT) <= 0)
    return true;
  dset = H5Dopen2 (group, name, H5P_DEFAULT);
  if (dset < 0)
    return false;
  type = H5Dget_type (dset);
  space = H5Dget_space (dset);
  dcpl = H5Dget_create_plist (dset);
  direct = type >= 0 && space >= 0 && dcpl >= 0
    && H5Sget_simple_extent_ndims (space) == 1
    && H5Sget_simple_extent_dims (space, dims, NULL) == 1 && dims[0] == n;
  if (direct && n == 0 && H5Tget_class (type) == klass)
    {
      /* nothing to read, whatever the layout (tprof writes empty ones
       * compact) or the type: one the client knows stands for it */
      a->type = (TprofH5RawType) { klass == H5T_FLOAT ? TPROF_H5_RAW_FLOAT : TPROF_H5_RAW_SIGNED, 8, false };
      H5Pclose (dcpl);
      H5Sclose (space);
      H5Tclose (type);
      H5Dclose (dset);
      a->present = true;
      return true;
    }
  if (H5Aexists (dset, TPROF_FORMAT_CRC_ATTR) > 0)
    {
      hid_t attr = H5Aopen (dset, TPROF_FORMAT_CRC_ATTR, H5P_DEFAULT);
      unsigned crc = 0;

      a->has_crc = attr >= 0 && H5Aread (attr, H5T_NATIVE_UINT, &crc) >= 0;
      a->crc = (uint32_t) crc;
      if (attr >= 0)
        H5Aclose (attr);
    }
  direct = direct
    && tprof_reader_raw_type (type, klass, &a->type)
    && H5Pget_layout (dcpl) == H5D_CONTIGUOUS
    && H5Pget_external_count (dcpl) == 0
    && H5Pget_nfilters (dcpl) == 0
    && H5Dget_storage_size (dset) == (hsize_t) n * a->type.size;
  if (direct)
    addr = H5Dget_offset (dset);  /* counts the user block, as pread() does */
  H5Pclose (dcpl);
  H5Sclose (space);
  H5Tclose (type);
  H5Dclose (dset);
  a->present = true;
  /* HDF5 allocates no storage for an empty dataset: nothing to read */
  a->offset = addr != HADDR_UNDEF ? (uint64_t) addr : 0;
  return direct && (addr != HADDR_UNDEF || n == 0);
}

static void
tprof_reader_find_columns (const TprofProfileFile *file,
                           TprofReaderLocation    *loc)
{
  hid_t samples = H5Gopen2 (file->file, "samples", H5P_DEFAULT);

  memset (loc, 0, sizeof *loc);
  loc->ranks_from_counts = true;
  loc->n_rows = file->n_samples;
  loc->direct = samples >= 0;
  for (int c = 0; c < TPROF_N_COLUMNS && loc->direct; c++)
    {
      const TprofColumnInfo *info = &_tprof_columns[c];
      TprofReaderArray *a;

      if (!info->per_sample)
        continue;
      a = &loc->arrays[c == TPROF_COL_TIMES ? TPROF_READER_TIMES
                       : c == TPROF_COL_STARTS ? TPROF_READER_STARTS : TPROF_READER_THREADS];
      loc->direct = tprof_reader_locate_array (samples, info->name,
                                               info->type == TPROF_COLTYPE_FLOAT64 ? H5T_FLOAT : H5T_INTEGER,
                                               file->n_samples, a);
    }
  loc->direct = loc->direct && loc->arrays[TPROF_READER_TIMES].present;
  if (samples >= 0)
    H5Gclose (samples);
}

/* Format 3's sample columns as a whole (row 0), found once per file: every
 * operation's rows are a range of them. */
static struct
{
  const TprofProfileFile *file;
  TprofReaderLocation     columns;
} tprof_reader_found;

/* Format 3: the operation's rows of the sample columns; no ranks array,
 * the cache's counts place them. */
static void
tprof_reader_locate_columns (const TprofProfileFile *file,
                             size_t                  op,
                             TprofReaderLocation    *loc)
{
  uint64_t dev = loc->dev, ino = loc->ino;

  if (tprof_reader_found.file != file || tprof_reader_found.columns.n_rows != file->n_samples)
    {
      tprof_reader_find_columns (file, &tprof_reader_found.columns);
      tprof_reader_found.file = file;
    }
  *loc = tprof_reader_found.columns;
  loc->dev = dev;
  loc->ino = ino;
  loc->n = file->ops[op].n;
  loc->row = file->ops[op].row;
  for (size_t i = 0; i < TPROF_READER_N_ARRAYS; i++)
    loc->arrays[i].offset += loc->row * loc->arrays[i].type.size;
}

void
_tprof_reader_locate (const TprofProfileFile *file,
                      size_t                  op,
                      TprofReaderLocation    *loc)
{
  static const char *const names[TPROF_READER_N_ARRAYS] = { "times", "ranks", "starts", "threads" };
  static const H5T_class_t classes[TPROF_READER_N_ARRAYS] = { H5T_FLOAT, H5T_INTEGER, H5T_FLOAT, H5T_INTEGER };
  H5E_auto2_t saved_func;
  void *saved_data;
  struct stat st;
  hid_t timings, group = -1;

  memset (loc, 0, sizeof *loc);
  if (op >= file->n_ops || file->fd < 0 || fstat (file->fd, &st) < 0)
    return;
  loc->dev = (uint64_t) st.st_dev;
  loc->ino = (uint64_t) st.st_ino;
  loc->n = file->ops[op].n;

  H5Eget_auto2 (H5E_DEFAULT, &saved_func, &saved_data);
  H5Eset_auto2 (H5E_DEFAULT, NULL, NULL);
  if (file->format_version >= 3)
    {
      tprof_reader_locate_columns (file, op, loc);
      H5Eclear2 (H5E_DEFAULT);
      H5Eset_auto2 (H5E_DEFAULT, saved_func, saved_data);
      return;
    }
  timings = H5Gopen2 (file->file, "timings", H5P_DEFAULT);
  if (timings >= 0)
    group = H5Gopen2 (timings, file->ops[op].link_name, H5P_DEFAULT);
  loc->direct = group >= 0;
  for (size_t i = 0; i < TPROF_READER_N_ARRAYS && loc->direct; i++)
    loc->direct = tprof_reader_locate_array (group, names[i], classes[i], loc->n, &loc->arrays[i]);
  /* the samples themselves are required: without them the helper's
   * read says what is wrong */
  loc->direct = loc->direct && loc->arrays[TPROF_READER_TIMES].present && loc->arrays[TPROF_READER_RANKS].present;
  if (group >= 0)
    H5Gclose (group);
  if (timings >= 0)
    H5Gclose (timings);
  H5Eclear2 (H5E_DEFAULT);
  H5Eset_auto2 (H5E_DEFAULT, saved_func, saved_data);
}
