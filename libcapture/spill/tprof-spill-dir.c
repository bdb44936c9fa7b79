/* tprof-spill-dir.c — the spill files of a directory: which jobs they belong to, and one job's files opened and checked against each other. */
/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "tprof-spill-reader-private.h"

/* Parses "tprof-JOB-RANK.spill" (JOB 16 lowercase hex digits, RANK decimal
 * without leading zeros): true with @token and @rank filled. */
static bool
parse_name (const char *name,
            char        token[17],
            int        *rank)
{
  const char *p = name;
  long value = 0;

  if (strncmp (p, "tprof-", 6) != 0)
    return false;
  p += 6;
  for (int i = 0; i < 16; i++)
    if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f')))
      return false;
  if (p[16] != '-')
    return false;
  memcpy (token, p, 16);
  token[16] = '\0';
  p += 17;
  if (*p < '0' || *p > '9' || (*p == '0' && p[1] != '.'))
    return false;
  for (; *p >= '0' && *p <= '9'; p++)
    {
      value = value * 10 + (*p - '0');
      if (value > INT_MAX)
        return false;
    }
  *rank = (int) value;
  return strcmp (p, ".spill") == 0;
}

static int
compare_jobs (const void *a,
              const void *b)
{
  return strcmp (((const TprofSpillDirJob *) a)->token, ((const TprofSpillDirJob *) b)->token);
}

ssize_t
_tprof_spill_dir_jobs (const char        *dir,
                       TprofSpillDirJob **jobs,
                       TprofError        *error)
{
  DIR *d = opendir (dir);
  struct dirent *entry;
  size_t n = 0, capacity = 0;

  *jobs = NULL;
  if (d == NULL)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: %s", dir, strerror (errno));
  while ((entry = readdir (d)) != NULL)
    {
      char token[17];
      int rank;
      size_t j = 0;

      if (!parse_name (entry->d_name, token, &rank))
        continue;
      while (j < n && strcmp ((*jobs)[j].token, token) != 0)
        j++;
      if (j == n)
        {
          if (n == capacity)
            {
              TprofSpillDirJob *grown = realloc (*jobs, (capacity = capacity ? 2 * capacity : 4) * sizeof *grown);

              if (grown == NULL)
                {
                  closedir (d);
                  free (*jobs);
                  *jobs = NULL;
                  return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", dir);
                }
              *jobs = grown;
            }
          memcpy ((*jobs)[n].token, token, sizeof token);
          (*jobs)[n++].n_files = 0;
        }
      (*jobs)[j].n_files++;
    }
  closedir (d);
  if (n > 1)
    qsort (*jobs, n, sizeof **jobs, compare_jobs);
  return (ssize_t) n;
}

void
_tprof_spill_job_free (TprofSpillJob *job)
{
  if (job == NULL)
    return;
  for (size_t r = 0; r < (size_t) job->world_size && job->readers != NULL; r++)
    _tprof_spill_reader_close (job->readers[r]);
  free (job->readers);
  for (size_t i = 0; i < job->n_refused; i++)
    {
      free (job->refused[i].path);
      free (job->refused[i].problem);
    }
  free (job->refused);
  free (job);
}

/* The files of the job, opened; a file that cannot be opened is refused. */
typedef struct
{
  char             *path;
  int               rank;
  TprofSpillReader *reader;
  char             *problem;
} JobFile;

static bool
refuse (JobFile    *file,
        const char *format,
        ...) __attribute__ ((format (printf, 2, 3)));

static bool
refuse (JobFile    *file,
        const char *format,
        ...)
{
  va_list args;
  char text[512];

  va_start (args, format);
  vsnprintf (text, sizeof text, format, args);
  va_end (args);
  _tprof_spill_reader_close (file->reader);
  file->reader = NULL;
  free (file->problem);
  file->problem = strdup (text);
  return file->problem != NULL;
}

/* Opens the @n_files files of @token in @dir into a new array. */
static JobFile *
open_files (const char *dir,
            const char *token,
            size_t     *n_files,
            TprofError *error)
{
  DIR *d = opendir (dir);
  struct dirent *entry;
  JobFile *files = NULL;
  size_t n = 0, capacity = 0;

  if (d == NULL)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: %s", dir, strerror (errno)), NULL;
  while ((entry = readdir (d)) != NULL)
    {
      char name_token[17];
      int rank;
      TprofError open_error = { 0 };
      JobFile *file;

      if (!parse_name (entry->d_name, name_token, &rank) || strcmp (name_token, token) != 0)
        continue;
      if (n == capacity)
        {
          JobFile *grown = realloc (files, (capacity = capacity ? 2 * capacity : 16) * sizeof *grown);

          if (grown == NULL)
            break;
          files = grown;
        }
      file = &files[n++];
      *file = (JobFile) { .rank = rank };
      if (asprintf (&file->path, "%s/%s", dir, entry->d_name) < 0)
        {
          file->path = NULL;
          break;
        }
      file->reader = _tprof_spill_reader_open (file->path, &open_error);
      if (file->reader == NULL)
        {
          /* the message names the file: keep what follows its name */
          const char *problem = open_error.message;

          if (strncmp (problem, file->path, strlen (file->path)) == 0 && problem[strlen (file->path)] == ':')
            problem += strlen (file->path) + 2;
          refuse (file, "%s", problem);
        }
    }
  closedir (d);
  *n_files = n;
  if (entry != NULL)
    {
      for (size_t i = 0; i < n; i++)
        {
          free (files[i].path);
          free (files[i].problem);
          _tprof_spill_reader_close (files[i].reader);
        }
      free (files);
      return tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", dir), NULL;
    }
  return files;
}

