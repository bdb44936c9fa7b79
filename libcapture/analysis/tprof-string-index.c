/* tprof-string-index.c — a hash table from strings to numbers: the host and group names of a topology. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "tprof-string-index-private.h"

/* FNV-1a: names are short and this is far from any hot path */
static uint64_t
hash_string (const char *s)
{
  uint64_t h = 1469598103934665603ull;

  for (; *s != '\0'; s++)
    h = (h ^ (unsigned char) *s) * 1099511628211ull;
  return h;
}

bool
_tprof_string_index_init (TprofStringIndex *index,
                          size_t            max_keys)
{
  size_t capacity = 16;

  while (capacity < 2 * max_keys)
    capacity *= 2;
  index->mask = capacity - 1;
  index->keys = calloc (capacity, sizeof *index->keys);
  index->values = calloc (capacity, sizeof *index->values);
  if (index->keys == NULL || index->values == NULL)
    {
      _tprof_string_index_clear (index);
      return false;
    }
  return true;
}

void
_tprof_string_index_clear (TprofStringIndex *index)
{
  free (index->keys);
  free (index->values);
  index->keys = NULL;
  index->values = NULL;
}

/* The slot holding @key, or the empty slot where it belongs. */
static size_t
find_slot (const TprofStringIndex *index,
           const char             *key)
{
  size_t slot = hash_string (key) & index->mask;

  while (index->keys[slot] != NULL && strcmp (index->keys[slot], key) != 0)
    slot = (slot + 1) & index->mask;
  return slot;
}

uint32_t
_tprof_string_index_intern (TprofStringIndex *index,
                            const char       *key,
                            uint32_t          value,
                            bool             *added)
{
  size_t slot = find_slot (index, key);

  *added = index->keys[slot] == NULL;
  if (*added)
    {
      index->keys[slot] = key;
      index->values[slot] = value;
    }
  return index->values[slot];
}

bool
_tprof_string_index_lookup (const TprofStringIndex *index,
                            const char             *key,
                            uint32_t               *value)
{
  size_t slot = find_slot (index, key);

  if (index->keys[slot] == NULL)
    return false;
  *value = index->values[slot];
  return true;
}
