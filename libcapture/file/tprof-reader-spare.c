/* tprof-reader-spare.c — starting the isolated reader's helper process, and one started ahead of need, so that the next file opened isolated skips the helper's start. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tprof-analysis-internal.h"
#include "tprof-reader-private.h"

int
_tprof_reader_spawn (const char *helper,
                     size_t      warm_bytes,
                     pid_t      *pid,
                     int        *sock)
{
  int sv[2];
  char warm[32];
  char *argv[] = { (char *) helper, warm, NULL };
  struct rlimit no_core = { 0, 0 };
  pid_t child;

  snprintf (warm, sizeof warm, "%zu", warm_bytes);
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
    return -1;
  /* vfork: the child borrows this process's memory until it execs, so
   * no page table is copied and no page of the caller turns copy-on-write
   * (with a large caller, such as the viewer, a fork cost more than the
   * helper's whole start) */
  child = vfork ();
  if (child == 0)
    {
      /* only system calls on what is set up above until exec: the memory
       * is the caller's, which may have threads */
      if (dup2 (sv[1], 3) < 0)
        _exit (127);
      setrlimit (RLIMIT_CORE, &no_core);
      execv (helper, argv);
      _exit (127);
    }
  close (sv[1]);
  if (child < 0)
    {
      int saved_errno = errno;

      close (sv[0]);
      errno = saved_errno;
      return -1;
    }
  *pid = child;
  *sock = sv[0];
  return 0;
}

/* The helper started ahead: of @helper, by process @owner (a child of a
 * fork() has no claim to it), waiting for a file on @sock. */
static struct
{
  pthread_mutex_t lock;
  bool            wanted;
  char           *helper;
  pid_t           owner;
  pid_t           pid;
  int             sock;
} spare = { PTHREAD_MUTEX_INITIALIZER, false, NULL, 0, 0, -1 };

/* Lets go of the spare (the lock held); ends it when @kill_it and it is
 * ours (a child of fork() only closes its copy of the socket). */
static void
spare_forget (bool kill_it)
{
  int status;

  if (spare.pid > 0)
    close (spare.sock);
  if (spare.pid > 0 && kill_it && spare.owner == getpid ())
    {
      kill (spare.pid, SIGKILL);
      while (waitpid (spare.pid, &status, 0) < 0 && errno == EINTR)
        ;
    }
  free (spare.helper);
  spare.helper = NULL;
  spare.pid = 0;
  spare.sock = -1;
}

bool
_tprof_reader_spare_take (const char *helper,
                          pid_t      *pid,
                          int        *sock)
{
  bool taken = false;
  int status;

  pthread_mutex_lock (&spare.lock);
  if (spare.pid > 0 && spare.owner != getpid ())
    spare_forget (false);
  /* one that ended while it waited (killed from outside) is no use */
  if (spare.pid > 0 && waitpid (spare.pid, &status, WNOHANG) != 0)
    {
      close (spare.sock);
      spare.pid = 0;
    }
  if (spare.pid > 0 && strcmp (spare.helper, helper) == 0)
    {
      *pid = spare.pid;
      *sock = spare.sock;
      spare.pid = 0;
      spare.sock = -1;
      taken = true;
    }
  spare_forget (true);
  pthread_mutex_unlock (&spare.lock);
  return taken;
}

void
_tprof_reader_spare_start (const char *helper,
                           size_t      warm_bytes)
{
  const char *setting = getenv ("TPROF_READER_SPARE");

  if (setting != NULL && strcmp (setting, "0") == 0)
    return;
  pthread_mutex_lock (&spare.lock);
  if (!spare.wanted)
    {
      pthread_mutex_unlock (&spare.lock);
      return;
    }
  if (spare.pid > 0 && spare.owner != getpid ())
    spare_forget (false);
  if (spare.pid == 0 && (spare.helper = _tprof_strdup (helper)) != NULL
      && _tprof_reader_spawn (helper, warm_bytes, &spare.pid, &spare.sock) == 0)
    spare.owner = getpid ();
  else if (spare.pid == 0)
    spare_forget (false);
  pthread_mutex_unlock (&spare.lock);
}

void
_tprof_reader_spare_want (void)
{
  pthread_mutex_lock (&spare.lock);
  spare.wanted = true;
  pthread_mutex_unlock (&spare.lock);
}
