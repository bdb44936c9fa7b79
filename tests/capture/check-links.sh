#!/bin/sh
# check-links.sh — libtprof-capture and its reader helper load libc, pthreads and the serial HDF5 only: no MPI, no parallel HDF5.
# SPDX-License-Identifier: MIT
# Usage: check-links.sh LIBRARY-OR-PROGRAM...
set -u
status=0
for object in "$@"; do
  if ! loaded=$(ldd "$object" 2>&1); then
    echo "ldd $object failed: $loaded" >&2
    status=1
    continue
  fi
  echo "$object loads:"
  echo "$loaded"
  # an MPI (Open MPI's libmpi, open-pal, pmix; MPICH's libmpich) or an
  # HDF5 built for one (libhdf5_openmpi, libhdf5_mpich), by the library's
  # name alone (the build directory's path may well say "mpich")
  bad=$(echo "$loaded" | awk '{ print $1 }' | grep -Ei 'libmpi|mpich|openmpi|open-pal|open-rte|pmix' || true)
  if [ -n "$bad" ]; then
    echo "FAIL: $object loads an MPI or a parallel HDF5:" >&2
    echo "$bad" >&2
    status=1
  fi
  if ! echo "$loaded" | grep -q 'libhdf5'; then
    echo "FAIL: $object loads no HDF5 at all (did ldd see it?)" >&2
    status=1
  fi
done
exit $status
