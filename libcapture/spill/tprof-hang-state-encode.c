/* tprof-hang-state-encode.c — the STATE record's payload: the calls in flight, the last calls and the open region, as the watchdog writes them. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-clock-map-internal.h"
#include "tprof-hang-comms-private.h"

#define STATE_VERSION 1

typedef struct
{
  uint8_t *data;
  size_t   len;
  size_t   cap;
  int      failed;
} Buffer;

static void
put (Buffer *b, const void *bytes, size_t n)
{
  if (b->failed)
    return;
  if (b->len + n > b->cap)
    {
      size_t cap = (b->cap + n) * 2;
      uint8_t *data = realloc (b->data, cap);

      if (data == NULL)
        {
          b->failed = 1;
          return;
        }
      b->data = data;
      b->cap = cap;
    }
  memcpy (b->data + b->len, bytes, n);
  b->len += n;
}

/* The journal is little-endian, as are the hosts tprof runs on: the bytes
 * in memory are already in order. */
_Static_assert (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "spill files are little-endian");

static void put_u32 (Buffer *b, uint32_t v) { put (b, &v, 4); }
static void put_i32 (Buffer *b, int32_t v) { put (b, &v, 4); }
static void put_u64 (Buffer *b, uint64_t v) { put (b, &v, 8); }
static void put_f64 (Buffer *b, double v) { put (b, &v, 8); }

static void
put_str (Buffer *b, const char *s)
{
  size_t n = strnlen (s, UINT16_MAX);
  uint16_t len = (uint16_t) n;

  put (b, &len, 2);
  put (b, s, n);
}

/* One call; its communicator's members only for a call in flight. */
static void
put_call (Buffer *b, const TprofClockMapCopy *map, const TprofHangLiveCall *call, int with_members)
{
  const int32_t *members = NULL;
  size_t n_members = 0;
  const char *label = call->comm >= 0 ? _tprof_hang_comm_at (call->comm, &members, &n_members) : "";
  double begin = _tprof_clock_map_secs (map, call->begin);

  if (!with_members)
    n_members = 0;
  put_str (b, call->function);
  put_str (b, label);
  put_u64 (b, call->sequence);
  put_f64 (b, begin);
  put_f64 (b, call->duration >= 0 ? begin + call->duration : NAN);
  put_i32 (b, call->thread);
  put_u32 (b, (uint32_t) n_members);
  for (size_t m = 0; m < n_members; m++)
    put_i32 (b, members[m]);
}

uint8_t *
_tprof_hang_state_encode (int stalled, double now, double timeout, size_t *len)
{
  TprofHangLiveCall in_flight[TPROF_HANG_THREADS], recent[TPROF_HANG_RING];
  size_t n_in_flight = _tprof_hang_in_flight (in_flight, TPROF_HANG_THREADS);
  size_t n_recent = _tprof_hang_recent (recent, TPROF_HANG_RING);
  Buffer b = { NULL, 0, 0, 0 };
  TprofHangLiveCall region;
  /* the clock's lock is the recording path's: the map is copied without it */
  TprofClockMapCopy map;

  _tprof_clock_map_copy (&map);
  put_u32 (&b, STATE_VERSION);
  put_u32 (&b, stalled ? 1 : 0);
  put_f64 (&b, now);
  put_f64 (&b, timeout);
  put_u32 (&b, (uint32_t) n_in_flight);
  put_u32 (&b, (uint32_t) n_recent);
  for (size_t i = 0; i < n_in_flight; i++)
    put_call (&b, &map, &in_flight[i], 1);
  for (size_t i = 0; i < n_recent; i++)
    put_call (&b, &map, &recent[i], 0);
  if (_tprof_hang_open_region (&region))
    {
      put_str (&b, region.function);
      put_f64 (&b, _tprof_clock_map_secs (&map, region.begin));
    }
  else
    {
      put_str (&b, "");
      put_f64 (&b, NAN);
    }
  if (b.failed)
    {
      free (b.data);
      return NULL;
    }
  *len = b.len;
  return b.data;
}
