/* demo-train.c — data-parallel linear-layer training: real matrix kernels, a real allreduce, real checkpoint files. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "demo-train.h"

#define DEMO_IN          128
#define DEMO_OUT         128
#define DEMO_BASE_ROWS   384
#define DEMO_OTHER_GRADS 32768  /* gradients of the layers we do not compute */
#define DEMO_LR          1e-3
#define DEMO_MOMENTUM    0.9
/* The simulated accelerator: rows it computes on the CPU for real, and
 * the time it takes per row of the batch, forward and backward. */
#define DEMO_ACCEL_REAL_ROWS      16
#define DEMO_ACCEL_FORWARD_ROW    8e-6
#define DEMO_ACCEL_BACKWARD_ROW   16e-6

typedef struct
{
  int       rank;
  int       size;
  int       max_rows;
  uint64_t  rng;
  double   *x;         /* max_rows x IN: the batch */
  double   *target;    /* max_rows x OUT */
  double   *y;         /* max_rows x OUT */
  double   *dy;        /* max_rows x OUT */
  double   *dx;        /* max_rows x IN */
  double   *w;         /* IN x OUT */
  double   *grad;      /* IN x OUT, then DEMO_OTHER_GRADS */
  double   *velocity;  /* same length as grad */
  size_t    grad_len;
  double    loss;
  bool      accelerator;  /* forward and backward wait for a simulated GPU */
  char      ckpt_dir[64];
} DemoModel;

/* xorshift64*: reproducible from the seed, identical on every machine */
static double
demo_random (DemoModel *m)
{
  m->rng ^= m->rng >> 12;
  m->rng ^= m->rng << 25;
  m->rng ^= m->rng >> 27;
  return (double) ((m->rng * UINT64_C (2685821657736338717)) >> 11) * 0x1.0p-53;
}

static void
demo_fill_random (DemoModel *m, double *v, size_t n, double scale)
{
  for (size_t i = 0; i < n; i++)
    v[i] = (2.0 * demo_random (m) - 1.0) * scale;
}

/* c (rows x cols) = a (rows x inner) . b (inner x cols) */
static void
demo_matmul (const double *restrict a, const double *restrict b, double *restrict c,
             int rows, int inner, int cols)
{
  memset (c, 0, (size_t) rows * (size_t) cols * sizeof *c);
  for (int i = 0; i < rows; i++)
    for (int k = 0; k < inner; k++)
      {
        double aik = a[(size_t) i * inner + k];

        for (int j = 0; j < cols; j++)
          c[(size_t) i * cols + j] += aik * b[(size_t) k * cols + j];
      }
}

/* c (inner x cols) = a^T . b, a being rows x inner and b rows x cols */
static void
demo_matmul_at_b (const double *restrict a, const double *restrict b, double *restrict c,
                  int rows, int inner, int cols)
{
  memset (c, 0, (size_t) inner * (size_t) cols * sizeof *c);
  for (int r = 0; r < rows; r++)
    for (int k = 0; k < inner; k++)
      {
        double ark = a[(size_t) r * inner + k];

        for (int j = 0; j < cols; j++)
          c[(size_t) k * cols + j] += ark * b[(size_t) r * cols + j];
      }
}

/* c (rows x inner) = a . b^T, a being rows x cols and b inner x cols */
static void
demo_matmul_a_bt (const double *restrict a, const double *restrict b, double *restrict c,
                  int rows, int cols, int inner)
{
  for (int i = 0; i < rows; i++)
    for (int k = 0; k < inner; k++)
      {
        double sum = 0.0;

        for (int j = 0; j < cols; j++)
          sum += a[(size_t) i * cols + j] * b[(size_t) k * cols + j];
        c[(size_t) i * inner + k] = sum;
      }
}

static void
demo_model_free (DemoModel *m)
{
  free (m->x);
  free (m->target);
  free (m->y);
  free (m->dy);
  free (m->dx);
  free (m->w);
  free (m->grad);
  free (m->velocity);
  if (m->ckpt_dir[0] != '\0')
    rmdir (m->ckpt_dir);
}

/* Every rank starts from the same weights, as data-parallel training does:
 * they come from the seed alone, not from the rank's stream. */
static void
demo_init_weights (DemoModel *m, uint64_t seed)
{
  uint64_t rank_rng = m->rng;

  m->rng = seed + 1;
  demo_fill_random (m, m->w, (size_t) DEMO_IN * DEMO_OUT, 0.1);
  m->rng = rank_rng;
}

