/* tprof-h5-private.h — helpers shared by the HDF5 reader and writer of profiles (DESIGN.md section 2). */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <hdf5.h>

#include "tprof/tprof-error.h"
#include "tprof/tprof-profiled-time.h"

#define TPROF_H5_FORMAT         "tprof-profile"
/* The version writers write; readers read 1 up to it (DESIGN.md 2b). */
#define TPROF_H5_FORMAT_VERSION 2

/* Every HDF5 call of the library runs between _tprof_h5_enter() and
 * _tprof_h5_leave(): they hold the process-wide HDF5 lock and keep HDF5 from
 * printing its error stack while held. */
typedef struct
{
  H5E_auto2_t saved_func;
  void       *saved_data;
} TprofH5Guard;

void _tprof_h5_enter (TprofH5Guard *guard);
void _tprof_h5_leave (TprofH5Guard *guard);

/* Like tprof_error_set() with the message prefixed by "@path: " and followed
 * by the innermost message of HDF5's current error stack, if any. Returns -1. */
int _tprof_h5_error (TprofError *error,
                     int         code,
                     const char *path,
                     const char *format,
                     ...) __attribute__((format (printf, 4, 5)));

/* Closes @id with the close function of its kind; ignores invalid ids.
 * A pending HDF5 error survives it, for _tprof_h5_error() to report. */
void _tprof_h5_close (hid_t id);

/* A new variable-length UTF-8 string type (caller closes), or -1. */
hid_t _tprof_h5_vlen_utf8_type (void);

/* The link name of operation @name: % -> %25, / -> %2F, exactly "." -> %2E.
 * malloc'd, or NULL when memory is exhausted. */
char *_tprof_h5_escape_name (const char *name);
/* The inverse of _tprof_h5_escape_name(); unknown escapes are kept as they
 * are. malloc'd, or NULL when memory is exhausted. */
char *_tprof_h5_unescape_name (const char *link_name);

/* true when the @len bytes at @s are valid UTF-8. */
bool _tprof_h5_utf8_valid (const char *s, size_t len);

/* Reads string attribute @attr_name of @obj (scalar or one element, fixed or
 * variable length, ASCII or UTF-8). Returns 1 and a malloc'd string in
 * *@value, 0 when the attribute does not exist, or -1 with a message in
 * @problem ("is not a string", ...) when it cannot be read. */
int _tprof_h5_read_string_attr (hid_t       obj,
                                const char *attr_name,
                                char      **value,
                                char       *problem,
                                size_t      problem_size);

/* Reads integer attribute @attr_name of @obj (any integer type, scalar or one
 * element). Returns 1 and the value in *@value, 0 when the attribute does not
 * exist, -1 with a message in @problem when it cannot be read. */
int _tprof_h5_read_int_attr (hid_t       obj,
                             const char *attr_name,
                             long long  *value,
                             char       *problem,
                             size_t      problem_size);

/* Reads the whole 1-D string dataset @dset into a malloc'd array of @n
 * malloc'd strings (free with _tprof_h5_free_strings). Returns 0, or -1 with
 * a message in @problem. */
int _tprof_h5_read_string_dataset (hid_t    dset,
                                   size_t   n,
                                   char  ***strings,
                                   char    *problem,
                                   size_t   problem_size);

void _tprof_h5_free_strings (char **strings, size_t n);

/* --- the reader, split over tprof-h5-read*.c and tprof-h5-heap-check.c --- */

typedef struct
{
  const char        *path;
  TprofError        *error;
  hid_t              file;
  TprofProfiledTime *pt;         /* created by _tprof_h5_read_root() */
  int                world_size;
  int                fd;         /* under @file, for pread(); -1 if none */
} TprofH5Reader;

/* HDF5 1.10 trusts the sizes inside the global heap collections that hold
 * variable-length strings: damaged ones make it loop forever or copy out of
 * bounds. Checks every collection of @path (open as @file) before HDF5 reads
 * any. Returns 0, or -1 with @error set. */
int _tprof_h5_check_global_heaps (const char *path,
                                  hid_t       file,
                                  TprofError *error);

/* Each returns 0, or -1 with r->error set. */
int _tprof_h5_read_root (TprofH5Reader *r);
int _tprof_h5_read_timings (TprofH5Reader *r);
int _tprof_h5_read_hostnames (TprofH5Reader *r);

/* Reads and checks the `times` and `ranks` datasets of operation @op (open
 * as @group): on success stores malloc'd arrays (NULL when empty) and their
 * length. */
int _tprof_h5_read_op_samples (TprofH5Reader  *r,
                               hid_t           group,
                               const char     *op,
                               double        **times,
                               int32_t       **ranks,
                               size_t         *n);

/* --- loading the samples fast: tprof-h5-buffer.c, -validate.c, -read-direct.c --- */

/* A new array of @n values of @elem_size bytes for free(), on huge pages
 * when large; NULL when memory is exhausted or the size overflows. */
void *_tprof_h5_alloc_samples (size_t n,
                               size_t elem_size);

/* The index of the first sample of [@start, @stop) whose time is not finite
 * and >= 0 or whose rank is outside [0, @world_size); @stop when all are
 * valid. */
size_t _tprof_h5_find_invalid (const double  *times,
                               const int32_t *ranks,
                               size_t         start,
                               size_t         stop,
                               int            world_size);

/* Sets the error for invalid sample @i of operation @op, from its time
 * and its rank as stored (@rank_text). Returns -1. */
int _tprof_h5_report_invalid (TprofH5Reader *r,
                              const char    *op,
                              double         time,
                              const char    *rank_text,
                              size_t         i);

/* true, with the file offset of the first value in *@offset, when @dset
 * holds its @n values as one contiguous run of @native_type in the file,
 * so that pread() can fill an array with them. */
bool _tprof_h5_direct_offset (hid_t   dset,
                              hid_t   native_type,
                              size_t  n,
                              size_t  elem_size,
                              off_t  *offset);

/* The descriptor under HDF5's file @file (the default driver's), or -1. */
int _tprof_h5_file_descriptor (hid_t file);

/* Where the arrays come from: already filled by HDF5 (offset -1), or read
 * from @fd at the offset. */
typedef struct
{
  int   fd;
  off_t times_offset;
  off_t ranks_offset;
} TprofH5SampleSource;

/* Reads what @source leaves to it into @times and @ranks and checks all
 * @n samples, in blocks split over threads. Returns 0 with the first
 * invalid sample's index in *@first_invalid (@n when all are valid), or
 * when a read fails an errno value (-1: the file ends first) and the
 * array's name in *@failed_array. */
int _tprof_h5_fill_samples (const TprofH5SampleSource  *source,
                            double                     *times,
                            int32_t                    *ranks,
                            size_t                      n,
                            int                         world_size,
                            size_t                     *first_invalid,
                            const char                **failed_array);
