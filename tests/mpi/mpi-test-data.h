/* mpi-test-data.h — what each rank records in the gather tests, recomputable on any rank. */
/* SPDX-License-Identifier: MIT */
#pragma once

#include <stddef.h>

#include <tprof/capture.h>

#define MPI_TEST_MAX_OPS 8

typedef enum
{
  MPI_TEST_IDENTICAL,      /* the same names, in the same order, everywhere */
  MPI_TEST_DISJOINT,       /* names that no other rank has */
  MPI_TEST_SHUFFLED,       /* the same names, in an order that depends on the rank */
  MPI_TEST_ONE_RANK_EMPTY, /* the last rank records nothing */
  MPI_TEST_BIG_ON_LAST,    /* 10^6 samples on the last rank, nothing elsewhere */
  MPI_TEST_MANY_OPS,       /* 40 operations, to count collective calls */
} MpiTestScenario;

typedef struct
{
  char   name[32];
  size_t count;
} MpiTestRecord;

/* Fills @out (MPI_TEST_MAX_OPS entries, or more for MANY_OPS: see
 * mpi_test_max_records) with what @rank of @size records, in first-recorded
 * order, and returns how many. */
size_t mpi_test_records (MpiTestScenario scenario, int rank, int size, MpiTestRecord *out);
size_t mpi_test_max_records (MpiTestScenario scenario);

/* The @index-th sample @data_rank records for @name: a deterministic value. */
double mpi_test_value (int data_rank, const char *name, size_t index);

/* Records what @rank records into @tm, interleaving the operations.
 * @data_rank seeds the values (the world rank, when @rank is a sub-rank). */
void mpi_test_fill (TprofTimeManager *tm, MpiTestScenario scenario, int rank, int size, int data_rank);

/* Asserts that @pt is exactly what the ranks of a communicator of @size
 * recorded, rank r's values seeded by @data_ranks[r]. */
void mpi_test_assert_profile (const TprofProfiledTime *pt, MpiTestScenario scenario, int size,
                              const int *data_ranks);

/* Asserts that @a and @b hold the same operations, samples, ranks and hosts. */
void mpi_test_assert_same_profile (const TprofProfiledTime *a, const TprofProfiledTime *b);

/* Saves @pt to a fresh temporary directory, loads it back and asserts that
 * nothing changed. */
void mpi_test_assert_roundtrip (const TprofProfiledTime *pt);
