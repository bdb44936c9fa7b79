/* tprof-h5-internal.h — helpers shared by the HDF5 reader and writer of profiles (docs/file-format.md). */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <hdf5.h>

#include "tprof/tprof-error.h"
#include "tprof/tprof-profiled-time.h"

#include "tprof-format.h"

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
/* @s as a message may show it: every byte of a control character, a
 * bidirectional override or isolate, or of what is not UTF-8, written as
 * \xHH; cut with "..." to fit @size bytes (with the end) into @buf. */
void _tprof_h5_printable (const char *s, char *buf, size_t size);

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

/* The same, with the index of a string that is not valid UTF-8 in *@bad
 * (left as it is otherwise). */
int _tprof_h5_read_string_column (hid_t    dset,
                                  size_t   n,
                                  char  ***strings,
                                  size_t  *bad,
                                  char    *problem,
                                  size_t   problem_size);

void _tprof_h5_free_strings (char **strings, size_t n);

/* The index of the first sample of [@start, @stop) whose time is not finite
 * and >= 0 or whose rank is outside [0, @world_size); @stop when all are
 * valid (tprof-h5-sample-check.c). The reader checks what it reads with it,
 * the profile what is added to it, the writer what it is about to save. */
size_t _tprof_h5_find_invalid (const double  *times,
                               const int32_t *ranks,
                               size_t         start,
                               size_t         stop,
                               int            world_size);

/* Sets @error for sample @i of operation @name, which
 * _tprof_h5_find_invalid() found breaking the format. Returns -1. */
int _tprof_h5_invalid_sample_error (TprofError    *error,
                                    int            code,
                                    const char    *where,
                                    const char    *name,
                                    const double  *times,
                                    const int32_t *ranks,
                                    size_t         i,
                                    int            world_size);

/* The reader's own declarations are in file/tprof-h5-reader-private.h, the
 * writer's in save/tprof-h5-writer-private.h. */
