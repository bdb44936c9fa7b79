#!/usr/bin/env python3
# check-merge-paths.py — tprof merge into the profile's own pages against the merge in memory: every dataset and attribute equal, on a job with every shape a merge meets, and on a damaged file, which takes the in-memory path.
# SPDX-License-Identifier: MIT
import os
import struct
import subprocess
import sys
import tempfile

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_spill as ms  # noqa: E402
from make_spill import check, failures  # noqa: E402

TPROF = sys.argv[1]
JOB = 0x5EED0000000FA7E5


def merge(spill, out, path):
    env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="", TPROF_MERGE_PATH=path)
    r = subprocess.run([TPROF, "merge", spill, "-o", out], capture_output=True, text=True, timeout=120, env=env)
    check(r.returncode == 0 and "AddressSanitizer" not in r.stderr, "merge (%s) failed: %d %s" % (path, r.returncode,
                                                                                                 r.stderr))
    return r


def values(obj):
    """A dataset's or attribute's values, comparable (strings decoded)."""
    v = obj[()] if isinstance(obj, h5py.Dataset) else obj
    a = np.asarray(v)
    if a.dtype.kind in "OSU":
        return [x.decode() if isinstance(x, bytes) else str(x) for x in a.ravel()]
    return a


def same(x, y):
    if isinstance(x, list) or isinstance(y, list):
        return x == y
    # bit for bit: NaN where NaN, the same doubles
    return x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()


def compare(a, b, what):
    """Every member, dataset and attribute of @a and @b, recursively; the
    creation time alone may differ."""
    n = 0

    def attrs(x, y, name):
        nonlocal n
        check(set(x.attrs) == set(y.attrs), "%s %s: attributes %s" % (what, name, set(x.attrs) ^ set(y.attrs)))
        for k in set(x.attrs) & set(y.attrs):
            if name == "/" and k == "created":
                continue
            n += 1
            check(same(values(x.attrs[k]), values(y.attrs[k])), "%s %s@%s: %r != %r" % (what, name, k, x.attrs[k],
                                                                                      y.attrs[k]))

    def walk(x, y, name):
        nonlocal n
        attrs(x, y, name)
        check(set(x) == set(y), "%s %s: members %s" % (what, name, set(x) ^ set(y)))
        for k in sorted(set(x) & set(y)):
            path = name.rstrip("/") + "/" + k
            if isinstance(x[k], h5py.Group):
                walk(x[k], y[k], path)
                continue
            attrs(x[k], y[k], path)
            n += 1
            check(x[k].dtype == y[k].dtype and same(values(x[k]), values(y[k])), "%s %s differs" % (what, path))

    walk(a, b, "/")
    return n


