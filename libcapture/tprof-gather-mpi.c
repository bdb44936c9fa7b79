/* tprof-gather-mpi.c — placeholder until implemented */
