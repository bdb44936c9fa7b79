/* tprof-spill-signal.c — the spill's signal handlers: flush on SIGTERM, SIGINT and SIGUSR1, a raw flush on a crash, then the signal's own course. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tprof-spill-internal.h"

/* Design. SIGTERM, SIGINT and SIGUSR1 do not flush in the handler: it
 * writes the SIGNAL record, asks the spill thread (a counter and a write
 * to its eventfd, both safe in a handler) and, for SIGTERM and SIGINT,
 * waits for it for about TERM_WAIT_MS, sleeping a millisecond at a time. The thread flushes as at any interval,
 * converting to seconds, whatever the interrupted thread held (it takes
 * no lock the recording path takes). A crash (SIGSEGV, SIGBUS, SIGABRT)
 * may come from the memory a flush reads, or from the spill thread itself:
 * its handler writes from the faulting thread, the chunks as they are,
 * through the descriptor opened at the start, with no malloc and no lock
 * but the spill's own flag, which it waits for at most CRASH_WAIT_MS. */
#define TERM_WAIT_MS  5000
#define CRASH_WAIT_MS 200

#define MAX_SPILLS 8
static TprofSpill *spills[MAX_SPILLS];
static int handlers_running;  /* handlers using spills[]: unregister waits for none */

static const int handled[] = { SIGTERM, SIGINT, SIGUSR1, SIGSEGV, SIGBUS, SIGABRT };
#define N_HANDLED ((int) (sizeof handled / sizeof handled[0]))
static struct sigaction previous[N_HANDLED];
static pthread_mutex_t install_lock = PTHREAD_MUTEX_INITIALIZER;
static bool installed;

static int
handled_index (int signo)
{
  for (int i = 0; i < N_HANDLED; i++)
    if (handled[i] == signo)
      return i;
  return -1;
}

static void
sleep_ms (int ms)
{
  nanosleep (&(struct timespec) { ms / 1000, (long) (ms % 1000) * 1000000 }, NULL);
}

/* Asks @spill's thread for a flush; returns the request to wait for. */
static uint64_t
request_flush (TprofSpill *spill)
{
  uint64_t one = 1;
  uint64_t ticket = __atomic_add_fetch (&spill->requested, 1, __ATOMIC_ACQ_REL);

  (void) !write (spill->wake_fd, &one, sizeof one);
  return ticket;
}

/* Spill @i, unless it belongs to the process this one was forked from
 * (its thread did not follow, and its file is the parent's). */
static TprofSpill *
spill_of_this_process (int i)
{
  TprofSpill *spill = __atomic_load_n (&spills[i], __ATOMIC_ACQUIRE);

  return spill != NULL && spill->pid == getpid () ? spill : NULL;
}

static void
on_term (int signo, bool wait)
{
  uint64_t tickets[MAX_SPILLS] = { 0 };

  /* the SIGNAL record needs no ownership: one writev on O_APPEND, and the
   * descriptor stays open while the spill is registered (its end
   * unregisters it, waiting for running handlers, before closing) */
  for (int i = 0; i < MAX_SPILLS; i++)
    {
      TprofSpill *spill = spill_of_this_process (i);

      if (spill == NULL)
        continue;
      if (!__atomic_load_n (&spill->closed, __ATOMIC_RELAXED) && !__atomic_load_n (&spill->failed, __ATOMIC_RELAXED))
        _tprof_spill_write_signal (spill, signo);
      tickets[i] = request_flush (spill);
    }
  for (int waited = 0; wait && waited < TERM_WAIT_MS; waited++)
    {
      bool all = true;

      for (int i = 0; i < MAX_SPILLS; i++)
        {
          TprofSpill *spill = spill_of_this_process (i);

          if (spill != NULL && tickets[i] != 0 && __atomic_load_n (&spill->served, __ATOMIC_ACQUIRE) < tickets[i])
            all = false;
        }
      if (all)
        break;
      sleep_ms (1);
    }
}

static void
on_crash (int signo)
{
  for (int i = 0; i < MAX_SPILLS; i++)
    {
      TprofSpill *spill = spill_of_this_process (i);

      if (spill == NULL || !_tprof_spill_try_own (spill, CRASH_WAIT_MS))
        continue;
      if (!spill->closed && !spill->failed && _tprof_spill_write_signal (spill, signo) == 0)
        _tprof_spill_flush_raw (spill);
      _tprof_spill_disown (spill);
    }
}

/* The signal's course without us: the handler before ours, or the
 * default action again (the signal is blocked while we run: raised now,
 * it is delivered as we return). */
static void
chain (int signo, siginfo_t *info, void *context)
{
  const struct sigaction *prev = &previous[handled_index (signo)];

  if (prev->sa_flags & SA_SIGINFO)
    prev->sa_sigaction (signo, info, context);
  else if (prev->sa_handler == SIG_IGN || (signo == SIGUSR1 && prev->sa_handler == SIG_DFL))
    return;  /* SIGUSR1 asks for a flush: it ends nothing */
  else if (prev->sa_handler == SIG_DFL)
    {
      sigaction (signo, prev, NULL);
      raise (signo);
    }
  else
    prev->sa_handler (signo);
}

static void
spill_signal_handler (int signo, siginfo_t *info, void *context)
{
  int saved_errno = errno;

  __atomic_add_fetch (&handlers_running, 1, __ATOMIC_ACQ_REL);
  if (signo == SIGSEGV || signo == SIGBUS || signo == SIGABRT)
    on_crash (signo);
  else
    on_term (signo, signo != SIGUSR1);
  __atomic_sub_fetch (&handlers_running, 1, __ATOMIC_ACQ_REL);
  errno = saved_errno;
  chain (signo, info, context);
}

static void
install_locked (void)
{
  struct sigaction action;

  memset (&action, 0, sizeof action);
  action.sa_sigaction = spill_signal_handler;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset (&action.sa_mask);
  for (int i = 0; i < N_HANDLED; i++)
    sigaction (handled[i], &action, &previous[i]);
  installed = true;
}

bool
_tprof_spill_signals_register (TprofSpill *spill)
{
  bool done = false;

  pthread_mutex_lock (&install_lock);
  if (!installed)
    install_locked ();
  for (int i = 0; i < MAX_SPILLS && !done; i++)
    if (spills[i] == NULL)
      {
        __atomic_store_n (&spills[i], spill, __ATOMIC_RELEASE);
        done = true;
      }
  pthread_mutex_unlock (&install_lock);
  return done;
}

void
_tprof_spill_signals_unregister (TprofSpill *spill)
{
  pthread_mutex_lock (&install_lock);
  for (int i = 0; i < MAX_SPILLS; i++)
    if (spills[i] == spill)
      __atomic_store_n (&spills[i], NULL, __ATOMIC_RELEASE);
  pthread_mutex_unlock (&install_lock);
  /* a handler that read the pointer before is done with it once none runs */
  while (__atomic_load_n (&handlers_running, __ATOMIC_ACQUIRE) > 0)
    sleep_ms (1);
}