def write_job(d, world_size=6, seed=3):
    """Spill files of every shape: three operations, two threads, a rank
    whose samples start before rank 0's (its clock offset), raw samples
    after a CLOCK, an unfinished flush, a signal, an END, a missing rank,
    an operation seen only in an unfinished flush. Returns the writers and
    the committed samples per rank."""
    rng = np.random.default_rng(seed)
    writers, committed = {}, {}
    for r in range(world_size):
        if r == 4:
            continue  # no file
        off = 0.0 if r == 0 else float(rng.uniform(-5, 5))
        off = -30.0 if r == 3 else off   # rank 3 holds the earliest start
        w = ms.SpillWriter(d, JOB, r, world_size, clock_offset=off, clock_offset_error=1e-6 * r,
                           started=100.0 - off, started_wall=1.8e9 + 0.25, host="node%d" % (r // 2), pid=10 + r)
        writers[r], committed[r] = w, 0
        names = ["forward", "allreduce", "io"] if r % 2 == 0 else ["allreduce", "forward", "io"]
        w.names(names)
        now = 100.0 - off
        for flush in range(3):
            for op in range(3 if r != 5 else 2):
                for thread in (0, 1) if op != 2 else (0,):
                    n = int(rng.integers(1, 400))
                    starts = now + np.sort(rng.uniform(0, 1, n))
                    if r == 2 and flush == 1 and op == 0:
                        w.clock(1000, now, 1e-6)
                        w.raw_samples(op, thread, [1000 + int(x) for x in rng.integers(0, 10 ** 6, n)],
                                      [int(x) for x in rng.integers(1, 5000, n)])
                    else:
                        w.samples(op, thread, list(starts), list(rng.exponential(0.001 * (1 + r), n)))
                    committed[r] += n
            now += 1.0
            w.commit(now)
        if r == 1:
            w.names(["late"])                                   # only in an unfinished flush
            w.samples(3, 0, [now + 0.5], [0.25])
        if r == 5:
            w.signal(15, now)
        if r == 0:
            w.end(now + 0.1, "")
    return writers, committed


def samples_record(path, k):
    """The offset of the @k-th SAMPLES record of a spill file (0 first)."""
    with open(path, "rb") as f:
        data = f.read()
    at = 0
    while at < len(data):
        magic, rtype, _, length = struct.unpack_from("<IHHI", data, at)
        assert magic == ms.MAGIC
        if rtype == ms.SAMPLES:
            if k == 0:
                return at
            k -= 1
        at += 16 + length + (-length % 8)
    raise AssertionError("no such record")


def main():
    with tempfile.TemporaryDirectory() as d:
        spill = os.path.join(d, "spill")
        os.mkdir(spill)
        writers, committed = write_job(spill)
        mem, fil = os.path.join(d, "memory.h5"), os.path.join(d, "file.h5")
        rm, rf = merge(spill, mem, "memory"), merge(spill, fil, "file")
        check(rm.stdout.replace(mem, "OUT") == rf.stdout.replace(fil, "OUT"), "the reports differ:\n%s\n%s" %
              (rm.stdout, rf.stdout))
        check(rm.stderr == rf.stderr, "the problems differ:\n%s\n%s" % (rm.stderr, rf.stderr))
        with h5py.File(mem, "r") as a, h5py.File(fil, "r") as b:
            n = compare(a, b, "whole job")
            check(n > 40, "only %d datasets and attributes compared" % n)
            # independent expectations, so that two equal wrong files fail
            check(int(a["operations/count"][()].sum()) == sum(committed.values()), "samples %r" %
                  a["operations/count"][()])
            check([x.decode() for x in b["operations/name"][()]] == ["forward", "allreduce", "io"],
                  "operations %r" % b["operations/name"][()])
            starts = b["samples/starts"][()]
            check(starts.min() == 0.0, "the timeline starts at the earliest sample: %r" % starts.min())
            seg = b["segments/rank"][()]
            check(3 in seg and 4 not in seg, "segments' ranks %r" % seg)
            until = b["ranks/data_until"][()]
            check(np.isnan(until[4]) and np.all(np.isfinite(np.delete(until, 4))), "data_until %r" % until)

        # a committed record damaged inside its samples: the count cannot
        # see it, the read in place finds it and the merge goes in memory
        w = writers[2]
        damaged = samples_record(w.path, 7)
        with open(w.path, "r+b") as f:
            f.seek(damaged + 16 + 16 + 8)   # its first sample's start
            byte = f.read(1)
            f.seek(-1, os.SEEK_CUR)
            f.write(bytes([byte[0] ^ 0x10]))
        rm, rf = merge(spill, mem, "memory"), merge(spill, fil, "file")
        check("damaged at byte %d" % damaged in rf.stderr and w.path in rf.stderr, "the damage is named: %r" %
              rf.stderr)
        check(rm.stdout.replace(mem, "OUT") == rf.stdout.replace(fil, "OUT") and rm.stderr == rf.stderr, "the damaged job's reports differ:\n%s\n%s" %
              (rm.stdout, rf.stdout))
        with h5py.File(mem, "r") as a, h5py.File(fil, "r") as b:
            compare(a, b, "damaged job")
            check(int(b["operations/count"][()].sum()) < sum(committed.values()), "rank 2 lost its damaged flushes")
        check(not any(name.startswith(".tprof-") for name in os.listdir(d)), "a temporary file left: %r" %
              os.listdir(d))

    if failures:
        print("%d failure(s)" % len(failures))
        sys.exit(1)
    print("ok")


main()
