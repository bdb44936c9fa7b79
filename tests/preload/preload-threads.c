/* preload-threads.c — an MPI program that knows nothing of tprof's preload: THREADS threads per rank exchange messages and reduce on their own communicators; the main thread also times a TPROF_SCOPE region. */
/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>
#include <tprof/capture.h>

#define THREADS 3
#define ROUNDS 20

typedef struct
{
  MPI_Comm comm;
  int      failed;
} Worker;

/* Each round: a ring exchange (Isend, Irecv, Waitall) and an Allreduce. */
static void *
work (void *data)
{
  Worker *worker = data;
  int rank, size;

  MPI_Comm_rank (worker->comm, &rank);
  MPI_Comm_size (worker->comm, &size);
  for (int round = 0; round < ROUNDS; round++)
    {
      int out = rank, in = -1, sum = 0;
      MPI_Request requests[2];

      MPI_Irecv (&in, 1, MPI_INT, (rank + size - 1) % size, round, worker->comm, &requests[0]);
      MPI_Isend (&out, 1, MPI_INT, (rank + 1) % size, round, worker->comm, &requests[1]);
      MPI_Waitall (2, requests, MPI_STATUSES_IGNORE);
      MPI_Allreduce (&out, &sum, 1, MPI_INT, MPI_SUM, worker->comm);
      if (in != (rank + size - 1) % size || sum != size * (size - 1) / 2)
        worker->failed = 1;
    }
  return NULL;
}

int
main (int argc, char **argv)
{
  Worker workers[THREADS];
  pthread_t threads[THREADS];
  int provided, failed = 0;

  MPI_Init_thread (&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided < MPI_THREAD_MULTIPLE)
    {
      fprintf (stderr, "preload-threads: this MPI does not offer MPI_THREAD_MULTIPLE\n");
      MPI_Finalize ();
      return 77;
    }
  for (int i = 0; i < THREADS; i++)
    {
      workers[i].failed = 0;
      MPI_Comm_dup (MPI_COMM_WORLD, &workers[i].comm);
    }
  for (int i = 0; i < ROUNDS; i++)
    {
      TPROF_SCOPE ("user/compute");
      MPI_Barrier (MPI_COMM_WORLD);
    }
  for (int i = 0; i < THREADS; i++)
    pthread_create (&threads[i], NULL, work, &workers[i]);
  for (int i = 0; i < THREADS; i++)
    {
      pthread_join (threads[i], NULL);
      failed |= workers[i].failed;
      MPI_Comm_free (&workers[i].comm);
    }
  puts ("preload-threads: done");
  MPI_Finalize ();
  return failed ? 1 : 0;
}
