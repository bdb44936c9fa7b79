#!/bin/sh
# bench-save-parallel.sh MPIEXEC BENCH [NP] [SAMPLES] — the parallel save against gather + save:
# time in one run (alternated), then each one's peak memory in a run of its own.
# SPDX-License-Identifier: MIT
set -e
mpiexec=$1 bench=$2 np=${3:-8} samples=${4:-2500000}
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-save-parallel-XXXXXX")
trap 'rm -rf "$dir"' EXIT
"$mpiexec" -n "$np" "$bench" "$dir" time "$samples"
"$mpiexec" -n "$np" "$bench" "$dir" rss-gather "$samples"
"$mpiexec" -n "$np" "$bench" "$dir" rss-parallel "$samples"
