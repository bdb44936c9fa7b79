# write_layouts.py — writes with h5py profiles whose samples are stored in other layouts and types (big-endian, narrow, chunked and deflated, compact) and contiguous ones holding bad values, for the isolated reader's own reads.
# SPDX-License-Identifier: MIT
import os
import sys

import h5py
import numpy as np

from write_format2 import cache_of

WORLD_SIZE = 6


def timeline_ops(rng, sizes):
    """(name, times, ranks, starts, threads) grouped by rank; rank 1 records nothing."""
    ops = []
    for k, n in enumerate(sizes):
        ranks = np.sort(rng.integers(0, WORLD_SIZE, n)).astype(np.int64)
        ranks[ranks == 1] = 0
        ranks = np.sort(ranks, kind="stable")
        times = rng.exponential(1e-3 * (k + 1), n)
        starts = np.cumsum(rng.exponential(1e-3, n)) - 0.5
        threads = rng.integers(0, 5, n)
        ops.append(("op%d" % k, times, ranks, starts, threads))
    return ops


def write(path, ops, dtypes, version=2, cache=True, dataset_kwargs=None, compact=False):
    """dtypes: numpy dtypes of times, ranks, starts, threads (None: leave out)."""
    names = ("times", "ranks", "starts", "threads")
    with h5py.File(path, "w") as f:
        f.attrs["format"] = "tprof-profile"
        f.attrs["format_version"] = version
        f.attrs["world_size"] = WORLD_SIZE
        timings = f.create_group("timings", track_order=True)
        for op in ops:
            group = timings.create_group(op[0])
            group.attrs["name"] = op[0]
            for name, values, dtype in zip(names, op[1:], dtypes):
                if dtype is None:
                    continue
                data = np.asarray(values).astype(dtype)
                if compact:
                    write_compact(group, name, data)
                else:
                    kwargs = dict(dataset_kwargs or {})
                    if "chunks" in kwargs:  # a chunk no longer than the data, never 0
                        kwargs["chunks"] = (max(1, min(kwargs["chunks"][0], len(data))),)
                        kwargs["maxshape"] = (None,)
                    group.create_dataset(name, data=data, **kwargs)
            if cache:
                # from the values as stored: a float32 time is what a reader gets
                times = np.asarray(op[1]).astype(dtypes[0]).astype(np.float64)
                datasets, attrs = cache_of(times, np.asarray(op[2]), WORLD_SIZE)
                for key, value in datasets.items():
                    group[key] = value
                for key, value in attrs.items():
                    group.attrs[key] = value


def write_compact(group, name, data):
    """A dataset whose values live in its object header."""
    space = h5py.h5s.create_simple(data.shape)
    dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
    dcpl.set_layout(h5py.h5d.COMPACT)
    dset = h5py.h5d.create(group.id, name.encode(), h5py.h5t.py_create(data.dtype), space, dcpl=dcpl)
    dset.write(h5py.h5s.ALL, h5py.h5s.ALL, np.ascontiguousarray(data))


def write_sampled(path, stretch=False):
    """Sampled capture (docs/file-format.md): rank 0 stores a third of what it
    recorded, so its cached sum and extremes cover samples the file lacks;
    only rank_recorded tells a reader so. With @stretch, one stored sample
    lies outside rank 0's cached extremes."""
    rng = np.random.default_rng(7)
    n = 3000
    ranks = np.sort(rng.integers(0, WORLD_SIZE, n))
    times = rng.exponential(1e-3, n)
    counts = np.bincount(ranks, minlength=WORLD_SIZE).astype(np.int64)
    recorded = counts.copy()
    recorded[0] *= 3
    sums = np.array([times[ranks == r].sum() for r in range(WORLD_SIZE)])
    mins = np.array([times[ranks == r].min() if counts[r] else np.nan for r in range(WORLD_SIZE)])
    maxs = np.array([times[ranks == r].max() if counts[r] else np.nan for r in range(WORLD_SIZE)])
    sums[0] *= 3
    mins[0] *= 0.5
    maxs[0] *= 2
    if stretch:
        times[0] = maxs[0] * 1.5
    total = int(recorded.sum())
    with h5py.File(path, "w") as f:
        f.attrs["format"] = "tprof-profile"
        f.attrs["format_version"] = 2
        f.attrs["world_size"] = WORLD_SIZE
        group = f.create_group("timings").create_group("op0")
        group.attrs["name"] = "op0"
        group["times"] = times
        group["ranks"] = ranks.astype(np.int32)
        for key, value in [("rank_count", counts), ("rank_recorded", recorded), ("rank_sum", sums),
                           ("rank_min", mins), ("rank_max", maxs)]:
            group[key] = value
        lo, hi = float(np.nanmin(mins)), float(np.nanmax(maxs))
        attrs = {"count": np.int64(total), "sum": float(sums.sum()), "mean": float(sums.sum()) / total,
                 "std": 1e-3, "min": lo, "max": hi, "median": lo + (hi - lo) * 0.3,
                 "p95": lo + (hi - lo) * 0.8, "p99": lo + (hi - lo) * 0.9}
        for key, value in attrs.items():
            group.attrs[key] = value


def main():
    directory = sys.argv[1]
    rng = np.random.default_rng(20261204)
    big = timeline_ops(rng, [70000, 5, 0])
    small = timeline_ops(rng, [300, 1, 0])
    out = lambda name: os.path.join(directory, name)

    write(out("layout-big-endian.h5"), big, (">f8", ">i4", ">f8", ">i2"))
    write(out("layout-narrow.h5"), big, ("<f4", "u1", "<f4", "<i8"))
    write(out("layout-big-endian-f4.h5"), big, (">f4", ">u8", None, None), version=1, cache=False)
    write(out("layout-chunked.h5"), big, ("<f8", "<i4", "<f8", "<i4"),
          dataset_kwargs={"chunks": (4096,), "compression": "gzip", "shuffle": True})
    write(out("layout-compact.h5"), small, ("<f8", "<i4", "<f8", "<i4"), compact=True)

    write_sampled(out("layout-sampled.h5"))
    write_sampled(out("bad-value-sampled.h5"), stretch=True)

    # contiguous, with one bad value each: refused as in process
    bad = timeline_ops(rng, [9000])
    name, times, ranks, starts, threads = bad[0]
    for label, dtypes, change in [
            ("nan", ("<f8", "<i4", "<f8", "<i4"), lambda t, r, s, h: t.__setitem__(4321, np.nan)),
            ("negative", ("<f8", "<i4", "<f8", "<i4"), lambda t, r, s, h: t.__setitem__(8000, -0.5)),
            ("nan-big-endian", (">f8", ">i4", None, None), lambda t, r, s, h: t.__setitem__(17, np.nan)),
            ("rank-wide", ("<f8", "<i8", None, None), lambda t, r, s, h: r.__setitem__(5000, 5000000000)),
            ("rank-unsigned", ("<f8", "<u8", None, None), lambda t, r, s, h: r.__setitem__(6000, 2**64 - 1)),
            ("start-infinite", ("<f8", "<i4", "<f8", "<i4"), lambda t, r, s, h: s.__setitem__(700, np.inf)),
            ("thread-negative", ("<f8", "<i4", "<f8", ">i8"), lambda t, r, s, h: h.__setitem__(800, -3))]:
        t, r, s, h = times.copy(), ranks.copy().astype(np.uint64 if label == "rank-unsigned" else np.int64), \
            starts.copy(), threads.copy()
        change(t, r, s, h)
        write(out("bad-value-%s.h5" % label), [(name, t, r, s, h)], dtypes, cache=False)
    print("OK")


if __name__ == "__main__":
    main()
