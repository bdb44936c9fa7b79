/* tprof-profile-file.c — TprofProfileFile: a saved profile opened for its metadata and cached statistics; samples read on demand. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tprof/tprof-profile-file.h"
#include "tprof-h5-reader-private.h"
#include "tprof-reader-private.h"

/* Plain-POSIX checks first: their errno says more than HDF5 would. */
static int
tprof_profile_file_check_readable (const char *path,
                                   TprofError *error)
{
  struct stat st;
  /* O_NONBLOCK: opening a FIFO would otherwise wait for a writer forever */
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

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
    return tprof_error_set (error, TPROF_ERROR_IO, S_ISFIFO (st.st_mode) ? "%s: is a FIFO, not a profile"
                            : "%s: is not a regular file", path);
  if (st.st_size == 0)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: the file is empty", path);
  return 0;
}

static void
tprof_profile_file_free (TprofProfileFile *pf)
{
  for (size_t i = 0; i < pf->n_ops; i++)
    {
      TprofH5Operation *op = &pf->ops[i];

      if (!pf->names_in_block)
        free (op->name);
      free (op->link_name);
      /* borrowed arrays lie in cache_block, freed below */
      if (!op->cache.borrowed)
        _tprof_operation_cache_clear (&op->cache);
      if (pf->op_stats != NULL && !pf->op_stats[i].computed_borrowed)
        {
          TprofH5OperationStats *st = &pf->op_stats[i];

          free (st->computed_count);
          free (st->computed_sum);
          free (st->computed_min);
          free (st->computed_max);
          free (st->computed_recorded);
        }
    }
  _tprof_free_array_paged (pf->ops, pf->ops_room, sizeof *pf->ops);
  _tprof_free_array_paged (pf->op_stats, pf->ops_room, sizeof *pf->op_stats);
  free (pf->cache_block);
  free (pf->names_block);
  free (pf->name_slots);
  free (pf->seg_rank);
  free (pf->seg_offset);
  _tprof_h5_free_strings (pf->hostnames, (size_t) pf->world_size);
  free (pf->created);
  free (pf->producer);
  free (pf->clock);
  free (pf->timeline_origin);
  free (pf->clock_offsets);
  free (pf->clock_offset_errors);
  free (pf->data_until);
  free (pf->path);
  free (pf);
}

/* False only in the isolated reader's helper (tprof-reader-main.c): there
 * HDF5 crashing is an error of the caller's, not a crash, and the caller
 * scans for the damaged heaps on which HDF5 loops while it waits for a
 * helper slow to answer (tprof-reader-client.c). The pre-check in the
 * helper would only make every open slower (a large file's every dataset
 * opened, or the whole file read). */
static bool tprof_profile_file_heap_check = true;

void
_tprof_profile_file_skip_heap_check (void)
{
  tprof_profile_file_heap_check = false;
}

typedef struct
{
  unsigned long long have;
  unsigned long long expected;
} TruncatedSizes;

static herr_t
find_truncation_cb (unsigned            n,
                    const H5E_error2_t *err_desc,
                    void               *user_data)
{
  TruncatedSizes *sizes = user_data;
  unsigned long long base;

  (void) n;
  if (err_desc->desc != NULL
      && sscanf (err_desc->desc, "truncated file: eof = %llu, sblock->base_addr = %llu, stored_eof = %llu",
                 &sizes->have, &base, &sizes->expected) == 3)
    return 1;
  return 0;
}

