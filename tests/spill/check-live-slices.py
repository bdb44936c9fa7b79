#!/usr/bin/env python3
# check-live-slices.py — a follower reading the ranks' new records a few samples at a time, in turns, against one reading each rank whole: the same occurrences, spreads and straggler figures, every sample once, a damaged rank named.
# SPDX-License-Identifier: MIT
import json
import math
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_spill as ms  # noqa: E402
from make_spill import check, failures  # noqa: E402

TOOL = sys.argv[1]
JOB = 0x00C0FFEE5111CE5
WORLD = 6
NAMES = ["step", "allreduce", "io/write"]


class Rank:
    """One rank's writer, its names in an order of its own, and what its
    committed flushes hold (the expectations)."""

    def __init__(self, directory, r, rng):
        self.w = ms.SpillWriter(directory, JOB, r, WORLD, clock_offset=0.001 * r)
        self.order = NAMES[r % 3:] + NAMES[:r % 3]
        self.w.names(self.order[:2])
        self.w.names(self.order[2:])
        self.rng = rng
        self.committed = 0
        self.pending = 0
        self.damaged = False

    def ops(self, name):
        return self.order.index(name)

    def write(self, starts, name, thread=0, raw=False):
        """Samples of @name at @starts (seconds), in records of 1-5, or all
        in one record when there are more than 40."""
        chunks = [starts] if len(starts) > 40 else []
        i = 0
        while not chunks and i < len(starts) or (chunks and i == 0):
            n = len(starts) if chunks else self.rng.randint(1, 5)
            part = starts[i:i + n]
            durations = [self.rng.uniform(0.01, 0.2) for _ in part]
            if raw:
                ticks = [int(round(s * 1e6)) for s in part]
                self.w.raw_samples(self.ops(name), thread, ticks, [int(d * 1e6) for d in durations])
            else:
                self.w.samples(self.ops(name), thread, part, durations)
            self.pending += len(part)
            i += n

    def commit(self, when):
        self.w.commit(when)
        self.committed += self.pending
        self.pending = 0


