/* tprof-gather-error.c — the gather's errors, and the agreement that makes every rank fail together. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tprof-gather-mpi-private.h"

static TprofGatherStage gather_failing_stage = TPROF_GATHER_STAGE_NONE;

void
_tprof_gather_inject_failure (TprofGatherStage stage)
{
  gather_failing_stage = stage;
}

/* malloc, unless a test asked this stage to run out of memory */
void *
_tprof_gather_malloc (TprofGatherStage stage, size_t bytes)
{
  if (stage == gather_failing_stage)
    return NULL;
  return malloc (bytes);
}

static const char *
gather_describe_code (int code)
{
  switch ((TprofErrorCode) code)
    {
    case TPROF_ERROR_NO_MEMORY:
      return "out of memory";
    case TPROF_ERROR_TOO_LARGE:
      return "the data are too large to transfer";
    case TPROF_ERROR_MPI:
      return "an MPI call failed";
    case TPROF_ERROR_INVALID:
      return "invalid argument";
    case TPROF_ERROR_FORMAT:
      return "corrupt data received";
    case TPROF_ERROR_IO:
    case TPROF_ERROR_VERSION:
    case TPROF_ERROR_CANCELLED:
    case TPROF_ERROR_NONE:
    default:
      return "error";
    }
}

int
_tprof_gather_set_mpi_error (TprofError *error, int rc, const char *call, const char *stage)
{
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;

  if (MPI_Error_string (rc, text, &len) != MPI_SUCCESS)
    snprintf (text, sizeof text, "MPI error code %d", rc);
  return tprof_error_set (error, TPROF_ERROR_MPI, "tprof gather: %s failed while %s: %s",
                          call, stage, text);
}

int
_tprof_gather_set_no_memory (TprofError *error, const char *stage)
{
  return tprof_error_set (error, TPROF_ERROR_NO_MEMORY,
                          "tprof gather: out of memory while %s", stage);
}

/* Every rank learns @failing_rank's message (which says what failed);
 * called by all ranks at the same point, after they agreed that
 * @failing_rank failed. */
static int
gather_share_failure (TprofGather *g, int failing_rank, int code, TprofError *error)
{
  char message[sizeof error->message];

  memset (message, 0, sizeof message);
  if (failing_rank == g->rank)
    snprintf (message, sizeof message, "%s", error->message);
  if (MPI_Bcast (message, (int) sizeof message, MPI_CHAR, failing_rank, g->comm) != MPI_SUCCESS)
    snprintf (message, sizeof message, "%s", gather_describe_code (code));
  message[sizeof message - 1] = '\0';
  if (failing_rank != g->rank && error->code == TPROF_ERROR_NONE)
    tprof_error_set (error, code, "%s: rank %d failed: %s", g->who, failing_rank, message);
  return -1;
}

/* Collective: returns 0 when no rank has an error, else -1 on every rank with
 * @error set (the failing rank keeps its own message). */
int
_tprof_gather_agree (TprofGather *g, const char *stage, TprofError *error)
{
  struct { int code; int rank; } mine, worst;
  int rc;

  mine.code = error->code;
  mine.rank = g->rank;
  rc = MPI_Allreduce (&mine, &worst, 1, MPI_2INT, MPI_MAXLOC, g->comm);
  if (rc != MPI_SUCCESS)
    {
      if (error->code == TPROF_ERROR_NONE)
        _tprof_gather_set_mpi_error (error, rc, "MPI_Allreduce", stage);
      return -1;
    }
  if (worst.code == TPROF_ERROR_NONE)
    return 0;
  return gather_share_failure (g, worst.rank, worst.code, error);
}
