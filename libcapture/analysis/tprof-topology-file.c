/* tprof-topology-file.c — reading a topology file: the levels above host, and the group of each host or rank at each (docs/topology.md). */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-gathered-time-private.h"
#include "tprof-string-index-private.h"
#include "tprof-topology-private.h"

#define MAX_FIELDS (TPROF_TOPOLOGY_MAX_LEVELS + 1)

typedef struct
{
  TprofTopology   *topo;
  const char      *origin;
  TprofError      *error;
  char            *levels[TPROF_TOPOLOGY_MAX_LEVELS];
  size_t           n_levels;     /* above host; 0 until the 'levels' line */
  char           **groups;       /* per host or rank line, n_levels names */
  size_t           n_lines;
  TprofStringIndex hosts;        /* host name -> line */
  int32_t         *rank_line;    /* per rank: its 'rank' line, or -1 */
  size_t          *line_number;  /* per line: where it is in the text */
} Parser;

/* Splits @line (modified) at blanks, up to MAX_FIELDS fields, after
 * cutting a comment; returns their number, MAX_FIELDS + 1 when more. */
static size_t
split_fields (char  *line,
              char **fields)
{
  size_t n = 0;
  char *hash = strchr (line, '#');

  if (hash != NULL)
    *hash = '\0';
  for (char *p = line;;)
    {
      p += strspn (p, " \t\r\v\f");
      if (*p == '\0')
        return n;
      if (n == MAX_FIELDS)
        return MAX_FIELDS + 1;
      fields[n++] = p;
      p += strcspn (p, " \t\r\v\f");
      if (*p != '\0')
        *p++ = '\0';
    }
}

static int
parse_levels (Parser  *ps,
              size_t   lineno,
              char   **fields,
              size_t   n)
{
  if (ps->n_levels > 0)
    return tprof_error_set (ps->error, TPROF_ERROR_FORMAT, "%s:%zu: a second 'levels' line", ps->origin, lineno);
  if (n < 2 || n > TPROF_TOPOLOGY_MAX_LEVELS - 1)
    return tprof_error_set (ps->error, TPROF_ERROR_FORMAT, "%s:%zu: 'levels' needs 1 to %d level names",
                            ps->origin, lineno, TPROF_TOPOLOGY_MAX_LEVELS - 2);
  for (size_t i = 1; i < n; i++)
    {
      bool taken = strcmp (fields[i], "rank") == 0 || strcmp (fields[i], "host") == 0;

      for (size_t j = 1; j < i; j++)
        taken = taken || strcmp (fields[i], fields[j]) == 0;
      if (taken)
        return tprof_error_set (ps->error, TPROF_ERROR_FORMAT, "%s:%zu: level '%s' is named twice (rank and "
                                "host are built in)", ps->origin, lineno, fields[i]);
      ps->levels[ps->n_levels++] = fields[i];
    }
  return 0;
}

/* "N" or "A-B", comma-separated, within the run. */
static int
parse_rank_expr (Parser     *ps,
                 size_t      lineno,
                 const char *expr,
                 int         line)
{
  int world = tprof_topology_world_size (ps->topo);

  for (const char *p = expr; *p != '\0';)
    {
      char *end;
      long lo, hi;

      errno = 0;
      lo = hi = *p >= '0' && *p <= '9' ? strtol (p, &end, 10) : -1;
      if (lo >= 0 && *end == '-' && end[1] >= '0' && end[1] <= '9')
        hi = strtol (end + 1, &end, 10);
      if (lo < 0 || errno != 0 || (*end != ',' && *end != '\0') || hi < lo || hi >= world)
        return tprof_error_set (ps->error, TPROF_ERROR_FORMAT, "%s:%zu: bad ranks '%s' (expected N or A-B, "
                                "comma-separated, below the run's %d ranks)", ps->origin, lineno, expr, world);
      for (long r = lo; r <= hi; r++)
        {
          if (ps->rank_line[r] >= 0)
            return tprof_error_set (ps->error, TPROF_ERROR_FORMAT, "%s:%zu: rank %ld already has a line (%zu)",
                                    ps->origin, lineno, r, ps->line_number[ps->rank_line[r]]);
          ps->rank_line[r] = line;
        }
      p = *end == ',' ? end + 1 : end;
    }
  return 0;
}

