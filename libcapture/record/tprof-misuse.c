/* tprof-misuse.c — reporting misuse of the recording API through a handler the application may set. */
/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdio.h>

#include "tprof-time-manager-internal.h"

static pthread_mutex_t misuse_lock = PTHREAD_MUTEX_INITIALIZER;
static TprofMisuseHandler misuse_handler;
static void *misuse_user_data;
static bool misuse_reported;

void
tprof_set_misuse_handler (TprofMisuseHandler handler,
                          void              *user_data)
{
  pthread_mutex_lock (&misuse_lock);
  misuse_handler = handler;
  misuse_user_data = user_data;
  pthread_mutex_unlock (&misuse_lock);
}

void
_tprof_misuse (const char *message)
{
  TprofMisuseHandler handler;
  void *user_data;
  bool first;

  /* The pair is read under the lock, the handler called outside it, so a
   * handler may itself set another handler. */
  pthread_mutex_lock (&misuse_lock);
  handler = misuse_handler;
  user_data = misuse_user_data;
  first = !misuse_reported;
  misuse_reported = true;
  pthread_mutex_unlock (&misuse_lock);

  if (handler != NULL)
    handler (message, user_data);
  else if (first)
    fprintf (stderr, "tprof: %s (further misuse is not reported)\n", message);
}
