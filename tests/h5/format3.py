# format3.py — writes and reads format-3 profiles (columns) with h5py and numpy alone, independently of tprof's code, for the interoperability tests.
# SPDX-License-Identifier: MIT
import h5py
import numpy as np

STATS = ("sum", "mean", "std", "min", "max", "median", "p95", "p99")
NAN = float("nan")


def stats_of(times):
    """Section 4 statistics of stored samples, numpy's definitions."""
    t = np.asarray(times, dtype=np.float64)
    n = t.size
    return {
        "sum": float(t.sum()) if n else 0.0,
        "mean": float(t.mean()) if n else NAN,
        "std": float(t.std(ddof=1)) if n > 1 else NAN,
        "min": float(t.min()) if n else NAN,
        "max": float(t.max()) if n else NAN,
        "median": float(np.median(t)) if n else NAN,
        "p95": float(np.quantile(t, 0.95)) if n else NAN,
        "p99": float(np.quantile(t, 0.99)) if n else NAN,
    }


def operation(name, times, ranks, starts=None, threads=None, recorded=None):
    """One operation: samples in any rank order (the writer groups them by
    rank, keeping each rank's order); recorded: {rank: (count, sum, min,
    max)} for sampled capture, covering every recorded sample."""
    return {"name": name, "times": np.asarray(times, dtype=np.float64),
            "ranks": np.asarray(ranks, dtype=np.int64),
            "starts": None if starts is None else np.asarray(starts, dtype=np.float64),
            "threads": None if threads is None else np.asarray(threads, dtype=np.int64),
            "recorded": recorded}


def columns_of(world_size, ops):
    """The format's columns, computed with numpy: operations table, segment
    table and sample columns, grouped by operation then ascending rank."""
    cols = {"operations/name": [], "operations/count": [], "operations/segments": [0],
            "segments/rank": [], "segments/offset": [0], "segments/sum": [], "segments/min": [],
            "segments/max": [], "segments/recorded": [], "samples/times": [], "samples/starts": [],
            "samples/threads": []}
    for key in STATS:
        cols["operations/" + key] = []
    for op in ops:
        order = np.argsort(op["ranks"], kind="stable")
        times, ranks = op["times"][order], op["ranks"][order]
        rec = op["recorded"] or {}
        for r in np.unique(ranks):
            sel = times[ranks == r]
            count, total, lo, hi = rec.get(int(r), (sel.size, sel.sum(), sel.min(), sel.max()))
            cols["segments/rank"].append(int(r))
            cols["segments/offset"].append(cols["segments/offset"][-1] + sel.size)
            cols["segments/sum"].append(total)
            cols["segments/min"].append(lo)
            cols["segments/max"].append(hi)
            cols["segments/recorded"].append(count)
        cols["operations/segments"].append(len(cols["segments/rank"]))
        cols["samples/times"].extend(times)
        if op["starts"] is not None:
            cols["samples/starts"].extend(op["starts"][order])
        if op["threads"] is not None:
            cols["samples/threads"].extend(op["threads"][order])
        stats = stats_of(times)
        if rec:
            # count, sum, mean, min and max cover everything recorded
            count = sum(v[0] for v in rec.values())
            stats["sum"] = float(sum(v[1] for v in rec.values()))
            stats["mean"] = stats["sum"] / count
            stats["min"] = float(min(v[2] for v in rec.values()))
            stats["max"] = float(max(v[3] for v in rec.values()))
        else:
            count = times.size
        cols["operations/name"].append(op["name"])
        cols["operations/count"].append(count)
        for key in STATS:
            cols["operations/" + key].append(stats[key])
    return cols


# what tprof writes; a test may store any member in another type
DEFAULT_TYPES = {"operations/count": "<i8", "operations/segments": "<i8", "segments/rank": "<i4",
                 "segments/offset": "<i8", "segments/recorded": "<i8", "samples/threads": "<i4"}


