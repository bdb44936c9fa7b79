/* tprof-save-closer.c — the file a save replaced, held across the rename and let go on another thread, which then frees its blocks. */
/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

#include "tprof-h5-writer-private.h"

/* A rename over a file frees the replaced file's blocks inside the
 * rename when it held the last reference (1.5-2.5 ms for 3 MB on ext4
 * here). Held open, the file is only unlinked there; the last close
 * frees it, on a thread of its own. One closer at a time: the next save
 * joins the one before (long finished by then), as do a fork, the
 * library's unloading and the process's exit, so that no thread runs
 * this library's code once it is gone and no child inherits the file.
 *
 * Lock order: join_lock, then fd_lock; the closer thread takes fd_lock
 * only. */
static pthread_mutex_t join_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t fd_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static pthread_t closer;
static bool closer_running;  /* a thread to join (join_lock) */
static int held_fd = -1;     /* the file it closes, until it has (fd_lock) */

static void *
closer_run (void *data)
{
  (void) data;
  pthread_mutex_lock (&fd_lock);
  if (held_fd >= 0)
    close (held_fd);
  held_fd = -1;
  pthread_mutex_unlock (&fd_lock);
  return NULL;
}

/* With join_lock held: no closer left running. */
static void
closer_join (void)
{
  if (closer_running)
    pthread_join (closer, NULL);
  closer_running = false;
}

static void
closer_before_fork (void)
{
  pthread_mutex_lock (&join_lock);
  pthread_mutex_lock (&fd_lock);
}

static void
closer_after_fork_parent (void)
{
  pthread_mutex_unlock (&fd_lock);
  pthread_mutex_unlock (&join_lock);
}

/* The child has no closer thread, but its copy of the held file would
 * keep the blocks until it exits: it closes it at once. */
static void
closer_after_fork_child (void)
{
  if (held_fd >= 0)
    close (held_fd);
  held_fd = -1;
  closer_running = false;
  pthread_mutex_unlock (&fd_lock);
  pthread_mutex_unlock (&join_lock);
}

static void
closer_register_atfork (void)
{
  pthread_atfork (closer_before_fork, closer_after_fork_parent, closer_after_fork_child);
}

void
_tprof_save_close_later (int fd)
{
  sigset_t all, old;

  pthread_once (&atfork_once, closer_register_atfork);
  pthread_mutex_lock (&join_lock);
  closer_join ();
  pthread_mutex_lock (&fd_lock);
  held_fd = fd;
  pthread_mutex_unlock (&fd_lock);
  /* every signal blocked in the closer, which inherits this mask: the
   * application's signals stay with its own threads */
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  closer_running = pthread_create (&closer, NULL, closer_run, NULL) == 0;
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  if (!closer_running)
    closer_run (NULL);
  pthread_mutex_unlock (&join_lock);
}

/* At dlclose() and at exit: the closer's code is about to go. */
__attribute__((destructor)) static void
closer_finish (void)
{
  pthread_mutex_lock (&join_lock);
  closer_join ();
  pthread_mutex_unlock (&join_lock);
}
