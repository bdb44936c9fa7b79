/* core-check.h — the few assertions of the plain-C tests: on failure print file:line, expected and actual, and exit 1. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tprof/capture.h>

/* Checks stay on under -DNDEBUG: they are the test, not programmer asserts. */

static inline void
core_check_fail_ (const char *file, int line, const char *what)
{
  fprintf (stderr, "%s:%d: check failed: %s\n", file, line, what);
  exit (1);
}

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond))                                                                 \
      core_check_fail_ (__FILE__, __LINE__, #cond);                              \
  } while (0)

static inline void
core_check_long_ (const char *file, int line, const char *what,
                  long long expected, long long actual)
{
  if (expected == actual)
    return;
  fprintf (stderr, "%s:%d: %s: expected %lld, got %lld\n",
           file, line, what, expected, actual);
  exit (1);
}

/* Integers (any integer type up to long long). */
#define CHECK_INT_EQ(expected, actual)                                           \
  core_check_long_ (__FILE__, __LINE__, #actual, (long long) (expected),       \
                    (long long) (actual))

static inline void
core_check_double_ (const char *file, int line, const char *what,
                    double expected, double actual, double rel_tol)
{
  double diff = fabs (expected - actual);

  if (diff <= rel_tol * fabs (expected) || (isnan (expected) && isnan (actual)))
    return;
  fprintf (stderr, "%s:%d: %s: expected %.17g, got %.17g (relative tolerance %g)\n",
           file, line, what, expected, actual, rel_tol);
  exit (1);
}

/* Bit for bit (NaN equals NaN), and within a relative tolerance. */
#define CHECK_DOUBLE_EQ(expected, actual)                                        \
  core_check_double_ (__FILE__, __LINE__, #actual, (expected), (actual), 0.0)
#define CHECK_DOUBLE_NEAR(expected, actual, rel_tol)                             \
  core_check_double_ (__FILE__, __LINE__, #actual, (expected), (actual), (rel_tol))

static inline void
core_check_str_ (const char *file, int line, const char *what,
                 const char *expected, const char *actual)
{
  if (expected != NULL && actual != NULL && strcmp (expected, actual) == 0)
    return;
  fprintf (stderr, "%s:%d: %s: expected \"%s\", got \"%s\"\n", file, line, what,
           expected ? expected : "(null)", actual ? actual : "(null)");
  exit (1);
}

#define CHECK_STR_EQ(expected, actual)                                           \
  core_check_str_ (__FILE__, __LINE__, #actual, (expected), (actual))

/* A libtprof-capture call returning 0 (or non-NULL) on success; prints the
 * TprofError it filled otherwise. */
static inline void
core_check_ok_ (const char *file, int line, const char *what, int ok,
                const TprofError *error)
{
  if (ok)
    return;
  fprintf (stderr, "%s:%d: %s failed: %s (code %d)\n", file, line, what,
           error->message, error->code);
  exit (1);
}

#define CHECK_OK(call, error)                                                    \
  core_check_ok_ (__FILE__, __LINE__, #call, (call) == 0, (error))
#define CHECK_NONNULL(call, error)                                               \
  core_check_ok_ (__FILE__, __LINE__, #call, (call) != NULL, (error))