static int
demo_model_init (DemoModel *m, const DemoOptions *opts, MPI_Comm comm)
{
  double rows;
  const char *tmp = getenv ("TMPDIR");

  memset (m, 0, sizeof *m);
  MPI_Comm_rank (comm, &m->rank);
  MPI_Comm_size (comm, &m->size);
  m->accelerator = opts->compute == DEMO_COMPUTE_ACCELERATOR;
  /* ranks get shards of one size, so that without a straggler the last
   * rank is a matter of each step's batch (+-10%); the straggler's is
   * heavier; + 10% for that per-step variation */
  rows = DEMO_BASE_ROWS;
  if (m->rank == opts->straggler)
    rows *= opts->straggler_factor;
  m->max_rows = (int) (rows * 1.1) + 1;
  m->rng = opts->seed * UINT64_C (0x9E3779B97F4A7C15) + (uint64_t) m->rank + 1;
  m->grad_len = (size_t) DEMO_IN * DEMO_OUT + DEMO_OTHER_GRADS;

  m->x = malloc ((size_t) m->max_rows * DEMO_IN * sizeof (double));
  m->target = malloc ((size_t) m->max_rows * DEMO_OUT * sizeof (double));
  m->y = malloc ((size_t) m->max_rows * DEMO_OUT * sizeof (double));
  m->dy = malloc ((size_t) m->max_rows * DEMO_OUT * sizeof (double));
  m->dx = malloc ((size_t) m->max_rows * DEMO_IN * sizeof (double));
  m->w = malloc ((size_t) DEMO_IN * DEMO_OUT * sizeof (double));
  m->grad = calloc (m->grad_len, sizeof (double));
  m->velocity = calloc (m->grad_len, sizeof (double));
  if (m->x == NULL || m->target == NULL || m->y == NULL || m->dy == NULL || m->dx == NULL
      || m->w == NULL || m->grad == NULL || m->velocity == NULL)
    {
      fprintf (stderr, "tprof-demo-training: rank %d: out of memory\n", m->rank);
      return -1;
    }
  demo_init_weights (m, opts->seed);
  snprintf (m->ckpt_dir, sizeof m->ckpt_dir, "%s/tprof-demo-XXXXXX",
            tmp != NULL && strlen (tmp) < 40 ? tmp : "/tmp");
  if (mkdtemp (m->ckpt_dir) == NULL)
    {
      fprintf (stderr, "tprof-demo-training: rank %d: cannot create a checkpoint directory %s: %s\n",
               m->rank, m->ckpt_dir, strerror (errno));
      m->ckpt_dir[0] = '\0';
      return -1;
    }
  return 0;
}

static int
demo_load_batch (DemoModel *m)
{
  TPROF_SCOPE ("data/load");
  /* a batch size that varies a little from step to step */
  int rows = (int) ((m->max_rows - 1) / 1.1 * (0.9 + 0.2 * demo_random (m)));

  if (rows < 1)
    rows = 1;
  demo_fill_random (m, m->x, (size_t) rows * DEMO_IN, 1.0);
  demo_fill_random (m, m->target, (size_t) rows * DEMO_OUT, 1.0);
  return rows;
}

/* On the simulated accelerator, the kernel runs on a few rows for real
 * and the rest of its time is waited for, sleeping. */
static int
demo_kernel_rows (const DemoModel *m, int rows)
{
  return m->accelerator && rows > DEMO_ACCEL_REAL_ROWS ? DEMO_ACCEL_REAL_ROWS : rows;
}

static void
demo_accelerator_wait (const DemoModel *m, int rows, double per_row)
{
  double secs = rows * per_row;
  struct timespec t = { (time_t) secs, (long) ((secs - (time_t) secs) * 1e9) };

  if (!m->accelerator)
    return;
  while (nanosleep (&t, &t) != 0)
    ;
}

static void
demo_forward (DemoModel *m, int batch)
{
  TPROF_SCOPE ("forward");
  double loss = 0.0;
  int rows = demo_kernel_rows (m, batch);

  demo_matmul (m->x, m->w, m->y, rows, DEMO_IN, DEMO_OUT);
  for (size_t i = 0; i < (size_t) rows * DEMO_OUT; i++)
    {
      double d = m->y[i] - m->target[i];

      loss += d * d;
    }
  m->loss = loss / rows;
  demo_accelerator_wait (m, batch, DEMO_ACCEL_FORWARD_ROW);
}

static void
demo_backward (DemoModel *m, int batch)
{
  TPROF_SCOPE ("backward");
  int rows = demo_kernel_rows (m, batch);

  for (size_t i = 0; i < (size_t) rows * DEMO_OUT; i++)
    m->dy[i] = 2.0 * (m->y[i] - m->target[i]) / rows;
  demo_matmul_at_b (m->x, m->dy, m->grad, rows, DEMO_IN, DEMO_OUT);
  /* the gradient for the layer below, as a real backward pass computes */
  demo_matmul_a_bt (m->dy, m->w, m->dx, rows, DEMO_OUT, DEMO_IN);
  demo_fill_random (m, m->grad + (size_t) DEMO_IN * DEMO_OUT, DEMO_OTHER_GRADS, 1e-3);
  demo_accelerator_wait (m, batch, DEMO_ACCEL_BACKWARD_ROW);
}

/* Waits for @request without spinning: a rank that arrives early sleeps
 * between tests, as a training process waits for its GPU, and leaves the
 * cores to the ranks still computing. Spinning ranks (MPI's own wait)
 * would slow the late rank down when ranks outnumber cores, and blur who
 * arrived last. */
