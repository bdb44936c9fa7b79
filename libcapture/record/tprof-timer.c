/* tprof-timer.c — explicit timers: tprof_timer_start/stop and the TPROF_TIMER block. */
/* SPDX-License-Identifier: MIT */
#include "tprof-clock-private.h"
#include "tprof-hang-watch-internal.h"
#include "tprof-time-manager-internal.h"
#include "tprof/tprof-timer.h"

TprofTimer
(tprof_timer_start) (TprofTimeManager *tm, const char *name)
{
  TprofTimer timer = { tm, NULL, 0, false, 0 };

  if (tm == NULL)
    return timer;
  timer.name_id = _tprof_name_intern (name);
  timer.buffer = _tprof_time_manager_thread_buffer (tm);
  timer.running = timer.name_id != 0;
  timer.start_ticks = tprof_clock_ticks ();
  if (timer.running)
    _tprof_hang_region_open (timer.name_id, timer.start_ticks);
  return timer;
}

/* A timer of @site's name; @region: noted as an open region for the hang
 * watchdog. */
static TprofTimer
timer_start_site (TprofTimeManager *tm, TprofSite *site, bool region)
{
  TprofTimer timer = { tm, NULL, 0, false, 0 };
  int id = __atomic_load_n (&site->id, __ATOMIC_RELAXED);

  /* The body of TPROF_TIMER runs whatever happens; without a manager (or a
   * name, when out of memory) it just is not recorded. */
  timer.running = true;
  if (tm == NULL)
    return timer;
  timer.name_id = TPROF_LIKELY (id != 0) ? id : _tprof_site_resolve (site);
  timer.buffer = _tprof_time_manager_thread_buffer (tm);
  timer.start_ticks = tprof_clock_ticks ();
  if (region && timer.name_id != 0)
    _tprof_hang_region_open (timer.name_id, timer.start_ticks);
  return timer;
}

TprofTimer
_tprof_timer_start_site (TprofTimeManager *tm, TprofSite *site)
{
  return timer_start_site (tm, site, true);
}

TprofTimer
_tprof_timer_start_call (TprofTimeManager *tm, TprofSite *site)
{
  return timer_start_site (tm, site, false);
}

TprofTimer
_tprof_timer_start_literal (TprofTimeManager *tm, TprofSite *site, const char *name)
{
  TprofTimer timer = { tm, NULL, 0, false, 0 };
  int id = __atomic_load_n (&site->id, __ATOMIC_RELAXED);

  if (tm == NULL)
    return timer;
  if (TPROF_UNLIKELY (id == 0))
    {
      id = _tprof_name_intern (name);
      __atomic_store_n (&site->id, id, __ATOMIC_RELAXED);
    }
  timer.name_id = id;
  timer.buffer = _tprof_time_manager_thread_buffer (tm);
  timer.running = id != 0;
  timer.start_ticks = tprof_clock_ticks ();
  if (timer.running)
    _tprof_hang_region_open (timer.name_id, timer.start_ticks);
  return timer;
}

double
tprof_timer_stop (TprofTimer *timer)
{
  int64_t end;
  double secs;

  if (!timer->running)
    return 0.0;
  end = tprof_clock_ticks ();
  timer->running = false;
  /* the caller gets the duration back: convert it now, as the manager
   * will when it reads the raw ticks */
  secs = end > timer->start_ticks ? _tprof_clock_duration_frozen (timer->start_ticks, end - timer->start_ticks)
                                  : 0.0;
  if (timer->name_id != 0)
    {
      _tprof_hang_region_close (timer->name_id, timer->start_ticks);
      _tprof_thread_buffer_append (timer->buffer, timer->name_id, timer->start_ticks,
                                   _tprof_slot_ticks (end - timer->start_ticks));
    }
  return secs;
}

void
_tprof_timer_cleanup (TprofTimer *timer)
{
  tprof_timer_stop (timer);
}