def flush(rank, r, steps, rng, shuffled=False):
    """Occurrences @steps of every operation; on @shuffled ranks, two
    threads whose records interleave out of start order."""
    for name in NAMES:
        starts = [k * 1.0 + 0.01 * r + rng.uniform(0, 0.005) for k in steps]
        if shuffled:
            rank.write(starts[len(starts) // 2:], name, thread=1)
            rank.write(starts[:len(starts) // 2], name, thread=0)
        else:
            rank.write(starts, name, raw=(r == 4))
    rank.commit(steps[-1] + 1.0)


def run(directory, per_slice):
    rng = random.Random(7 + per_slice)
    ranks = [Rank(directory, r, rng) for r in range(WORLD)]
    ranks[4].w.clock(0, 0.0, 1e-6)
    ranks[4].commit(0.0)
    proc = subprocess.Popen([TOOL, directory, str(per_slice)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdin.write("open\n")
    proc.stdin.flush()
    check(json.loads(proc.stdout.readline() or "{}").get("opened"), "slice %d: not opened" % per_slice)

    def refresh(what):
        proc.stdin.write("refresh\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        check(line != "", "%s: slice %d: no figures (%s)" % (what, per_slice, proc.stderr.read() if not line else ""))
        got = json.loads(line)
        sliced, whole = got["sliced"], got["whole"]
        for key in ("wait_caused", "late_count", "straggler"):
            check(sliced[key] == whole[key], "%s: slice %d: %s %s != whole %s" % (what, per_slice, key, sliced[key],
                                                                                  whole[key]))
        for name, op in whole["ops"].items():
            s = sliced["ops"].get(name, {})
            for key in ("occurrences", "start_spread", "end_spread", "synchronising", "count"):
                check(s.get(key) == op[key], "%s: slice %d: %s %s %s != whole %s" % (what, per_slice, name, key,
                                                                                     s.get(key), op[key]))
            for a, b in zip(s.get("sum", []), op["sum"]):
                check(math.isclose(float.fromhex(a), float.fromhex(b), rel_tol=1e-12),
                      "%s: %s sums %s %s" % (what, name, a, b))
        for r, (s, w) in enumerate(zip(sliced["ranks"], whole["ranks"])):
            check(s == w, "%s: slice %d: rank %d %s != whole %s" % (what, per_slice, r, s, w))
            check(s["samples"] == ranks[r].committed,
                  "%s: slice %d: rank %d read %d samples, %d committed" % (what, per_slice, r, s["samples"],
                                                                            ranks[r].committed))
        return sliced

    # many small records, rank 1's threads out of start order, rank 4 raw,
    # rank 5 one record of 90 samples per operation (cut across slices),
    # and an unfinished flush on rank 0
    for r, rank in enumerate(ranks):
        flush(rank, r, list(range(90 if r == 5 else 30)), rng, shuffled=(r == 1))
    for r, rank in enumerate(ranks[:5]):
        flush(rank, r, list(range(30, 90)), rng, shuffled=(r == 1))
    ranks[0].write([200.0, 201.0], "step")
    got = refresh("first refresh")
    check(all(op["occurrences"] == 90 for op in got["ops"].values()),
          "first refresh: occurrences %s, 90 each expected" % {n: o["occurrences"] for n, o in got["ops"].items()})

    # rank 2 writes nothing new; rank 3's tail is damaged after one flush,
    # in the middle of what the others send; rank 1 sends samples starting
    # before its pending ones
    for r, rank in enumerate(ranks):
        if r == 2:
            continue
        flush(rank, r, list(range(90, 120)), rng, shuffled=(r == 1))
        if r == 3:
            bad = bytearray(ms.record(ms.SAMPLES, b"\0" * 32))
            bad[-1] ^= 0xFF
            rank.w.append(bytes(bad))
            rank.w.commit(500.0)   # after the damage: never read
        else:
            flush(rank, r, list(range(120, 150)), rng, shuffled=(r == 1))
    got = refresh("damaged rank 3")
    check([r["damaged"] for r in got["ranks"]] == [False, False, False, True, False, False],
          "damaged rank 3: damaged %s" % [r["damaged"] for r in got["ranks"]])
    check(got["ranks"][3]["problem"] != "", "damaged rank 3: no problem named")

    # every rank ends (rank 2 with what it has)
    for r, rank in enumerate(ranks):
        if r != 3:
            flush(rank, r, list(range(150, 160)), rng)
            rank.w.end(170.0, "/tmp/profile.h5")
    got = refresh("end")
    check([r["ended"] for r in got["ranks"]] == [True, True, True, False, True, True],
          "end: ended %s" % [r["ended"] for r in got["ranks"]])
    proc.stdin.close()
    check(proc.wait(timeout=60) == 0, "slice %d: status %d, %s" % (per_slice, proc.returncode, proc.stderr.read()))


for per_slice in (1, 6, 13, 64):
    with tempfile.TemporaryDirectory() as d:
        run(d, per_slice * WORLD)
# a file that shrinks between two slices of one read: damaged from the
# record being read on, the first slice kept, the problem named
with tempfile.TemporaryDirectory() as d:
    w = ms.SpillWriter(d, JOB, 0, 1)
    w.names(["step"])
    first = w.size()
    w.samples(0, 0, [float(k) for k in range(20)], [0.5] * 20)
    w.commit(30.0)
    w.samples(0, 0, [float(k) for k in range(20, 40)], [0.5] * 20)
    w.commit(50.0)
    out = subprocess.run([TOOL, "--shrink", w.path, "5", "24"], capture_output=True, text=True, timeout=60)
    check(out.returncode == 0, "shrink: status %d, %s" % (out.returncode, out.stderr))
    got = json.loads(out.stdout or "{}")
    check(got.get("cut") == first and got.get("damaged") is True and got.get("tail_offset") == first
          and got.get("samples") == 5 and "shrank" in got.get("problem", ""),
          "shrink: %s, cut at %d with 5 samples read expected" % (got, first))
if failures:
    sys.exit("%d failure(s)" % len(failures))
print("the sliced refresh gave the whole read's figures at 1, 6, 13 and 64 samples a rank per slice")