/* The world size most headers agree on (the smallest of equals), 0 when
 * none is readable. */
static int
agreed_world_size (const JobFile *files,
                   size_t         n)
{
  int best = 0;
  size_t best_votes = 0;

  for (size_t i = 0; i < n; i++)
    {
      size_t votes = 0;
      int ws;

      if (files[i].reader == NULL)
        continue;
      ws = files[i].reader->header.world_size;
      for (size_t j = 0; j < n; j++)
        votes += files[j].reader != NULL && files[j].reader->header.world_size == ws;
      if (votes > best_votes || (votes == best_votes && ws < best))
        best = ws, best_votes = votes;
    }
  return best;
}

/* Checks each open file against its name and @world_size; moves the
 * readers of the good ones into @job, refusing the others. */
static bool
check_files (TprofSpillJob *job,
             JobFile       *files,
             size_t         n)
{
  uint64_t token = strtoull (job->token, NULL, 16);

  for (size_t i = 0; i < n; i++)
    {
      JobFile *file = &files[i];
      const TprofSpillHeader *h = file->reader != NULL ? &file->reader->header : NULL;
      bool ok = true;

      if (h == NULL)
        continue;
      if (h->job != token)
        ok = refuse (file, "its header is of job %016" PRIx64 ", its name of job %s", h->job, job->token);
      else if (h->rank != file->rank)
        ok = refuse (file, "its header is of rank %" PRId32 ", its name of rank %d", h->rank, file->rank);
      else if (h->world_size != job->world_size)
        ok = refuse (file, "its header says %" PRId32 " ranks, the job's other files %d", h->world_size, job->world_size);
      else if (job->readers[h->rank] != NULL)
        ok = refuse (file, "a second file of rank %d", file->rank);
      else
        {
          job->readers[h->rank] = file->reader;
          job->n_readers++;
          file->reader = NULL;
        }
      if (!ok)
        return false;
    }
  return true;
}

static TprofSpillJob *
job_new (const char *token,
         JobFile    *files,
         size_t      n,
         TprofError *error)
{
  TprofSpillJob *job = calloc (1, sizeof *job);
  bool ok = job != NULL;

  if (ok)
    {
      memcpy (job->token, token, 17);
      job->world_size = agreed_world_size (files, n);
      job->readers = calloc (job->world_size > 0 ? (size_t) job->world_size : 1, sizeof *job->readers);
      job->refused = calloc (n, sizeof *job->refused);
      ok = job->readers != NULL && job->refused != NULL && check_files (job, files, n);
    }
  for (size_t i = 0; ok && i < n; i++)
    if (files[i].problem != NULL)
      {
        job->refused[job->n_refused++] = (TprofSpillRefused) { files[i].path, files[i].rank, files[i].problem };
        files[i].path = files[i].problem = NULL;
      }
  if (!ok)
    {
      if (job != NULL)
        job->world_size = job->readers != NULL ? job->world_size : 0;
      _tprof_spill_job_free (job);
      tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "out of memory");
      return NULL;
    }
  return job;
}

TprofSpillJob *
_tprof_spill_job_open (const char *dir,
                       const char *token,
                       TprofError *error)
{
  TprofSpillDirJob *jobs;
  ssize_t n_jobs = _tprof_spill_dir_jobs (dir, &jobs, error);
  TprofSpillJob *job = NULL;
  JobFile *files;
  size_t n = 0, found = 0;

  if (n_jobs < 0)
    return NULL;
  for (ssize_t j = 0; j < n_jobs; j++)
    if (token != NULL && strcmp (jobs[j].token, token) == 0)
      found = (size_t) j + 1;
  if (n_jobs == 0)
    tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: no spill file (tprof-JOB-RANK.spill) in this directory", dir);
  else if (token == NULL && n_jobs > 1)
    tprof_error_set (error, TPROF_ERROR_INVALID, "%s: the spill files of %zd jobs are in this directory", dir, n_jobs);
  else if (token != NULL && found == 0)
    tprof_error_set (error, TPROF_ERROR_INVALID, "%s: no spill file of job %s in this directory", dir, token);
  else if ((files = open_files (dir, jobs[found != 0 ? found - 1 : 0].token, &n, error)) != NULL)
    {
      job = job_new (jobs[found != 0 ? found - 1 : 0].token, files, n, error);
      for (size_t i = 0; i < n; i++)
        {
          free (files[i].path);
          free (files[i].problem);
          _tprof_spill_reader_close (files[i].reader);
        }
      free (files);
    }
  free (jobs);
  return job;
}