static int
demo_wait (MPI_Request *request)
{
  const struct timespec nap = { 0, 20000 };
  int done = 0, rc;

  while ((rc = MPI_Test (request, &done, MPI_STATUS_IGNORE)) == MPI_SUCCESS && !done)
    nanosleep (&nap, NULL);
  return rc;
}

static int
demo_allreduce (DemoModel *m, MPI_Comm comm)
{
  TPROF_SCOPE ("allreduce");
  MPI_Request request;
  int rc = MPI_Iallreduce (MPI_IN_PLACE, m->grad, (int) m->grad_len, MPI_DOUBLE, MPI_SUM, comm, &request);

  if (rc == MPI_SUCCESS)
    rc = demo_wait (&request);

  if (rc != MPI_SUCCESS)
    {
      char text[MPI_MAX_ERROR_STRING];
      int len = 0;

      MPI_Error_string (rc, text, &len);
      fprintf (stderr, "tprof-demo-training: rank %d: the gradients' allreduce failed: %s\n", m->rank, text);
      return -1;
    }
  return 0;
}

static void
demo_optimizer (DemoModel *m)
{
  TPROF_SCOPE ("optimizer");

  for (size_t i = 0; i < (size_t) DEMO_IN * DEMO_OUT; i++)
    {
      m->velocity[i] = DEMO_MOMENTUM * m->velocity[i] + m->grad[i] / m->size;
      m->w[i] -= DEMO_LR * m->velocity[i];
    }
}

/* Writes the weights to a real file, flushed to the disk, then removes it:
 * the cost of a checkpoint without filling the disk. */
static int
demo_checkpoint (DemoModel *m, long iteration)
{
  TPROF_SCOPE ("io/checkpoint");
  char path[128];
  size_t n = (size_t) DEMO_IN * DEMO_OUT;
  FILE *f;
  int ok;

  snprintf (path, sizeof path, "%s/step-%ld.bin", m->ckpt_dir, iteration);
  f = fopen (path, "wb");
  if (f == NULL)
    {
      fprintf (stderr, "tprof-demo-training: rank %d: cannot write %s: %s\n",
               m->rank, path, strerror (errno));
      return -1;
    }
  ok = fwrite (m->w, sizeof *m->w, n, f) == n
       && fwrite (m->velocity, sizeof *m->velocity, m->grad_len, f) == m->grad_len
       && fflush (f) == 0 && fdatasync (fileno (f)) == 0;
  ok = fclose (f) == 0 && ok;
  unlink (path);
  if (!ok)
    {
      fprintf (stderr, "tprof-demo-training: rank %d: writing %s failed: %s\n",
               m->rank, path, strerror (errno));
      return -1;
    }
  return 0;
}

/* Collective: training starts only if every rank is ready, so that no rank
 * waits in an allreduce for one that gave up. */
static int
demo_all_ready (int ready, MPI_Comm comm)
{
  int all = 0;

  if (MPI_Allreduce (&ready, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
    return 0;
  return all;
}

void
demo_train_resolve_compute (DemoOptions *opts, MPI_Comm comm)
{
  MPI_Comm node;
  int on_node = 1, crowded = 0, any = 0;
  long cores = sysconf (_SC_NPROCESSORS_ONLN);

  if (opts->compute != DEMO_COMPUTE_AUTO)
    return;
  if (MPI_Comm_split_type (comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS)
    {
      MPI_Comm_size (node, &on_node);
      MPI_Comm_free (&node);
    }
  crowded = cores > 0 && on_node > cores;
  /* every rank must choose alike */
  if (MPI_Allreduce (&crowded, &any, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS)
    any = 0;
  opts->compute = any ? DEMO_COMPUTE_ACCELERATOR : DEMO_COMPUTE_CPU;
}

int
demo_train_run (const DemoOptions *opts, MPI_Comm comm, TprofTimeManager *tm)
{
  DemoModel m;
  int rc = 0;
  bool ckpt_failed = false;

  if (!demo_all_ready (demo_model_init (&m, opts, comm) == 0, comm))
    {
      demo_model_free (&m);
      return -1;
    }
  for (long it = 0; it < opts->iterations && rc == 0; it++)
    TPROF_TIMER (tm, "step")
      {
        int rows = demo_load_batch (&m);

        demo_forward (&m, rows);
        demo_backward (&m, rows);
        rc = demo_allreduce (&m, comm);
        if (rc < 0)
          break;
        demo_optimizer (&m);
        /* only even ranks write, as when one rank per node holds the shard;
         * a failed write is reported once and training goes on, in step
         * with the other ranks */
        if ((it + 1) % opts->checkpoint_every == 0 && m.rank % 2 == 0 && !ckpt_failed)
          ckpt_failed = demo_checkpoint (&m, it) < 0;
      }
  demo_model_free (&m);
  return rc < 0 || ckpt_failed ? -1 : 0;
}
