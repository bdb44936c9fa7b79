/* tprof-string-index-private.h — a hash table from strings (not copied) to numbers, for grouping ranks by name. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Open addressing over a power-of-two table sized once for at most
 * @max_keys keys: no growth, so lookups never move a key. */
typedef struct
{
  const char **keys;
  uint32_t    *values;
  size_t       mask;
} TprofStringIndex;

/* false when memory is exhausted. */
bool _tprof_string_index_init (TprofStringIndex *index,
                               size_t            max_keys);
void _tprof_string_index_clear (TprofStringIndex *index);

/* The value of @key; when absent, @key (which must outlive @index) is
 * added with @value and *@added set. Adding more than max_keys keys is a
 * programming error. */
uint32_t _tprof_string_index_intern (TprofStringIndex *index,
                                     const char       *key,
                                     uint32_t          value,
                                     bool             *added);
/* The value of @key in *@value; false when absent. */
bool _tprof_string_index_lookup (const TprofStringIndex *index,
                                 const char             *key,
                                 uint32_t               *value);
