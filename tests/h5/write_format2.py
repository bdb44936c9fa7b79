# write_format2.py — writes format-2 profiles (docs/file-format.md) with h5py, their cached statistics computed by numpy.
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


SELECTED = [0, 3, 5]


def write_expected(directory, name, ops, out):
    """One line per operation: numpy's statistics (section 4), and the
    samples of SELECTED ranks as h5py selects them, in raw files."""
    for k, (op, times, ranks) in enumerate(ops):
        n = len(times)
        present = np.unique(ranks)
        totals = np.array([times[ranks == r].sum() for r in present])
        values = [n, len(present), times.sum(),
                  times.mean() if n else np.nan, times.std(ddof=1) if n > 1 else np.nan,
                  times.min() if n else np.nan, times.max() if n else np.nan,
                  np.median(times) if n else np.nan,
                  np.quantile(times, 0.95) if n else np.nan, np.quantile(times, 0.99) if n else np.nan,
                  totals.max() / totals.mean() if n else np.nan,
                  present[np.argmax(totals)] if n else -1]
        out.write("%s\t%s\t%s\n" % (name, op, "\t".join(repr(float(v)) for v in values)))
        # what h5py reads back, selected as numpy selects
        with h5py.File(os.path.join(directory, name), "r") as f:
            group = f["timings"][[g for g in f["timings"] if f["timings"][g].attrs["name"] == op][0]]
            times, ranks = group["times"][()], group["ranks"][()]
        keep = np.isin(ranks, SELECTED)
        base = os.path.join(directory, "sel-%s-%d" % (name, k))
        np.asarray(times[keep], dtype=np.float64).tofile(base + ".f64")
        np.asarray(ranks[keep], dtype=np.int32).tofile(base + ".i32")


def main():
    directory = sys.argv[1]
    rng = np.random.default_rng(7)
    files = {
        "v2.h5": (sample_ops(rng, 6, [5000, 300000, 1, 0]), True, 2),
        "v2-interleaved.h5": (sample_ops(rng, 6, [4000, 200000], grouped=False), True, 2),
        "v1.h5": (sample_ops(rng, 6, [5000, 300000, 1, 0]), False, 1),
    }
    with open(os.path.join(directory, "expected.txt"), "w") as out:
        for name, (ops, cache, version) in files.items():
            write(os.path.join(directory, name), 6, ops, cache=cache, version=version)
            write_expected(directory, name, ops, out)
    write(os.path.join(directory, "v2-damaged.h5"), 6, sample_ops(rng, 6, [5000, 300000]))
    damage_times(os.path.join(directory, "v2-damaged.h5"), "io%2Fstep%251")
    print("OK")


if __name__ == "__main__":
    main()