/* A 'host NAME GROUP...' or 'rank EXPR GROUP...' line. */
static int
parse_member (Parser  *ps,
              size_t   lineno,
              char   **fields,
              size_t   n)
{
  size_t line = ps->n_lines;
  bool added;

  if (ps->n_levels == 0)
    return tprof_error_set (ps->error, TPROF_ERROR_FORMAT, "%s:%zu: '%s' before the 'levels' line",
                            ps->origin, lineno, fields[0]);
  if (n != ps->n_levels + 2)
    return tprof_error_set (ps->error, TPROF_ERROR_FORMAT, "%s:%zu: %zu groups for %zu levels ('%s NAME' "
                            "then one group per level)", ps->origin, lineno, n < 2 ? 0 : n - 2, ps->n_levels,
                            fields[0]);
  if (strcmp (fields[0], "host") == 0)
    {
      uint32_t first = _tprof_string_index_intern (&ps->hosts, fields[1], (uint32_t) line, &added);

      if (!added)
        return tprof_error_set (ps->error, TPROF_ERROR_FORMAT, "%s:%zu: host %s already has a line (%zu)",
                                ps->origin, lineno, fields[1], ps->line_number[first]);
    }
  else if (parse_rank_expr (ps, lineno, fields[1], (int) line) != 0)
    return -1;
  memcpy (ps->groups + line * ps->n_levels, fields + 2, ps->n_levels * sizeof *fields);
  ps->line_number[line] = lineno;
  ps->n_lines++;
  return 0;
}

static int
parse_line (Parser *ps,
            size_t  lineno,
            char   *text)
{
  char *fields[MAX_FIELDS];
  size_t n = split_fields (text, fields);

  if (n == 0)
    return 0;
  if (n > MAX_FIELDS)
    return tprof_error_set (ps->error, TPROF_ERROR_FORMAT, "%s:%zu: more than %d levels", ps->origin, lineno,
                            TPROF_TOPOLOGY_MAX_LEVELS - 2);
  if (strcmp (fields[0], "levels") == 0)
    return parse_levels (ps, lineno, fields, n);
  if (strcmp (fields[0], "host") == 0 || strcmp (fields[0], "rank") == 0)
    return parse_member (ps, lineno, fields, n);
  return tprof_error_set (ps->error, TPROF_ERROR_FORMAT, "%s:%zu: unknown line '%s' (expected levels, host "
                          "or rank)", ps->origin, lineno, fields[0]);
}

/* The line placing rank @r: its 'rank' line, else its host's. */
static int
line_of_rank (Parser *ps,
              int     r)
{
  const TprofTopology *topo = ps->topo;
  const char *host = tprof_topology_group_name (topo, TPROF_TOPOLOGY_HOST,
                                                tprof_topology_group_of (topo, TPROF_TOPOLOGY_HOST, r));
  uint32_t line;

  if (ps->rank_line[r] >= 0)
    return ps->rank_line[r];
  if (host[0] != '\0' && _tprof_string_index_lookup (&ps->hosts, host, &line))
    return (int) line;
  if (host[0] == '\0')
    return tprof_error_set (ps->error, TPROF_ERROR_FORMAT, "%s: rank %d has no host name and no 'rank' line",
                            ps->origin, r);
  return tprof_error_set (ps->error, TPROF_ERROR_FORMAT, "%s: rank %d (host %s) has no line: add 'host %s ...' "
                          "or 'rank %d ...'", ps->origin, r, host, host, r);
}

