/* tprof-names.c — the process-wide table of operation names, so timers carry small integer ids. */
/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-h5-internal.h"
#include "tprof-names-private.h"
#include "tprof-time-manager-internal.h"
#include "tprof/tprof-timer.h"

/* Ids index a two-level table of fixed blocks, so a lookup never races with
 * a table that is being reallocated. */
#define NAMES_PER_BLOCK 1024
#define MAX_BLOCKS      (TPROF_MAX_NAME_ID / NAMES_PER_BLOCK)

static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;
static const char **name_blocks[MAX_BLOCKS];
static int n_names;

/* name -> id, open addressing; guarded by names_lock */
static int *hash_slots;
static size_t hash_capacity;

/* A per-thread cache in front of the locked table: looking a name up from
 * tprof_time_manager_append_time() or tprof_timer_start() takes no lock
 * shared between threads once the thread has seen the name. It lives on
 * the heap, reached through one initial-exec pointer: glibc keeps only a
 * few hundred bytes of static TLS for libraries loaded with dlopen (a
 * Python extension's), and 6 KB of cache there made `import tprof` fail. */
#define THREAD_CACHE_SIZE 256
typedef struct
{
  const char *name;  /* interned copy */
  uint32_t    hash;
  int         id;
} ThreadCacheEntry;
static __thread ThreadCacheEntry *thread_cache __attribute__((tls_model ("initial-exec")));
static pthread_key_t thread_cache_key;
static pthread_once_t thread_cache_once = PTHREAD_ONCE_INIT;
static bool thread_cache_key_ok;

/* At thread exit; a later lookup on this thread allocates anew. */
static void
thread_cache_free (void *cache)
{
  if (thread_cache == cache)
    thread_cache = NULL;
  free (cache);
}

static void
thread_cache_key_create (void)
{
  thread_cache_key_ok = pthread_key_create (&thread_cache_key, thread_cache_free) == 0;
}

/* This thread's cache, or NULL when memory is exhausted (the locked table
 * still answers). */
static ThreadCacheEntry *
thread_cache_get (void)
{
  ThreadCacheEntry *cache = thread_cache;

  if (TPROF_LIKELY (cache != NULL))
    return cache;
  pthread_once (&thread_cache_once, thread_cache_key_create);
  if (!thread_cache_key_ok)
    return NULL;
  cache = calloc (THREAD_CACHE_SIZE, sizeof *cache);
  if (cache != NULL && pthread_setspecific (thread_cache_key, cache) != 0)
    {
      free (cache);
      cache = NULL;
    }
  thread_cache = cache;
  return cache;
}

static uint32_t
hash_name (const char *name)
{
  uint32_t h = 2166136261u; /* FNV-1a */

  for (const unsigned char *p = (const unsigned char *) name; *p; p++)
    h = (h ^ *p) * 16777619u;
  return h;
}

const char *
_tprof_name_lookup (int id)
{
  const char **block;

  if (id < 1 || id > __atomic_load_n (&n_names, __ATOMIC_ACQUIRE))
    return NULL;
  block = __atomic_load_n (&name_blocks[id / NAMES_PER_BLOCK], __ATOMIC_ACQUIRE);
  return block[id % NAMES_PER_BLOCK];
}

static bool
hash_grow (void)
{
  size_t new_capacity = hash_capacity ? hash_capacity * 2 : 1024;
  int *new_slots = calloc (new_capacity, sizeof *new_slots);

  if (new_slots == NULL)
    return false;
  for (size_t i = 0; i < hash_capacity; i++)
    {
      int id = hash_slots[i];
      size_t j;

      if (id == 0)
        continue;
      j = hash_name (_tprof_name_lookup (id)) & (new_capacity - 1);
      while (new_slots[j] != 0)
        j = (j + 1) & (new_capacity - 1);
      new_slots[j] = id;
    }
  free (hash_slots);
  hash_slots = new_slots;
  hash_capacity = new_capacity;
  return true;
}

/* Adds @name as a new id; names_lock held. Returns 0 when full or out of memory. */
static int
names_add_locked (const char *name)
{
  int id = n_names + 1;
  const char **block;
  char *copy;

  if (id >= TPROF_MAX_NAME_ID)
    return 0;
  block = name_blocks[id / NAMES_PER_BLOCK];
  if (block == NULL)
    {
      block = calloc (NAMES_PER_BLOCK, sizeof *block);
      if (block == NULL)
        return 0;
      __atomic_store_n (&name_blocks[id / NAMES_PER_BLOCK], block, __ATOMIC_RELEASE);
    }
  copy = strdup (name);
  if (copy == NULL)
    return 0;
  block[id % NAMES_PER_BLOCK] = copy;
  __atomic_store_n (&n_names, id, __ATOMIC_RELEASE);
  return id;
}

static int
names_intern_locked (const char *name, uint32_t hash)
{
  size_t j;
  int id;

  if ((size_t) n_names * 2 >= hash_capacity && !hash_grow ())
    return 0;
  for (j = hash & (hash_capacity - 1); hash_slots[j] != 0; j = (j + 1) & (hash_capacity - 1))
    if (strcmp (_tprof_name_lookup (hash_slots[j]), name) == 0)
      return hash_slots[j];
  id = names_add_locked (name);
  if (id != 0)
    hash_slots[j] = id;
  return id;
}

int
_tprof_name_intern (const char *name)
{
  uint32_t hash;
  ThreadCacheEntry *cache, *entry = NULL;
  int id;

  if (name == NULL || name[0] == '\0')
    return 0;
  hash = hash_name (name);
  cache = thread_cache_get ();
  if (cache != NULL)
    {
      entry = &cache[hash % THREAD_CACHE_SIZE];
      if (entry->id != 0 && entry->hash == hash && strcmp (entry->name, name) == 0)
        return entry->id;
    }

  /* a profile file holds only UTF-8 names: refuse here, visibly, rather
   * than fail the whole save later (checked where a thread first meets
   * the name, outside the lock: the report may call the application) */
  if (!_tprof_h5_utf8_valid (name, strlen (name)))
    {
      char shown[96], message[192];

      _tprof_h5_printable (name, shown, sizeof shown);
      snprintf (message, sizeof message, "the operation name \"%s\" is not valid UTF-8; not recorded", shown);
      _tprof_misuse (message);
      return 0;
    }
  pthread_mutex_lock (&names_lock);
  id = names_intern_locked (name, hash);
  pthread_mutex_unlock (&names_lock);

  if (id != 0 && entry != NULL)
    {
      entry->name = _tprof_name_lookup (id);
      entry->hash = hash;
      entry->id = id;
    }
  return id;
}

int
_tprof_site_resolve (TprofSite *site)
{
  int id = __atomic_load_n (&site->id, __ATOMIC_ACQUIRE);

  if (id == 0)
    {
      id = _tprof_name_intern (site->name);
      __atomic_store_n (&site->id, id, __ATOMIC_RELEASE);
    }
  return id;
}

int
_tprof_names_max_id (void)
{
  return __atomic_load_n (&n_names, __ATOMIC_ACQUIRE);
}