/* @bytes in KiB, MiB or GiB, as a person reads a file's size. */
static void
format_size (unsigned long long bytes,
             char              *out,
             size_t             size)
{
  if (bytes < 1024ull * 1024)
    snprintf (out, size, "%.0f KiB", bytes / 1024.0);
  else if (bytes < 1024ull * 1024 * 1024)
    snprintf (out, size, "%.1f MiB", bytes / (1024.0 * 1024));
  else
    snprintf (out, size, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
}

/* H5Fopen failed: a file shorter than its superblock says (a save cut
 * short) is named as such, with both sizes; else HDF5's own reason. */
static int
tprof_profile_file_open_failed (const char *path,
                                TprofError *error)
{
  TruncatedSizes sizes = { 0, 0 };
  char have[32], expected[32];

  H5Ewalk2 (H5E_DEFAULT, H5E_WALK_UPWARD, find_truncation_cb, &sizes);
  if (sizes.expected == 0 || sizes.have >= sizes.expected)
    return _tprof_h5_error (error, TPROF_ERROR_FORMAT, path, "cannot open as HDF5");
  format_size (sizes.have, have, sizeof have);
  format_size (sizes.expected, expected, sizeof expected);
  return tprof_error_set (error, TPROF_ERROR_FORMAT,
                          "%s: cannot open as HDF5: the file is truncated, %s of the %s it should hold; "
                          "the save that wrote it may have been interrupted", path, have, expected);
}

/* Opens @pf->path with HDF5 and reads everything but the samples. */
static int
tprof_profile_file_read_metadata (TprofProfileFile *pf,
                                  TprofError       *error)
{
  htri_t is_hdf5 = H5Fis_hdf5 (pf->path);

  if (is_hdf5 == 0)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: not an HDF5 file", pf->path);
  if (is_hdf5 < 0)
    return _tprof_h5_error (error, TPROF_ERROR_FORMAT, pf->path, "not a readable HDF5 file");
  pf->file = H5Fopen (pf->path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (pf->file < 0)
    return tprof_profile_file_open_failed (pf->path, error);
  pf->fd = _tprof_h5_file_descriptor (pf->file);

  /* after H5Fopen, whose check of a truncated file says it best */
  if ((tprof_profile_file_heap_check && _tprof_h5_check_global_heaps (pf->path, pf->file, pf->opened_columns,
                                                                      error) < 0)
      || _tprof_h5_read_root (pf, error) < 0
      || (pf->format_version >= 3 ? _tprof_columns_read (pf, error) : _tprof_h5_read_operations (pf, error)) < 0
      || _tprof_h5_read_hostnames (pf, error) < 0
      || _tprof_h5_read_clock_offsets (pf, error) < 0)
    return -1;
  /* none left but in a file of another format that has such columns */
  _tprof_columns_close_opened (pf);
  return 0;
}

static TprofProfileFile *
tprof_profile_file_open_with (const char *path,
                              bool        defer_cache,
                              TprofError *error)
{
  TprofProfileFile *pf;
  TprofH5Guard guard;
  int status;

  tprof_error_clear (error);
  if (path == NULL || path[0] == '\0')
    {
      tprof_error_set (error, TPROF_ERROR_INVALID, "tprof_profile_file_open: the path is empty");
      return NULL;
    }
  if (tprof_profile_file_check_readable (path, error) < 0)
    return NULL;
  pf = calloc (1, sizeof *pf);
  if (pf == NULL || (pf->path = strdup (path)) == NULL)
    {
      free (pf);
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", path);
      return NULL;
    }
  pf->source = &_tprof_profile_file_in_process;
  pf->file = -1;
  pf->fd = -1;
  pf->defer_cache = defer_cache;

  _tprof_h5_enter (&guard);
  status = tprof_profile_file_read_metadata (pf, error);
  if (status < 0)
    {
      _tprof_columns_close (pf);
      _tprof_h5_close (pf->file);
    }
  _tprof_h5_leave (&guard);
  if (status < 0)
    {
      tprof_profile_file_free (pf);
      return NULL;
    }
  return pf;
}

TprofProfileFile *
tprof_profile_file_open (const char *path,
                         TprofError *error)
{
  return tprof_profile_file_open_with (path, false, error);
}

TprofProfileFile *
_tprof_profile_file_open_for_load (const char *path,
                                   TprofError *error)
{
  return tprof_profile_file_open_with (path, true, error);
}

void
tprof_profile_file_close (TprofProfileFile *file)
{
  if (file == NULL)
    return;
  file->source->close (file);
  tprof_profile_file_free (file);
}

const char *
tprof_profile_file_path (const TprofProfileFile *file)
{
  return file != NULL ? file->path : NULL;
}

int
tprof_profile_file_format_version (const TprofProfileFile *file)
{
  return file != NULL ? file->format_version : 0;
}

int
tprof_profile_file_world_size (const TprofProfileFile *file)
{
  return file != NULL ? file->world_size : 0;
}

size_t
tprof_profile_file_n_operations (const TprofProfileFile *file)
{
  return file != NULL ? file->n_ops : 0;
}

const char *
tprof_profile_file_operation_name (const TprofProfileFile *file,
                                   size_t                  op)
{
  return file != NULL && op < file->n_ops ? file->ops[op].name : NULL;
}

size_t
tprof_profile_file_find_operation (const TprofProfileFile *file,
                                   const char             *name)
{
  if (file == NULL || name == NULL)
    return TPROF_PROFILE_FILE_NOT_FOUND;
  return _tprof_h5_find_name (file, name);
}

uint64_t
tprof_profile_file_sample_count (const TprofProfileFile *file,
                                 size_t                  op)
{
  return file != NULL && op < file->n_ops ? file->ops[op].n : 0;
}

const char *
tprof_profile_file_hostname (const TprofProfileFile *file,
                             int                     rank)
{
  if (file == NULL || file->hostnames == NULL || rank < 0 || rank >= file->world_size)
    return NULL;
  return file->hostnames[rank];
}

const char *
tprof_profile_file_created (const TprofProfileFile *file)
{
  return file != NULL ? file->created : NULL;
}

const char *
tprof_profile_file_producer (const TprofProfileFile *file)
{
  return file != NULL ? file->producer : NULL;
}

const char *
tprof_profile_file_clock (const TprofProfileFile *file)
{
  return file != NULL ? file->clock : NULL;
}

const char *
tprof_profile_file_timeline_origin (const TprofProfileFile *file)
{
  return file != NULL ? file->timeline_origin : NULL;
}

const double *
tprof_profile_file_clock_offsets (const TprofProfileFile *file)
{
  return file != NULL && file->clock_offset_errors != NULL ? file->clock_offsets : NULL;
}

const double *
tprof_profile_file_clock_offset_errors (const TprofProfileFile *file)
{
  return file != NULL && file->clock_offsets != NULL ? file->clock_offset_errors : NULL;
}

bool
tprof_profile_file_has_cached_stats (const TprofProfileFile *file,
                                     size_t                  op)
{
  return file != NULL && op < file->n_ops && file->op_stats != NULL && file->op_stats[op].cached;
}

void
tprof_profile_file_skip_exit_cleanup (void)
{
  H5dont_atexit ();
}
