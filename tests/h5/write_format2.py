# write_format2.py — writes format-2 profiles (DESIGN.md 2b) with h5py, their cached statistics computed by numpy.
# SPDX-License-Identifier: MIT
import os
import sys

import h5py
import numpy as np


def cache_of(times, ranks, world_size):
    """The section 2b members of one operation, from numpy."""
    n = len(times)
    counts = np.bincount(ranks, minlength=world_size).astype(np.int64)
    sums = np.array([times[ranks == r].sum() for r in range(world_size)])
    mins = np.array([times[ranks == r].min() if counts[r] else np.nan for r in range(world_size)])
    maxs = np.array([times[ranks == r].max() if counts[r] else np.nan for r in range(world_size)])
    attrs = {
        "count": np.int64(n),
        "sum": float(times.sum()),
        "mean": float(times.mean()) if n else np.nan,
        "std": float(times.std(ddof=1)) if n > 1 else np.nan,
        "min": float(times.min()) if n else np.nan,
        "max": float(times.max()) if n else np.nan,
        "median": float(np.median(times)) if n else np.nan,
        "p95": float(np.quantile(times, 0.95)) if n else np.nan,
        "p99": float(np.quantile(times, 0.99)) if n else np.nan,
    }
    return {"rank_count": counts, "rank_sum": sums, "rank_min": mins, "rank_max": maxs}, attrs


def write(path, world_size, ops, cache=True, version=2):
    """ops: list of (name, times, ranks); returns nothing."""
    with h5py.File(path, "w") as f:
        f.attrs["format"] = "tprof-profile"
        f.attrs["format_version"] = version
        f.attrs["world_size"] = world_size
        timings = f.create_group("timings", track_order=True)
        for name, times, ranks in ops:
            group = timings.create_group(name.replace("%", "%25").replace("/", "%2F"))
            group.attrs["name"] = name
            group["times"] = np.asarray(times, dtype=np.float64)
            group["ranks"] = np.asarray(ranks, dtype=np.int32)
            if cache:
                datasets, attrs = cache_of(np.asarray(times, dtype=np.float64), np.asarray(ranks), world_size)
                for key, value in datasets.items():
                    group[key] = value
                for key, value in attrs.items():
                    group.attrs[key] = value
        f.create_group("ranks")["hostname"] = ["node%d" % (r // 2) for r in range(world_size)]


def sample_ops(rng, world_size, sizes, grouped=True):
    """Random operations of the given sizes, grouped by rank or interleaved."""
    ops = []
    for k, n in enumerate(sizes):
        ranks = rng.integers(0, world_size, n).astype(np.int32)
        # rank 1 records nothing, so that a rank without samples is covered
        ranks[ranks == 1] = 0
        if grouped:
            ranks = np.sort(ranks, kind="stable")
        times = rng.exponential(1e-3 * (k + 1), n) + ranks * 1e-4
        ops.append(("op%d" % k if k != 1 else "io/step%1", times, ranks))
    return ops


def damage_times(path, op_link):
    """Overwrites the raw bytes of `times` with NaN: only a reader that
    reads the samples can notice."""
    with h5py.File(path, "r") as f:
        dset = f["timings"][op_link]["times"]
        offset, size = dset.id.get_offset(), dset.id.get_storage_size()
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(np.full(size // 8, np.nan).tobytes())


def main():
    directory = sys.argv[1]
    rng = np.random.default_rng(7)
    write(os.path.join(directory, "v2.h5"), 6, sample_ops(rng, 6, [5000, 300000, 1, 0]))
    write(os.path.join(directory, "v2-interleaved.h5"), 6, sample_ops(rng, 6, [4000, 200000], grouped=False))
    write(os.path.join(directory, "v1.h5"), 6, sample_ops(rng, 6, [5000, 300000, 1, 0]), cache=False, version=1)
    write(os.path.join(directory, "v2-damaged.h5"), 6, sample_ops(rng, 6, [5000, 300000]))
    damage_times(os.path.join(directory, "v2-damaged.h5"), "io%2Fstep%251")
    print("OK")


if __name__ == "__main__":
    main()