def write(path, world_size, ops, *, timeline=True, recorded=False, hostnames=None, clock_offsets=None,
          timeline_origin=None, chunked=False, types=None, optional_attrs=True):
    """Writes a format-3 profile by hand: only the required members, plus
    starts and threads (timeline), segments/recorded (recorded), the rank
    group and the optional root attributes when asked; columns chunked and
    unlimited when chunked; each column's type from types (member path ->
    numpy dtype string), float64 and DEFAULT_TYPES otherwise."""
    types = dict(DEFAULT_TYPES, **(types or {}))
    cols = columns_of(world_size, ops)
    with h5py.File(path, "w") as f:
        f.attrs["format"] = "tprof-profile"
        f.attrs["format_version"] = np.int64(3)
        f.attrs["world_size"] = np.int64(world_size)
        if optional_attrs:
            f.attrs["created"] = "2026-12-05T03:00:00Z"
            f.attrs["producer"] = "h5py by hand"
            f.attrs["clock"] = "CLOCK_MONOTONIC"
        if timeline_origin is not None:
            f.attrs["timeline_origin"] = timeline_origin

        def column(name, values):
            values = np.asarray(values, dtype=types.get(name, "<f8"))
            if chunked:
                f.create_dataset(name, data=values, maxshape=(None,), chunks=(max(1, min(7, values.size)),))
            else:
                f.create_dataset(name, data=values)

        f.create_dataset("operations/name", shape=(len(ops),), data=cols["operations/name"] or None,
                         dtype=h5py.string_dtype("utf-8"))
        column("operations/count", cols["operations/count"])
        for key in STATS:
            column("operations/" + key, cols["operations/" + key])
        column("operations/segments", cols["operations/segments"])
        column("segments/rank", cols["segments/rank"])
        column("segments/offset", cols["segments/offset"])
        for key in ("sum", "min", "max"):
            column("segments/" + key, cols["segments/" + key])
        if recorded:
            column("segments/recorded", cols["segments/recorded"])
        column("samples/times", cols["samples/times"])
        if timeline:
            column("samples/starts", cols["samples/starts"])
            column("samples/threads", cols["samples/threads"])
        if hostnames is not None:
            f.create_dataset("ranks/hostname", data=hostnames, dtype=h5py.string_dtype("utf-8"))
        if clock_offsets is not None:
            f.create_dataset("ranks/clock_offset", data=np.asarray(clock_offsets[0], dtype=np.float64))
            f.create_dataset("ranks/clock_offset_error", data=np.asarray(clock_offsets[1], dtype=np.float64))
    return cols


def read_operation(f, k):
    """Operation k of an open format-3 file, by the format's h5py recipe:
    its samples' times, ranks and (where stored) starts and threads."""
    t = f["samples/times"]
    o = f["segments/offset"][()]
    r = f["segments/rank"][()]
    s0, s1 = f["operations/segments"][k:k + 2]
    out = {"times": t[o[s0]:o[s1]], "ranks": np.repeat(r[s0:s1], np.diff(o[s0:s1 + 1]))}
    for key in ("starts", "threads"):
        if "samples/" + key in f:
            out[key] = f["samples/" + key][o[s0]:o[s1]]
    out["segments"] = (int(s0), int(s1))
    return out


def names(f):
    return [n.decode("utf-8") if isinstance(n, bytes) else n for n in f["operations/name"][()]]


# Mutations for the refusal tests: each returns a function that spoils
# one member of an open h5py file in place.

def replace(f, member, values, dtype=None):
    """@member written again as @values (of its own type unless @dtype)."""
    dtype = dtype or f[member].dtype
    del f[member]
    f.create_dataset(member, data=np.asarray(values, dtype=dtype))


def set_value(member, index, value):
    def mutate(f):
        column = f[member][()]
        column[index] = value
        replace(f, member, column)
    return mutate


def scale(member, index, factor):
    def mutate(f):
        column = f[member][()]
        column[index] *= factor
        replace(f, member, column)
    return mutate