/* Adds the parsed levels to the topology, all or none. */
static int
add_levels (Parser *ps)
{
  int world = tprof_topology_world_size (ps->topo);
  size_t before = tprof_topology_n_levels (ps->topo);
  const char **names = _tprof_malloc_array ((size_t) world, sizeof *names);
  int32_t *lines = _tprof_malloc_array ((size_t) world, sizeof *lines);
  int status = names != NULL && lines != NULL ? 0
               : tprof_error_set (ps->error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", ps->origin);

  for (int r = 0; status == 0 && r < world; r++)
    status = (lines[r] = line_of_rank (ps, r)) < 0 ? -1 : 0;
  for (size_t i = 0; status == 0 && i < ps->n_levels; i++)
    {
      for (int r = 0; r < world; r++)
        names[r] = ps->groups[(size_t) lines[r] * ps->n_levels + i];
      status = _tprof_topology_add_level (ps->topo, ps->levels[i], names, ps->origin, ps->error);
    }
  if (status != 0)
    _tprof_topology_truncate (ps->topo, before);
  free (names);
  free (lines);
  return status;
}

static int
parse_text (Parser *ps,
            char   *text)
{
  size_t lineno = 1;
  int status = 0;

  for (char *line = text; status == 0 && line != NULL; lineno++)
    {
      char *next = strchr (line, '\n');

      if (next != NULL)
        *next++ = '\0';
      status = parse_line (ps, lineno, line);
      line = next;
    }
  if (status == 0 && ps->n_levels == 0)
    return tprof_error_set (ps->error, TPROF_ERROR_FORMAT, "%s: no 'levels' line (e.g. 'levels switch rack')",
                            ps->origin);
  return status == 0 ? add_levels (ps) : -1;
}

int
tprof_topology_parse (TprofTopology *topo,
                      const char    *text,
                      size_t         length,
                      const char    *origin,
                      TprofError    *error)
{
  Parser ps = { .topo = topo, .origin = origin, .error = error };
  size_t max_lines = 1;
  char *copy;
  int status;

  if (tprof_topology_n_levels (topo) > 2)
    return tprof_error_set (error, TPROF_ERROR_INVALID, "%s: the topology already has levels above host", origin);
  if (memchr (text, '\0', length) != NULL)
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: not a text file (a NUL byte)", origin);
  for (size_t i = 0; i < length; i++)
    max_lines += text[i] == '\n';
  copy = malloc (length + 1);
  ps.groups = _tprof_malloc_array (max_lines * (TPROF_TOPOLOGY_MAX_LEVELS - 2), sizeof *ps.groups);
  ps.line_number = _tprof_malloc_array (max_lines, sizeof *ps.line_number);
  ps.rank_line = _tprof_malloc_array ((size_t) tprof_topology_world_size (topo), sizeof *ps.rank_line);
  if (copy == NULL || ps.groups == NULL || ps.line_number == NULL || ps.rank_line == NULL
      || !_tprof_string_index_init (&ps.hosts, max_lines))
    status = tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", origin);
  else
    {
      memcpy (copy, text, length);
      copy[length] = '\0';
      memset (ps.rank_line, 0xff, (size_t) tprof_topology_world_size (topo) * sizeof *ps.rank_line);
      status = parse_text (&ps, copy);
    }
  _tprof_string_index_clear (&ps.hosts);
  free (copy);
  free (ps.groups);
  free (ps.line_number);
  free (ps.rank_line);
  return status;
}

/* The whole of @f into *@text (malloc'd, *@length bytes); 0 or an errno. */
static int
read_all (FILE    *f,
          char   **text,
          size_t  *length)
{
  size_t capacity = 0;

  for (;;)
    {
      size_t got;

      if (*length == capacity)
        {
          char *bigger = realloc (*text, capacity = capacity * 2 + 65536);

          if (bigger == NULL)
            return ENOMEM;
          *text = bigger;
        }
      got = fread (*text + *length, 1, capacity - *length, f);
      *length += got;
      if (got == 0)
        return ferror (f) ? (errno != 0 ? errno : EIO) : 0;
    }
}

int
tprof_topology_load (TprofTopology *topo,
                     const char    *path,
                     TprofError    *error)
{
  FILE *f = fopen (path, "rb");
  char *text = NULL;
  size_t length = 0;
  int status;

  if (f == NULL)
    return tprof_error_set (error, TPROF_ERROR_IO, "%s: %s", path, strerror (errno));
  errno = 0;
  status = read_all (f, &text, &length);
  fclose (f);
  if (status != 0)
    status = tprof_error_set (error, status == ENOMEM ? TPROF_ERROR_NO_MEMORY : TPROF_ERROR_IO, "%s: %s", path,
                              strerror (status));
  else
    status = tprof_topology_parse (topo, text, length, path, error);
  free (text);
  return status;
}
