/* tprof-spill-ended.c — the note a clean end leaves where it removed its spill files: DIR/tprof-JOB.ended, naming the profile the job wrote. */
/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tprof-spill-internal.h"
#include "tprof-spill-reader-internal.h"

/* "DIR/tprof-JOB" of a spill file's path "DIR/tprof-JOB-RANK.spill". */
static char *
job_prefix (const char *spill_path)
{
  const char *dash = strrchr (spill_path, '-');
  char *prefix;

  if (dash == NULL || (prefix = malloc ((size_t) (dash - spill_path) + 1)) == NULL)
    return NULL;
  memcpy (prefix, spill_path, (size_t) (dash - spill_path));
  prefix[dash - spill_path] = '\0';
  return prefix;
}

void
_tprof_spill_note_ended (const char *spill_path,
                         const char *profile_path)
{
  char *prefix = job_prefix (spill_path), *tmp = NULL, *note = NULL;
  int fd = -1;

  if (prefix != NULL && asprintf (&tmp, "%s.ended.%d.tmp", prefix, (int) getpid ()) >= 0
      && asprintf (&note, "%s.ended", prefix) >= 0
      && (fd = open (tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) >= 0)
    {
      size_t len = strlen (profile_path);
      /* several ranks may name the profile: each replaces the note whole */
      int ok = write (fd, profile_path, len) == (ssize_t) len && write (fd, "\n", 1) == 1;

      if (close (fd) != 0 || !ok || rename (tmp, note) != 0)
        {
          fprintf (stderr, "tprof: spill note %s: cannot write it: %s\n", note, strerror (errno));
          unlink (tmp);
        }
    }
  free (prefix);
  free (tmp);
  free (note);
}

/* The profile named in @path's note (its first line), NULL when it
 * cannot be read or is empty. */
static char *
read_note (const char *path)
{
  FILE *f = fopen (path, "re");
  char *line = NULL;
  size_t size = 0;
  ssize_t len;

  if (f == NULL)
    return NULL;
  len = getline (&line, &size, f);
  fclose (f);
  if (len > 0 && line[len - 1] == '\n')
    line[--len] = '\0';
  if (len <= 0)
    {
      free (line);
      return NULL;
    }
  return line;
}

char *
_tprof_spill_dir_ended (const char *dir,
                        const char *token,
                        char        found_token[17])
{
  DIR *d = opendir (dir);
  struct dirent *entry;
  char *profile = NULL;
  int n = 0;

  if (d == NULL)
    return NULL;
  while ((entry = readdir (d)) != NULL)
    {
      const char *name = entry->d_name;

      if (strncmp (name, "tprof-", 6) != 0 || strlen (name) != 6 + 16 + 6 || strcmp (name + 22, ".ended") != 0
          || strspn (name + 6, "0123456789abcdef") != 16 || (token != NULL && strncmp (name + 6, token, 16) != 0))
        continue;
      if (n++ == 0)
        {
          char *path = malloc (strlen (dir) + strlen (name) + 2);

          if (path != NULL)
            {
              sprintf (path, "%s/%s", dir, name);
              profile = read_note (path);
              free (path);
            }
          memcpy (found_token, name + 6, 16);
          found_token[16] = '\0';
        }
    }
  closedir (d);
  if (n != 1)
    {
      /* several jobs ended here: which one is meant is not known */
      free (profile);
      return NULL;
    }
  return profile;
}
