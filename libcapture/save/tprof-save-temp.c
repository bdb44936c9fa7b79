/* tprof-save-temp.c — the temporary files of saves: unnamed where the file system can, else names that say whose they are, and the sweep of those killed saves left. */
/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tprof/tprof-clock.h"
#include "tprof-h5-writer-private.h"

/* A leftover younger than this may belong to a save still running in a
 * process this one cannot see (another PID namespace of the same host). */
#define TEMP_MIN_AGE_S 60

#define TEMP_PREFIX ".tprof-"

/* Eight hex digits standing for this host, so that a sweep on a shared
 * file system only judges files of processes it can see. */
static uint32_t
host_tag (void)
{
  char host[256] = "";
  uint32_t h = 2166136261u;  /* FNV-1a */

  gethostname (host, sizeof host - 1);
  for (const unsigned char *p = (const unsigned char *) host; *p != '\0'; p++)
    h = (h ^ *p) * 16777619u;
  return h;
}

/* "<dir>/.tprof-HOST-PID-XXXXXX" into @name (@len bytes). */
static void
temp_name (const char *dir,
           char       *name,
           size_t      len)
{
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  static unsigned counter;
  uint64_t seed = (uint64_t) tprof_clock_now_ns () ^ ((uint64_t) getpid () << 32)
                  ^ ((uint64_t) __atomic_add_fetch (&counter, 1, __ATOMIC_RELAXED) * 2654435761u);
  char suffix[7];

  for (int k = 0; k < 6; k++, seed /= sizeof alphabet - 1)
    suffix[k] = alphabet[seed % (sizeof alphabet - 1)];
  suffix[6] = '\0';
  snprintf (name, len, "%s/" TEMP_PREFIX "%08x-%ld-%s", dir, host_tag (), (long) getpid (), suffix);
}

int
_tprof_save_temp_open (const char  *dir,
                       char       **path)
{
  size_t len = strlen (dir) + sizeof "/" TEMP_PREFIX "01234567-" + 24 + sizeof "-XXXXXX";
  int fd = -1;

  *path = malloc (len);
  if (*path == NULL)
    return -1;
  errno = EEXIST;
  for (int attempt = 0; attempt < 100 && fd < 0 && errno == EEXIST; attempt++)
    {
      temp_name (dir, *path, len);
      fd = open (*path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    }
  if (fd < 0)
    {
      free (*path);
      *path = NULL;
    }
  return fd;
}

int
_tprof_save_temp_open_unnamed (const char  *dir,
                               char       **path)
{
  size_t len = strlen (dir) + sizeof "/" TEMP_PREFIX "01234567-" + 24 + sizeof "-XXXXXX";
  int fd;

  /* for the tests of the fallback (and of the sweep); and without /proc
   * only a privileged process could link the file in at the end */
  if (getenv ("TPROF_SAVE_NO_TMPFILE") != NULL || access ("/proc/self/fd", X_OK) != 0)
    return -1;
  *path = malloc (len);
  if (*path == NULL)
    return -1;
  /* not O_EXCL: it is to be linked in */
  fd = open (dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      free (*path);
      *path = NULL;
      return -1;
    }
  temp_name (dir, *path, len);
  return fd;
}

int
_tprof_save_temp_link (int         fd,
                       const char *dir,
                       char       *path)
{
  char proc[64];
  int status = -1;

  snprintf (proc, sizeof proc, "/proc/self/fd/%d", fd);
  errno = EEXIST;
  for (int attempt = 0; attempt < 100 && status < 0 && errno == EEXIST; attempt++)
    {
      if (attempt > 0)
        temp_name (dir, path, strlen (path) + 1);
      /* AT_EMPTY_PATH needs a capability; /proc's link does not */
      status = linkat (fd, "", AT_FDCWD, path, AT_EMPTY_PATH);
      if (status < 0 && errno != EEXIST)
        status = linkat (AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
    }
  return status;
}

/* The process that made temporary file @name, when it was made on this
 * host (tag @host); 0 when @name is not such a file. */
static pid_t
temp_owner (const char *name,
            uint32_t    host)
{
  unsigned tag;
  long pid;
  int end = 0;

  if (strncmp (name, TEMP_PREFIX, strlen (TEMP_PREFIX)) != 0
      || sscanf (name + strlen (TEMP_PREFIX), "%8x-%ld-%*6[A-Za-z0-9]%n", &tag, &pid, &end) < 2
      || end == 0 || name[strlen (TEMP_PREFIX) + (size_t) end] != '\0'
      || tag != host || pid <= 0 || pid == (long) getpid ())
    return 0;
  return (pid_t) pid;
}

/* A directory whose listing takes more than this (bytes of st_size: on
 * ext4 about a thousand names) is a crowded one, such as /tmp: reading it
 * costs a millisecond or more. */
#define SWEEP_SMALL_DIR ((off_t) 32 << 10)
/* How many crowded directories a process remembers having swept. */
#define SWEPT_MAX 16

/* Whether to sweep directory @st now: always when it is small; a crowded
 * one once per process (the first save there), since a leftover is rare
 * (an unnamed temporary file leaves none) and waits harmlessly for the
 * next process that saves there. */
static bool
sweep_due (const struct stat *st)
{
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  static struct { dev_t dev; ino_t ino; } swept[SWEPT_MAX];
  static unsigned n_swept;
  bool due = true;

  if (st->st_size <= SWEEP_SMALL_DIR)
    return true;
  pthread_mutex_lock (&lock);
  for (unsigned i = 0; due && i < n_swept && i < SWEPT_MAX; i++)
    due = swept[i].dev != st->st_dev || swept[i].ino != st->st_ino;
  if (due)
    {
      swept[n_swept % SWEPT_MAX].dev = st->st_dev;
      swept[n_swept % SWEPT_MAX].ino = st->st_ino;
      n_swept++;
    }
  pthread_mutex_unlock (&lock);
  return due;
}

void
_tprof_save_temp_sweep (const char *dir)
{
  uint32_t host = host_tag ();
  DIR *d = opendir (dir);
  int dir_fd = d != NULL ? dirfd (d) : -1;
  struct dirent *entry;
  struct stat dir_st;
  time_t now = time (NULL);

  if (d == NULL)
    return;
  if (fstat (dir_fd, &dir_st) != 0 || !sweep_due (&dir_st))
    {
      closedir (d);
      return;
    }
  while ((entry = readdir (d)) != NULL)
    {
      pid_t owner = temp_owner (entry->d_name, host);
      struct stat st;

      /* Only our user's regular files, old enough, whose process is gone. */
      if (owner == 0
          || fstatat (dir_fd, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0
          || !S_ISREG (st.st_mode) || st.st_uid != geteuid ()
          || now - st.st_mtime < TEMP_MIN_AGE_S
          || kill (owner, 0) == 0 || errno != ESRCH)
        continue;
      unlinkat (dir_fd, entry->d_name, 0);
    }
  closedir (d);
}
