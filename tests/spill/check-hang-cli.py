# check-hang-cli.py — `tprof hang` on spill files written from docs/spill-format.md by make_spill.py, against hand-worked verdicts.
# SPDX-License-Identifier: MIT
"""Usage: check-hang-cli.py TPROF"""
import json
import math
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_spill import SpillWriter, string  # noqa: E402

TPROF = sys.argv[1]
JOB = 0x00C0FFEE12345678
NAN = float("nan")
HOSTS = ["a", "b", "a", "b"]
# offsets and starts put the starts at 101, 101.5, 101.5, 101.5 on rank
# 0's clock: the timeline's 0 is 101.
OFFSETS = [0.0, 1.0, -0.5, 2.0]
STARTS = [101.0, 100.5, 102.0, 99.5]


def call(function, comm, seq, begin, end=NAN, thread=0, members=()):
    return (string(function) + string(comm) + struct.pack("<Qddi", seq, begin, end, thread)
            + struct.pack("<I", len(members)) + b"".join(struct.pack("<i", m) for m in members))


def state(stalled, in_flight=(), recent=(), when=200.0, timeout=5.0):
    return (struct.pack("<IIddII", 1, 1 if stalled else 0, when, timeout, len(in_flight), len(recent))
            + b"".join(in_flight) + b"".join(recent) + string("") + struct.pack("<d", NAN))


def writers(directory, ranks=range(4), job=JOB):
    return {r: SpillWriter(directory, job, r, 4, clock_offset=OFFSETS[r], started=STARTS[r], host=HOSTS[r])
            for r in ranks}


def hang(directory, *extra):
    p = subprocess.run([TPROF, "hang", directory] + list(extra), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    if not cond:
        raise SystemExit("FAIL: " + what)


def near(a, b):
    return a is not None and abs(a - b) < 1e-9


def test_missing_rank():
    """Ranks 0, 1, 3 stalled in WORLD.1's collective 4; rank 2 left
    collective 3 at 104.0 of its clock and computes."""
    with tempfile.TemporaryDirectory() as d:
        w = writers(d)
        members = (0, 1, 2, 3)
        for r, begin in ((0, 105.0), (1, 104.2), (3, 103.1)):
            w[r].state(state(True, [call("MPI_Allreduce", "WORLD.1", 4, begin, members=members)],
                             [call("MPI_Allreduce", "WORLD.1", 3, begin - 1, begin - 0.5)]))
        w[2].state(state(False, [], [call("MPI_Barrier", "WORLD", 1, 99.0, 99.5),
                                     call("MPI_Allreduce", "WORLD.1", 3, 103.0, 104.0)]))
        rc, out, err = hang(d, "--format", "json")
        check(rc == 4, "a hang exits 4, got %d: %s" % (rc, err))
        v = json.loads(out)
        check(list(v) == ["hang", "function", "communicator", "sequence", "waiting_ranks",
                          "missing_ranks", "ranks"], "the JSON keys, in order: %s" % list(v))
        check(v["hang"] is True and v["function"] == "MPI_Allreduce", out)
        check(v["communicator"] == "WORLD.1" and v["sequence"] == 4, out)
        check(v["waiting_ranks"] == [0, 1, 3] and v["missing_ranks"] == [2], out)
        # grouped by host: a (0, 2), then b (1, 3)
        check([r["rank"] for r in v["ranks"]] == [0, 2, 1, 3], out)
        check([r["hostname"] for r in v["ranks"]] == ["a", "a", "b", "b"], out)
        two = v["ranks"][1]
        # 104.0 - 0.5 - 101
        check(near(two["since"], 2.5), "rank 2 since %r" % two["since"])
        check("MPI_Allreduce on WORLD.1 (collective 3" in two["doing"], two["doing"])
        check("no MPI call in flight" in two["doing"], two["doing"])
        # rank 3 waits since 103.1 + 2 - 101
        check(near(v["ranks"][3]["since"], 4.1), "rank 3 since %r" % v["ranks"][3]["since"])
        check(v["ranks"][3]["doing"] == "in MPI_Allreduce on WORLD.1 (collective 4 there)", v["ranks"][3]["doing"])
        rc, out, err = hang(d)
        check(rc == 4 and "never entered it" in out and "WORLD.1" in out, "the table: " + out + err)


def test_no_hang():
    """Every rank idle after the same collective; one rank ended."""
    with tempfile.TemporaryDirectory() as d:
        w = writers(d)
        for r in range(4):
            w[r].state(state(False, [], [call("MPI_Allreduce", "WORLD", 9, 110.0, 111.0)]))
        # a stalled state followed by END is over
        w[0].state(state(True, [call("MPI_Barrier", "WORLD", 10, 112.0)]))
        w[0].end(120.0, "/tmp/x.h5")
        rc, out, err = hang(d, "--format", "json")
        check(rc == 0, "no hang exits 0, got %d: %s" % (rc, err))
        v = json.loads(out)
        check(v["hang"] is False and v["waiting_ranks"] == [] and v["missing_ranks"] == [], out)
        check(v["ranks"][0]["doing"].startswith("unknown"), v["ranks"][0]["doing"])
        # rank 1: 111 + 1 - 101
        check(near(v["ranks"][2]["since"], 11.0), out)


def test_missing_file_and_bad_state():
    """Rank 3 left no file; rank 1's state is cut short: both named."""
    with tempfile.TemporaryDirectory() as d:
        w = writers(d, ranks=range(3))
        w[0].state(state(True, [call("MPI_Bcast", "WORLD", 2, 103.0)]))
        w[2].state(state(True, [call("MPI_Bcast", "WORLD", 2, 103.0)]))
        w[1].state(state(True, [call("MPI_Bcast", "WORLD", 2, 103.0)])[:30])
        rc, out, err = hang(d, "--format", "json")
        check(rc == 4, "got %d: %s" % (rc, err))
        v = json.loads(out)
        check(v["waiting_ranks"] == [0, 2] and v["missing_ranks"] == [1, 3], out)
        check(v["ranks"][-1]["rank"] == 3 and v["ranks"][-1]["doing"] == "unknown: no spill file", out)
        check(v["ranks"][-1]["since"] is None, out)
        check(w[1].path in err and "hang state" in err, "the damaged state is named: " + err)


def test_bad_directories():
    with tempfile.TemporaryDirectory() as d:
        rc, out, err = hang(d)
        check(rc == 1 and d in err and out == "", "an empty directory: %d %s" % (rc, err))
        writers(d, ranks=[0])
        writers(d, ranks=[0], job=JOB + 1)
        rc, out, err = hang(d)
        check(rc == 1 and err.count("\n") == 1 and d in err, "two jobs: %d %s" % (rc, err))
    rc, out, err = hang("/nonexistent/spill")
    check(rc == 1 and "/nonexistent/spill" in err, "a missing directory: " + err)
    rc, out, err = hang("/tmp", "--format", "csv")
    check(rc == 2 and "--format" in err, "csv is refused: " + err)


test_missing_rank()
test_no_hang()
test_missing_file_and_bad_state()
test_bad_directories()
print("check-hang-cli: ok")
