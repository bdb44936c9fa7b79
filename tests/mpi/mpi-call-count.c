/* mpi-call-count.c — counts the MPI communication calls the gather makes, through the PMPI profiling interface. */
/* SPDX-License-Identifier: MIT */
#include <mpi.h>

#include "mpi-call-count.h"

static unsigned collectives;
static unsigned point_to_point;

void
mpi_call_count_reset (void)
{
  collectives = 0;
  point_to_point = 0;
}

unsigned
mpi_call_count_collectives (void)
{
  return collectives;
}

unsigned
mpi_call_count_point_to_point (void)
{
  return point_to_point;
}

int
MPI_Allreduce (const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  collectives++;
  return PMPI_Allreduce (sendbuf, recvbuf, count, type, op, comm);
}

int
MPI_Allgather (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
               void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  collectives++;
  return PMPI_Allgather (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int
MPI_Allgatherv (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
  collectives++;
  return PMPI_Allgatherv (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

int
MPI_Gather (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
            void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  collectives++;
  return PMPI_Gather (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int
MPI_Gatherv (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  collectives++;
  return PMPI_Gatherv (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
}

int
MPI_Alltoallw (const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
               void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
               MPI_Comm comm)
{
  collectives++;
  return PMPI_Alltoallw (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
}

int
MPI_Bcast (void *buffer, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
  collectives++;
  return PMPI_Bcast (buffer, count, type, root, comm);
}

int
MPI_Barrier (MPI_Comm comm)
{
  collectives++;
  return PMPI_Barrier (comm);
}

int
MPI_Send (const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  point_to_point++;
  return PMPI_Send (buf, count, type, dest, tag, comm);
}

int
MPI_Recv (void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
  point_to_point++;
  return PMPI_Recv (buf, count, type, source, tag, comm, status);
}

int
MPI_Isend (const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
  point_to_point++;
  return PMPI_Isend (buf, count, type, dest, tag, comm, request);
}

int
MPI_Irecv (void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request *request)
{
  point_to_point++;
  return PMPI_Irecv (buf, count, type, source, tag, comm, request);
}
