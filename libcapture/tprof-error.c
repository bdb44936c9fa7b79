/* tprof-error.c — filling TprofError reports. */
/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>

#include "tprof/tprof-error.h"

void
tprof_error_clear (TprofError *error)
{
  if (error == NULL)
    return;
  error->code = TPROF_ERROR_NONE;
  error->message[0] = '\0';
}

int
tprof_error_set (TprofError *error, int code, const char *format, ...)
{
  va_list args;

  if (error == NULL)
    return -1;
  error->code = code;
  va_start (args, format);
  vsnprintf (error->message, sizeof error->message, format, args);
  va_end (args);
  return -1;
}
