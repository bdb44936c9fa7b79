/* tprof-hang-state-decode.c — a STATE record's payload back into calls, checking every length against the bytes there are. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "tprof/tprof-hang.h"

#define STATE_VERSION 1

typedef struct
{
  const uint8_t *p;
  size_t         left;
  const char    *what;    /* the field being read, for the message */
} Cursor;

static int
take (Cursor *c, void *out, size_t n)
{
  if (c->left < n)
    return -1;
  memcpy (out, c->p, n);
  c->p += n;
  c->left -= n;
  return 0;
}

static char *
take_str (Cursor *c)
{
  uint16_t len;
  char *s;

  if (take (c, &len, 2) != 0 || c->left < len || (s = malloc ((size_t) len + 1)) == NULL)
    return NULL;
  take (c, s, len);
  s[len] = '\0';
  return s;
}

static void
call_clear (TprofHangCall *call)
{
  free (call->function);
  free (call->communicator);
  free (call->members);
}

static int
take_call (Cursor *c, TprofHangCall *call)
{
  uint32_t n_members;

  memset (call, 0, sizeof *call);
  c->what = "function";
  if ((call->function = take_str (c)) == NULL)
    return -1;
  c->what = "communicator";
  if ((call->communicator = take_str (c)) == NULL)
    return -1;
  c->what = "call times";
  if (take (c, &call->sequence, 8) != 0 || take (c, &call->begin, 8) != 0 || take (c, &call->end, 8) != 0
      || take (c, &call->thread, 4) != 0 || take (c, &n_members, 4) != 0)
    return -1;
  c->what = "members";
  if (n_members > c->left / 4)
    return -1;
  call->n_members = n_members;
  if (n_members > 0 && ((call->members = malloc (n_members * sizeof (int32_t))) == NULL
                        || take (c, call->members, n_members * sizeof (int32_t)) != 0))
    return -1;
  return 0;
}

/* @n calls into a fresh array; each needs at least 36 bytes. */
static int
take_calls (Cursor *c, uint32_t n, TprofHangCall **calls, size_t *n_calls)
{
  if (n > c->left / 36 || (n > 0 && (*calls = calloc (n, sizeof **calls)) == NULL))
    return -1;
  for (uint32_t i = 0; i < n; i++)
    {
      *n_calls = i + 1;
      if (take_call (c, &(*calls)[i]) != 0)
        return -1;
    }
  return 0;
}

int
tprof_hang_state_decode (const void *payload, size_t len, TprofHangState *state, TprofError *error)
{
  Cursor c = { payload, len, "version" };
  uint32_t version, flags, n_in_flight, n_recent;

  memset (state, 0, sizeof *state);
  if (take (&c, &version, 4) != 0)
    goto truncated;
  if (version != STATE_VERSION)
    return tprof_error_set (error, TPROF_ERROR_VERSION, "hang state version %u is not known (this tprof reads %d)",
                            version, STATE_VERSION);
  c.what = "header";
  if (take (&c, &flags, 4) != 0 || take (&c, &state->when, 8) != 0 || take (&c, &state->timeout, 8) != 0
      || take (&c, &n_in_flight, 4) != 0 || take (&c, &n_recent, 4) != 0)
    goto truncated;
  state->stalled = (flags & 1) != 0;
  if (take_calls (&c, n_in_flight, &state->in_flight, &state->n_in_flight) != 0
      || take_calls (&c, n_recent, &state->recent, &state->n_recent) != 0)
    goto truncated;
  c.what = "region";
  if ((state->region = take_str (&c)) == NULL || take (&c, &state->region_since, 8) != 0)
    goto truncated;
  return 0;

truncated:
  {
    const char *what = c.what;

    tprof_hang_state_clear (state);
    return tprof_error_set (error, TPROF_ERROR_FORMAT, "hang state: %s cut short or out of range (%zu bytes)",
                            what, len);
  }
}

void
tprof_hang_state_clear (TprofHangState *state)
{
  for (size_t i = 0; i < state->n_in_flight; i++)
    call_clear (&state->in_flight[i]);
  for (size_t i = 0; i < state->n_recent; i++)
    call_clear (&state->recent[i]);
  free (state->in_flight);
  free (state->recent);
  free (state->region);
  memset (state, 0, sizeof *state);
}
