#!/usr/bin/env python3
# check-merge-running.py — tprof merge of a job that is still spilling: the file grows while the merge counts and reads it, on the path into the file's rows and on the one in memory.
# SPDX-License-Identifier: MIT
"""Usage: check-merge-running.py TPROF SPILL_CHILD

spill-child (tests/spill/spill-child.c) records "step" without end and
spills every 20 ms, about a megabyte a flush, while tprof merge runs on
its folder again and again. The merge into the file lays its rows out
from a first count of the file and then reads it again, by when more
flushes have landed: it must keep to what it counted or start over in
memory, never write past an operation's rows. Every merged profile must
hold a prefix of what the child recorded, in order, and load whole."""
import os
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_spill import check, failures  # noqa: E402

TPROF, CHILD = sys.argv[1:3]
ROUNDS = 6


def step_durations(path):
    """The durations of "step" in the merged profile @path, its only rank."""
    with h5py.File(path, "r") as f:
        names = [x.decode() for x in f["operations/name"][()]]
        check("step" in names, "%s: no step among %r" % (path, names))
        k = names.index("step")
        s0, s1 = f["operations/segments"][k:k + 2]
        offset, rank = f["segments/offset"][()], f["segments/rank"][()]
        check(s1 - s0 == 1 and rank[s0] == 0, "%s: step's segments %r" % (path, rank[s0:s1]))
        rows = slice(offset[s0], offset[s0 + 1])
        return f["samples/times"][rows]


def merge_once(spill, out, path, at_least):
    env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="", TPROF_MERGE_PATH=path)
    r = subprocess.run([TPROF, "merge", spill, "-o", out], capture_output=True, text=True, timeout=120, env=env)
    check(r.returncode == 0, "merge (%s) of a running job failed: %d %s" % (path, r.returncode, r.stderr))
    check("damaged" not in r.stderr and "not used" not in r.stderr, "merge (%s): %s" % (path, r.stderr))
    d = step_durations(out)
    # thread 0's k-th step lasts (k + 1) us: a prefix, in order, nothing twice
    want = (np.arange(len(d), dtype=np.float64) + 1.0) * 1e-6
    check(np.array_equal(d, want), "merge (%s): step is not the prefix recorded (%d samples)" % (path, len(d)))
    check(len(d) >= at_least, "merge (%s): %d samples of step, an earlier merge had %d" % (path, len(d), at_least))
    # the whole load: every cache against its samples
    r = subprocess.run([TPROF, "summary", out], capture_output=True, text=True, timeout=120)
    check(r.returncode == 0 and "step" in r.stdout, "summary of the merge (%s): %s" % (path, r.stderr))
    return len(d)


def main():
    with tempfile.TemporaryDirectory() as d:
        spill = os.path.join(d, "spill")
        os.mkdir(spill)
        child = subprocess.Popen([CHILD, spill, "0.02", "1", "200000"], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = child.stdout.readline()
            check(line.startswith("ready "), "spill-child is not ready: %r" % line)
            path = line.split(" ", 1)[1].strip()
            child.stdin.write("loop\n")
            child.stdin.flush()
            deadline = time.monotonic() + 30
            while os.path.getsize(path) < 16 << 20 and time.monotonic() < deadline:
                time.sleep(0.05)
            check(os.path.getsize(path) >= 16 << 20, "the child spilled %d bytes in 30 s" % os.path.getsize(path))
            seen = 0
            for k in range(ROUNDS):
                for how in ("file", "memory"):
                    before = os.path.getsize(path)
                    seen = merge_once(spill, os.path.join(d, "run%d-%s.h5" % (k, how)), how, seen)
                    grew = os.path.getsize(path) - before
                    print("merge %d (%s): %d samples of step, the file grew %.1f MB meanwhile" % (k, how, seen,
                                                                                               grew / 1e6))
                    check(grew > 0, "the job did not spill during the merge: nothing was tested")
                    os.remove(os.path.join(d, "run%d-%s.h5" % (k, how)))
        finally:
            child.kill()
            child.wait()
    if failures:
        print("%d failure(s)" % len(failures))
        sys.exit(1)
    print("ok")


main()
