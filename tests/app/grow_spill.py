# grow_spill.py — a running job's spill folder grown step by step for the viewer's follow tests, written with the independent writer tests/spill/make_spill.py.
# SPDX-License-Identifier: MIT
"""grow_spill.py DIR STATE start [INTERVAL]|start-without RANK [INTERVAL]|appear RANK|grow|newop|damage RANK|end PROFILE|stats OP [RANKS]

A job of WORLD ranks on two hosts; each step adds BATCH occurrences of
"compute" (rank r takes 0.01 * (r + 1) s) and "allreduce" (every rank
leaves at once; rank 2 arrives 0.05 s late, so it waits 0.05 s and the
others 0.1 s); "newop" adds BATCH samples of a third operation, "io"
(0.002 s each). "start-without" starts every rank but RANK, whose file
"appear" writes later with every step so far. STATE (outside DIR) keeps
what was written between steps.
"stats" prints numpy's std (ddof=1), median, 95th and 99th percentiles of
the durations of OP (compute or allreduce) written by start and grow, of
the ranks RANKS ("1,2") when given.
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "spill"))
import make_spill  # noqa: E402

JOB = 0x00C0FFEE12345678
WORLD = 4
BATCH = 10
LATE_RANK = 2


def batch(rank, first):
    """The starts and durations of compute and allreduce for occurrences first.. first + BATCH."""
    compute = ([], [])
    allreduce = ([], [])
    for g in range(first, first + BATCH):
        compute[0].append(g * 1.0)
        compute[1].append(0.01 * (rank + 1))
        start = g * 1.0 + 0.5 + (0.05 if rank == LATE_RANK else 0.0)
        allreduce[0].append(start)
        allreduce[1].append(g * 1.0 + 0.6 - start)
    return compute, allreduce


def writer(directory, rank, state):
    """A make_spill writer appending to rank's existing file."""
    w = make_spill.SpillWriter.__new__(make_spill.SpillWriter)
    w.path = os.path.join(directory, make_spill.spill_name(JOB, rank))
    w.n_names, w.flush, w.total = state["ranks"][rank]
    return w


def flush_batch(w, rank, first):
    compute, allreduce = batch(rank, first)
    w.samples(0, 0, *compute)
    w.samples(1, 0, *allreduce)
    w.commit(when=first + BATCH + 1.0)


def new_rank(directory, rank, state):
    """Rank's new file holding every step so far: its writer's state."""
    w = make_spill.SpillWriter(directory, JOB, rank, WORLD, interval=state["interval"],
                               host="node%d" % (rank // 2), label="follow test")
    w.names(["compute", "allreduce"])
    for first in range(0, state["next"], BATCH):
        flush_batch(w, rank, first)
    return [w.n_names, w.flush, w.total]


def stats(state, name, ranks=None):
    """numpy's statistics of every duration of name written so far (by ranks)."""
    import numpy
    which = 0 if name == "compute" else 1
    durations = []
    if ranks is None:
        ranks = [r for r in range(WORLD) if state["ranks"][r] is not None]
    for r in ranks:
        for first in range(0, state["next"], BATCH):
            durations += batch(r, first)[which][1]
    d = numpy.array(durations)
    print("%d %.17g %.17g %.17g %.17g" % (d.size, numpy.std(d, ddof=1), numpy.median(d),
                                           numpy.percentile(d, 95), numpy.percentile(d, 99)))


def main():
    directory, state_path, step = sys.argv[1], sys.argv[2], sys.argv[3]
    if step == "stats":
        with open(state_path) as f:
            ranks = [int(r) for r in sys.argv[5].split(",")] if len(sys.argv) > 5 else None
            stats(json.load(f), sys.argv[4], ranks)
        return
    if step in ("start", "start-without"):
        missing = int(sys.argv[4]) if step == "start-without" else -1
        arg = 5 if step == "start-without" else 4
        # a long interval unless asked: a test's pauses never make a rank "stopped"
        interval = float(sys.argv[arg]) if len(sys.argv) > arg else 600.0
        state = {"next": BATCH, "ranks": [], "interval": interval}
        for r in range(WORLD):
            state["ranks"].append(None if r == missing else new_rank(directory, r, state))
    elif step == "appear":
        with open(state_path) as f:
            state = json.load(f)
        rank = int(sys.argv[4])
        state["ranks"][rank] = new_rank(directory, rank, state)
    else:
        with open(state_path) as f:
            state = json.load(f)
        for r in range(WORLD):
            if state["ranks"][r] is None:
                continue
            w = writer(directory, r, state)
            if step == "grow":
                flush_batch(w, r, state["next"])
            elif step == "newop":
                w.names(["io"])
                w.samples(2, 0, [state["next"] + 0.8 + 0.01 * i for i in range(BATCH)], [0.002] * BATCH)
                w.commit(when=state["next"] + 1.0)
            elif step == "damage" and r == int(sys.argv[4]):
                good = make_spill.record(make_spill.COMMIT, struct.pack("<QdQ", w.flush + 1, 0.0, w.total))
                # the checksum no longer matches the payload
                w.append(good[:16] + bytes([good[16] ^ 0xFF]) + good[17:])
            elif step == "end":
                w.end(when=state["next"] + 2.0, path=sys.argv[4])
            state["ranks"][r] = [w.n_names, w.flush, w.total]
        if step == "grow":
            state["next"] += BATCH
    with open(state_path, "w") as f:
        json.dump(state, f)


if __name__ == "__main__":
    main()
