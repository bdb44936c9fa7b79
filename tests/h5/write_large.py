# write_large.py — profiles large enough for the threaded, pread()-based loader, valid and broken, with numpy's expected arrays.
#
# Usage: write_large.py DIR. Each valid CASE.h5 comes with CASE.times.f64 and
# CASE.ranks.i32: numpy's own conversion of what the file stores, raw.
# SPDX-License-Identifier: MIT
import os
import sys

import h5py
import numpy as np

N = 1 << 20          # two threads' worth of samples, arrays over 4 MiB
WORLD = 64


def samples(time_dtype=np.float64, rank_dtype=np.int32, n=N):
    rng = np.random.default_rng(11)
    # interleaved ranks: readers must not rely on grouping
    ranks = rng.integers(0, WORLD, n).astype(rank_dtype)
    times = rng.gamma(2.0, 1e-3, n).astype(time_dtype)
    times[7] = -0.0        # valid, though its sign bit is set
    times[N // 2] = 0.0
    return times, ranks


def write(path, times, ranks, userblock=0, **dataset_options):
    with h5py.File(path, "w", userblock_size=userblock, track_order=True) as f:
        f.attrs["format"] = "tprof-profile"
        f.attrs["format_version"] = 1
        f.attrs["world_size"] = WORLD
        timings = f.create_group("timings", track_order=True)
        small = timings.create_group("small")
        small.attrs["name"] = "small"
        small["times"] = np.array([0.5, 0.25])
        small["ranks"] = np.array([1, 0], dtype=np.int32)
        step = timings.create_group("step")
        step.attrs["name"] = "step"
        step.create_dataset("times", data=times, **dataset_options)
        step.create_dataset("ranks", data=ranks, **dataset_options)


def write_valid(directory, case, times, ranks, **options):
    write(os.path.join(directory, case + ".h5"), times, ranks, **options)
    times.astype(np.float64).tofile(os.path.join(directory, case + ".times.f64"))
    ranks.astype(np.int32).tofile(os.path.join(directory, case + ".ranks.i32"))


def write_broken(directory, case, time_dtype, rank_dtype, bad_times=(), bad_ranks=(), n=N):
    times, ranks = samples(time_dtype, rank_dtype, n)
    for i, value in bad_times:
        times[i] = value
    for i, value in bad_ranks:
        ranks[i] = value
    write(os.path.join(directory, case + ".h5"), times, ranks)


def main():
    directory = sys.argv[1]
    # native types, contiguous: read with pread(); a user block shifts every address
    write_valid(directory, "native", *samples())
    write_valid(directory, "userblock", *samples(), userblock=4096)
    # converted by HDF5 from float32 and int64, and from chunked, deflated storage
    write_valid(directory, "float32-int64", *samples(np.float32, np.int64))
    write_valid(directory, "chunked", *samples(), chunks=(1 << 16,), compression="gzip", shuffle=True)
    big_endian = samples(np.dtype(">f8"), np.dtype(">i4"))
    write_valid(directory, "big-endian", *big_endian)

    write_broken(directory, "nan-last", np.float64, np.int32, bad_times=[(N - 1, np.nan)])
    write_broken(directory, "rank-last", np.float64, np.int32, bad_ranks=[(N - 1, WORLD)])
    # a bad sample in each thread's half: the first one is reported
    write_broken(directory, "two-halves", np.float64, np.int32,
                 bad_times=[(N - 3, -1.5)], bad_ranks=[(N // 2 - 2, -7)])
    write_broken(directory, "second-half", np.float64, np.int32, bad_times=[(N // 2 + 5, np.inf)])
    write_broken(directory, "float32-inf-last", np.float32, np.int64, bad_times=[(N - 1, np.inf)])
    write_broken(directory, "int64-rank-last", np.float32, np.int64, bad_ranks=[(N - 1, 1 << 40)])
    # a length no block size divides: the last, short block is checked too
    write_broken(directory, "odd-length-last", np.float64, np.int32, bad_times=[(N - 1002, -2.0)], n=N - 1001)
    write_broken(directory, "uint64-rank-last", np.float64, np.uint64, bad_ranks=[(N - 1, (1 << 64) - 2)])
    print("OK")


main()
