# check_format3_read.py — format-3 profiles written by hand with h5py (minimal, full, chunked, other widths, empty operations) read by `tprof summary`, `tprof ranks` and `tprof trace`, every figure against numpy on the same data.
# Usage: check_format3_read.py TPROF [PYTHON]   (prints OK; with PYTHON, an interpreter that imports
# tprof, the in-process reader's tprof.ProfiledTime.load must give every sample too)
# SPDX-License-Identifier: MIT
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import format3  # noqa: E402

errors = []


def close(have, want):
    if want is None or (isinstance(want, float) and math.isnan(want)):
        return have is None
    return have is not None and math.isclose(have, want, rel_tol=1e-9, abs_tol=1e-15)


def tprof(*args):
    done = subprocess.run([TPROF] + list(args), capture_output=True, text=True)
    if done.returncode != 0:
        errors.append("tprof %s: exit %d: %s" % (" ".join(args), done.returncode, done.stderr.strip()))
        return None
    return done.stdout


def rng_ops(rng, world_size, timeline, sampled=False, exact32=False):
    """A few operations: interleaved ranks, a rank without samples, an
    operation with no sample (no segment), names that need care."""
    ops = []
    specs = [("forward", 40, False), ("io/write 100%", 9, True), ("nothing", 0, False), ("Æ δ", 1, False),
             ("step", 25, False)]
    clock = np.zeros((world_size, 2))
    for k, (name, n, interleave) in enumerate(specs):
        ranks = rng.integers(0, world_size, n)
        ranks[ranks == 1] = 0          # rank 1 records nothing
        if not interleave:
            ranks = np.sort(ranks, kind="stable")
        times = rng.exponential(1e-3 * (k + 1), n)
        if exact32:
            times = np.round(times * 2 ** 24) / 2 ** 24   # exact in float32
        starts = threads = None
        if timeline:
            threads = rng.integers(0, 2, n)
            starts = np.empty(n)
            for i in range(n):
                r, t = ranks[i], threads[i]
                starts[i] = clock[r, t]
                clock[r, t] += times[i] + 1e-5
        recorded = None
        if sampled and name == "step":
            # sampled capture: each rank recorded four times what is kept
            recorded = {int(r): (4 * int((ranks == r).sum()), 4.0 * times[ranks == r].sum(),
                                 times[ranks == r].min() / 2, times[ranks == r].max() * 1.5)
                        for r in np.unique(ranks)}
        ops.append(format3.operation(name, times, ranks, starts, threads, recorded))
    return ops


def expected_summary(op):
    times, ranks = op["times"], op["ranks"]
    rec = op["recorded"] or {}
    present = np.unique(ranks)
    totals = np.array([rec[r][1] if r in rec else times[ranks == r].sum() for r in present])
    want = format3.stats_of(times)
    want["count"] = sum(v[0] for v in rec.values()) if rec else times.size
    if rec:
        want["sum"] = float(totals.sum())
        want["mean"] = want["sum"] / want["count"]
        want["min"] = float(min(v[2] for v in rec.values()))
        want["max"] = float(max(v[3] for v in rec.values()))
    want["rank_count"] = len(present)
    want["imbalance"] = float(totals.max() / totals.mean()) if present.size else None
    want["slowest_rank"] = int(present[np.argmax(totals)]) if present.size else None
    want["stored"] = times.size
    want["sampled"] = bool(rec)
    return want


def check_summary(path, world_size, ops):
    out = tprof("summary", path, "--format", "json")
    if out is None:
        return
    got = json.loads(out)
    if got["world_size"] != world_size:
        errors.append("%s: world_size %r" % (path, got["world_size"]))
    names = [o["name"] for o in got["operations"]]
    if names != [op["name"] for op in ops]:
        errors.append("%s: operations %r, expected %r" % (path, names, [op["name"] for op in ops]))
        return
    for op, o in zip(ops, got["operations"]):
        for key, want in expected_summary(op).items():
            exact = key in ("count", "rank_count", "slowest_rank", "stored", "sampled")
            if not (o[key] == want if exact else close(o[key], want)):
                errors.append("%s: %s: summary %s is %r, numpy says %r" % (path, op["name"], key, o[key], want))


def check_ranks(path, op):
    """Every stored sample of each rank, through per-rank statistics."""
    out = tprof("ranks", path, "--op", op["name"], "--format", "json")
    if out is None:
        return
    rows = json.loads(out)["ranks"]
    times, ranks = op["times"], op["ranks"]
    if [row["rank"] for row in rows] != list(np.unique(ranks)):
        errors.append("%s: %s: ranks %r" % (path, op["name"], [row["rank"] for row in rows]))
        return
    for row in rows:
        mine = times[ranks == row["rank"]]
        want = {"count": mine.size, "sum": mine.sum(), "min": mine.min(), "max": mine.max(),
                "std": mine.std(ddof=1) if mine.size > 1 else None}
        for key, value in want.items():
            if not close(row[key], None if value is None else float(value)):
                errors.append("%s: %s: rank %d %s is %r, numpy says %r" % (path, op["name"], row["rank"], key,
                                                                          row[key], value))


