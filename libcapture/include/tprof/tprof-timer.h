/* tprof-timer.h — the three ways to time a region: TPROF_TIMER, TPROF_SCOPE, tprof_timer_start/stop. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include <tprof/tprof-clock.h>
#include <tprof/tprof-macros.h>
#include <tprof/tprof-time-manager.h>

TPROF_BEGIN_DECLS

/* A call site of TPROF_SCOPE/TPROF_TIMER: caches the interned name id so the
 * hot path never hashes the name. Zero-initialised apart from @name. */
typedef struct
{
  const char *name;
  int         id;   /* 0 until first resolved; accessed atomically */
} TprofSite;

/* A running timer. Plain data: keep it on the stack. */
typedef struct
{
  TprofTimeManager *tm;
  void             *buffer;  /* this thread's buffer in @tm, resolved lazily */
  int               name_id;
  bool              running;
  int64_t           start_ticks;  /* tprof_clock_ticks() */
} TprofTimer;

/* A running TPROF_SCOPE. */
typedef struct
{
  int     name_id;   /* 0: nothing was enabled at the start, nothing to record */
  int64_t start_ticks;
} TprofScope;

/* Everything named _tprof_ below is plumbing of the macros: exported because
 * the macros expand in the application, but not API; it may change in any
 * release. */

/* Returns the process-wide id (>= 1) of @name, interning it on first use. */
TPROF_EXPORT int _tprof_name_intern (const char *name);
/* The name of @id (valid for the life of the process), or NULL. */
TPROF_EXPORT const char *_tprof_name_lookup (int id);
/* Returns @site's name id, resolving and caching it on first use. */
TPROF_EXPORT int _tprof_site_resolve (TprofSite *site);

/* Starts timing @name (any non-empty string; copied on first use) into @tm.
 * With a string literal the macro below caches the name's id at the call
 * site; any other string is looked up in a per-thread cache. */
TPROF_EXPORT TprofTimer tprof_timer_start (TprofTimeManager *tm, const char *name);
/* Macro plumbing: start a timer for a call site of TPROF_TIMER; for a
 * constant @name, cache its id in @site (zero-initialised) on first use. */
TPROF_EXPORT TprofTimer _tprof_timer_start_site (TprofTimeManager *tm, TprofSite *site);
TPROF_EXPORT TprofTimer _tprof_timer_start_literal (TprofTimeManager *tm, TprofSite *site,
                                                   const char *name);

#if defined(__GNUC__) || defined(__clang__)
# define tprof_timer_start(tm, name)                                                  \
  (__builtin_constant_p (name)                                                        \
     ? ({ static TprofSite _tprof_start_site;                                         \
          _tprof_timer_start_literal ((tm), &_tprof_start_site, (name)); })             \
     : (tprof_timer_start) ((tm), (name)))
#endif
/* Stops @timer and records its duration; a stopped timer is left alone.
 * Returns the duration in seconds (0 if the timer was not running). */
TPROF_EXPORT double tprof_timer_stop (TprofTimer *timer);
/* Macro plumbing: the cleanup-attribute helpers of TPROF_TIMER and TPROF_SCOPE. */
TPROF_EXPORT void _tprof_timer_cleanup (TprofTimer *timer);

/* Reads the clock and records a TPROF_SCOPE of @name_id begun at
 * @start_ticks into every manager enabled on this thread: out of line, so
 * that the application inlines only the start. Called through the GOT
 * rather than a PLT stub where the compiler allows. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((noplt))
#endif
TPROF_EXPORT void _tprof_scope_record (int name_id, int64_t start_ticks);
/* Notes that the TPROF_SCOPE of @name_id begun at @start_ticks is open,
 * for the hang watchdog (only while it follows the open regions). */
TPROF_EXPORT void _tprof_scope_opened (int name_id, int64_t start_ticks);

static inline TprofScope
_tprof_scope_begin (TprofSite *site)
{
  TprofScope scope = { 0, 0 };

  /* _tprof_record_state.enabled_anywhere lets TPROF_SCOPE skip everything
   * when nothing is enabled anywhere */
  if (TPROF_LIKELY (__atomic_load_n (&_tprof_record_state.enabled_anywhere, __ATOMIC_RELAXED) == 0))
    return scope;
  scope.name_id = __atomic_load_n (&site->id, __ATOMIC_RELAXED);
  if (TPROF_UNLIKELY (scope.name_id == 0))
    scope.name_id = _tprof_site_resolve (site);
  scope.start_ticks = tprof_clock_ticks ();
  if (TPROF_UNLIKELY (__atomic_load_n (&_tprof_record_state.regions_tracked, __ATOMIC_RELAXED) != 0))
    _tprof_scope_opened (scope.name_id, scope.start_ticks);
  return scope;
}

static inline void
_tprof_scope_end (TprofScope *scope)
{
  if (TPROF_LIKELY (scope->name_id == 0))
    return;
  _tprof_scope_record (scope->name_id, scope->start_ticks);
}

#define TPROF_PASTE_(a, b) a##b
#define TPROF_PASTE(a, b) TPROF_PASTE_ (a, b)

/* Times the rest of the enclosing scope as @name (a string literal) and, when
 * the scope exits by any path (end, return, break, goto), records the duration
 * into every manager enabled on this thread, bottom to top. Nothing enabled on
 * this thread: records nothing. */
#define TPROF_SCOPE(name)                                                       \
  static TprofSite TPROF_PASTE (_tprof_site_, __LINE__) = { "" name "", 0 };    \
  __attribute__((cleanup (_tprof_scope_end), unused))                            \
  TprofScope TPROF_PASTE (_tprof_scope_, __LINE__) =                            \
    _tprof_scope_begin (&TPROF_PASTE (_tprof_site_, __LINE__))

/* TPROF_TIMER (tm, "name") { ... } times the block into @tm. Leaving the block
 * by return or goto still records; `break` and `continue` inside the block end
 * the timed block itself (it is a one-pass loop), and record too. */
#define TPROF_TIMER(tm, name)                                                   \
  for (__attribute__((cleanup (_tprof_timer_cleanup)))                           \
       TprofTimer TPROF_PASTE (_tprof_timer_, __LINE__) =                       \
         _tprof_timer_start_site ((tm), ({ static TprofSite _tprof_s = { "" name "", 0 }; &_tprof_s; })); \
       TPROF_PASTE (_tprof_timer_, __LINE__).running;                           \
       tprof_timer_stop (&TPROF_PASTE (_tprof_timer_, __LINE__)))

TPROF_END_DECLS
