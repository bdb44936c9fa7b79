/* tprof-error.h — the error report every fallible libcapture call fills. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <tprof/tprof-macros.h>

TPROF_BEGIN_DECLS

/* code 0 means no error. Any function taking a TprofError * accepts NULL. */
typedef struct
{
  int  code;
  char message[512];
} TprofError;

typedef enum
{
  TPROF_ERROR_NONE = 0,
  TPROF_ERROR_IO,           /* file missing, unreadable, unwritable */
  TPROF_ERROR_FORMAT,       /* the bytes are not a valid tprof profile */
  TPROF_ERROR_VERSION,      /* the file is newer than this reader */
  TPROF_ERROR_INVALID,      /* a bad argument from the caller */
  TPROF_ERROR_NO_MEMORY,
  TPROF_ERROR_MPI,
  TPROF_ERROR_TOO_LARGE,    /* sizes beyond what the transport can carry */
  TPROF_ERROR_CANCELLED,    /* the caller asked a long read to stop */
} TprofErrorCode;

/* Long calls (reading samples, indexing them) report the fraction done
 * (0..1) through this, from the calling thread, and stop when the int
 * their caller passes as `cancel` becomes non-zero, failing with
 * TPROF_ERROR_CANCELLED. */
typedef void (*TprofProgressFunc) (double fraction, void *user_data);

/* Resets @error to "no error". */
TPROF_EXPORT void tprof_error_clear (TprofError *error);

/* Fills @error (if not NULL) with @code and a printf-style message.
 * Always returns -1 so callers can write `return tprof_error_set (...)`. */
TPROF_EXPORT int tprof_error_set (TprofError *error, int code, const char *format, ...)
  __attribute__((format (printf, 3, 4)));

TPROF_END_DECLS
