/* preload-hang-names.c — prints the name the hang watchdog gives each communicator this rank creates, so that a test can check that every member agrees. */
/* SPDX-License-Identifier: MIT */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

#include <mpi.h>

typedef const char *(*LabelFunc) (uintptr_t comm);

static LabelFunc label_of;

static void
say (int rank, const char *what, MPI_Comm comm)
{
  const char *label = comm == MPI_COMM_NULL ? "null" : label_of ((uintptr_t) comm);

  printf ("%d %s %s\n", rank, what, label != NULL ? label : "none");
}

/* Run on 4 ranks under libtprof-preload.so with TPROF_HANG_TIMEOUT set. */
int
main (int argc, char **argv)
{
  MPI_Comm dup, split, created, cart, sub, dup_of_split, again, idup, odd = MPI_COMM_NULL, inter, merged, inter_dup;
  MPI_Group world_group, pair, odds;
  MPI_Request request;
  int rank, dims[2] = { 2, 2 }, periods[2] = { 0, 0 }, remain[2] = { 1, 0 }, first_two[2] = { 0, 1 },
      odd_ranks[2] = { 1, 3 };

  MPI_Init (&argc, &argv);
  label_of = (LabelFunc) dlsym (RTLD_DEFAULT, "_tprof_hang_comm_label");
  if (label_of == NULL)
    {
      fprintf (stderr, "preload-hang-names: run under tprof-run\n");
      MPI_Abort (MPI_COMM_WORLD, 2);
    }
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  say (rank, "world", MPI_COMM_WORLD);
  say (rank, "self", MPI_COMM_SELF);
  MPI_Comm_dup (MPI_COMM_WORLD, &dup);
  say (rank, "dup", dup);
  MPI_Comm_split (MPI_COMM_WORLD, rank % 2, rank, &split);
  say (rank, "split", split);
  MPI_Comm_group (MPI_COMM_WORLD, &world_group);
  MPI_Group_incl (world_group, 2, first_two, &pair);
  MPI_Comm_create (MPI_COMM_WORLD, pair, &created);
  say (rank, "create", created);
  MPI_Cart_create (MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  say (rank, "cart", cart);
  MPI_Cart_sub (cart, remain, &sub);
  say (rank, "cart_sub", sub);
  MPI_Comm_dup (split, &dup_of_split);
  say (rank, "dup_of_split", dup_of_split);
  /* a freed handle that comes back names the new communicator */
  MPI_Comm_free (&dup);
  MPI_Comm_dup (MPI_COMM_WORLD, &again);
  say (rank, "dup_again", again);
  MPI_Comm_idup (MPI_COMM_WORLD, &idup, &request);
  say (rank, "idup", idup);
  MPI_Wait (&request, MPI_STATUS_IGNORE);
  /* a collective of the odd ranks only, twice with one tag */
  MPI_Group_incl (world_group, 2, odd_ranks, &odds);
  if (rank % 2 == 1)
    {
      MPI_Comm second;

      MPI_Comm_create_group (MPI_COMM_WORLD, odds, 7, &odd);
      MPI_Comm_create_group (MPI_COMM_WORLD, odds, 7, &second);
      say (rank, "create_group_again", second);
      MPI_Comm_free (&second);
    }
  else
    say (rank, "create_group_again", MPI_COMM_NULL);
  say (rank, "create_group", odd);
  /* the parity halves joined: each side's local communicator differs */
  MPI_Intercomm_create (split, 0, MPI_COMM_WORLD, rank % 2 == 0 ? 1 : 0, 9, &inter);
  say (rank, "intercomm", inter);
  MPI_Intercomm_merge (inter, rank % 2, &merged);
  say (rank, "merged", merged);
  MPI_Comm_dup (inter, &inter_dup);
  say (rank, "intercomm_dup", inter_dup);
  MPI_Comm_free (&inter_dup);
  MPI_Comm_free (&merged);
  MPI_Comm_free (&inter);
  if (odd != MPI_COMM_NULL)
    MPI_Comm_free (&odd);
  MPI_Group_free (&odds);
  MPI_Comm_free (&idup);
  MPI_Comm_free (&again);
  MPI_Comm_free (&dup_of_split);
  MPI_Comm_free (&sub);
  MPI_Comm_free (&cart);
  if (created != MPI_COMM_NULL)
    MPI_Comm_free (&created);
  MPI_Comm_free (&split);
  MPI_Group_free (&pair);
  MPI_Group_free (&world_group);
  MPI_Finalize ();
  return 0;
}