def check_trace(path, ops, tmp):
    """Every sample's rank, thread, start and duration, through the trace."""
    trace = os.path.join(tmp, "trace.json")
    if tprof("trace", path, "-o", trace) is None:
        return
    with open(trace, encoding="utf-8") as f:
        events = [e for e in json.load(f)["traceEvents"] if e["ph"] == "X"]
    for op in ops:
        got = np.array(sorted((e["pid"], e["tid"], e["ts"], e["dur"]) for e in events if e["name"] == op["name"]))
        want = np.array(sorted((r, t, s * 1e6, d * 1e6)
                               for r, t, s, d in zip(op["ranks"], op["threads"], op["starts"], op["times"])))
        # the trace gives microseconds to the nanosecond
        if got.shape != want.shape or not np.allclose(got, want, rtol=0, atol=1.5e-3):
            errors.append("%s: %s: trace events %r, the file holds %r" % (path, op["name"], got, want))


# the in-process reader, through the Python module: each operation's
# samples and ranks, in the order it holds them
LOAD = """import json, sys, tprof
pt = tprof.ProfiledTime.load(sys.argv[1])
json.dump({name: [pt[name].times.tolist(), pt[name].ranks.tolist()] for name in pt}, sys.stdout)
"""


def check_load(python, path, ops):
    done = subprocess.run([python, "-c", LOAD, path], capture_output=True, text=True)
    if done.returncode != 0:
        errors.append("ProfiledTime.load(%s): %s" % (path, done.stderr.strip()[-300:]))
        return
    got = json.loads(done.stdout)
    if list(got) != [op["name"] for op in ops]:
        errors.append("%s: ProfiledTime.load gives operations %r" % (path, list(got)))
        return
    for op in ops:
        times, ranks = np.asarray(got[op["name"]][0]), np.asarray(got[op["name"]][1])
        # the same samples of each rank, in the file's order
        for r in np.unique(np.concatenate([ranks, op["ranks"]])):
            if not np.array_equal(times[ranks == r], op["times"][op["ranks"] == r]):
                errors.append("%s: %s: ProfiledTime.load gives rank %d the samples %r" % (path, op["name"], r,
                                                                                       times[ranks == r]))


def check_written(path, ops):
    """The file holds what it should, read back by h5py with the format's
    recipe: so that a failure below is tprof's, not this writer's."""
    import h5py
    with h5py.File(path, "r") as f:
        if format3.names(f) != [op["name"] for op in ops]:
            errors.append("%s: h5py reads names %r" % (path, format3.names(f)))
        for k, op in enumerate(ops):
            got = format3.read_operation(f, k)
            order = np.argsort(op["ranks"], kind="stable")
            for key in ("times", "ranks", "starts", "threads"):
                if op[key] is not None and not np.array_equal(got[key], op[key][order]):
                    errors.append("%s: %s: h5py reads %s %r" % (path, op["name"], key, got[key]))


def main():
    global TPROF
    TPROF = sys.argv[1]
    python = sys.argv[2] if len(sys.argv) > 2 else None
    rng = np.random.default_rng(23)
    hosts = ["node-a", "node-a", "nœud-b", "node-c"]
    offsets = ([0.0, 1e-3, -2e-3, 5e-6], [0.0, 1e-6, 2e-6, 1e-6])
    variants = {
        # only the required members: no timeline, no host names, no
        # optional root attribute
        "minimal": (3, rng_ops(rng, 3, False), dict(timeline=False, optional_attrs=False)),
        "full": (4, rng_ops(rng, 4, True, sampled=True),
                 dict(recorded=True, hostnames=hosts, clock_offsets=offsets,
                      timeline_origin="2026-12-05T03:00:00Z")),
        # as a writer that appends makes them
        "chunked": (4, rng_ops(rng, 4, True, sampled=True),
                    dict(recorded=True, hostnames=hosts, clock_offsets=offsets, chunked=True)),
        "widths": (4, rng_ops(rng, 4, True, exact32=True),
                   dict(types={"samples/times": "<f4", "samples/starts": ">f8", "samples/threads": "<u1",
                               "segments/rank": "<i2", "segments/offset": "<u4", "operations/segments": ">i4",
                               "operations/count": "<u8", "segments/recorded": ">i8"}, recorded=True)),
        "no-samples": (2, [format3.operation("idle", [], []), format3.operation("wait", [], [])],
                       dict(timeline=False)),
        "no-operations": (2, [], dict(timeline=False)),
    }
    with tempfile.TemporaryDirectory(prefix="tprof-format3-read-") as tmp:
        for label, (world_size, ops, options) in variants.items():
            path = os.path.join(tmp, label + ".h5")
            format3.write(path, world_size, ops, **options)
            before = len(errors)
            check_written(path, ops)
            if len(errors) > before:
                continue
            check_summary(path, world_size, ops)
            if python is not None:
                check_load(python, path, ops)
            for op in ops:
                if op["times"].size and not op["recorded"]:
                    check_ranks(path, op)
            if options.get("timeline", True) and ops:
                check_trace(path, ops, tmp)
    if errors:
        print("FAIL:\n" + "\n".join(errors[:40]))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
