#!/usr/bin/env python3
# check-spill-reader.py — the spill reader against files the independent writer make_spill.py crafts: what it delivers, when, and how it reports bad bytes.
# SPDX-License-Identifier: MIT
import json
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_spill as ms  # noqa: E402
from make_spill import check, failures  # noqa: E402

DUMP = sys.argv[1]
JOB = 0x00C0FFEE12345678


def dump(path, inputs=b""):
    out = subprocess.run([DUMP, path], input=inputs, capture_output=True, timeout=60)
    check(out.returncode in (0, 1) and out.stderr == b"", "%s: status %d, stderr %r" % (path, out.returncode, out.stderr))
    return [json.loads(line) for line in out.stdout.decode().splitlines()]


def of(lines, key):
    return [x for x in lines if key in x and (key == "read" or "read" not in x)]


def good_file(d, rank=0):
    w = ms.SpillWriter(d, JOB, rank, 4, clock_offset=0.5, clock_offset_error=2e-6, interval=2.0,
                       started=10.0, started_wall=1.8e9 + 0.25, host="nodé-1", label="mpirun -n 4 ./train", pid=77)
    w.names(["forward", "io/checkpoint"])
    w.samples(0, 0, [10.0, 11.0], [0.5, 0.25])
    w.samples(1, 2, [10.5], [0.125])
    w.commit(12.0)
    w.names(["allreduce"])
    w.samples(2, 0, [12.5, 13.0, 13.5], [0.01, 0.02, 0.03])
    w.commit(14.0)
    return w


with tempfile.TemporaryDirectory() as d:
    # A good file of two flushes: every field, in order.
    w = good_file(d)
    lines = dump(w.path)
    h = lines[0]
    check(h["header"] == 0 and h["world_size"] == 4 and h["pid"] == 77 and h["job"] == "%016x" % JOB, "header ids %r" % h)
    check(h["clock_offset"] == 0.5 and h["clock_offset_error"] == 2e-6 and h["interval"] == 2.0, "header clock %r" % h)
    check(h["started"] == 10.0 and h["started_wall"] == 1.8e9 + 0.25, "header start %r" % h)
    check(h["host"] == "nodé-1" and h["label"] == "mpirun -n 4 ./train", "header strings %r" % h)
    check(of(lines, "names") == [{"names": ["forward", "io/checkpoint"], "first": 0},
                                 {"names": ["allreduce"], "first": 2}], "names %r" % of(lines, "names"))
    s = of(lines, "samples")
    check([(x["samples"], x["thread"], x["starts"], x["durations"]) for x in s]
          == [("forward", 0, [10.0, 11.0], [0.5, 0.25]), ("io/checkpoint", 2, [10.5], [0.125]),
              ("allreduce", 0, [12.5, 13.0, 13.5], [0.01, 0.02, 0.03])], "samples %r" % s)
    check(of(lines, "commit") == [{"commit": 1, "when": 12.0, "total": 3}, {"commit": 2, "when": 14.0, "total": 6}],
          "commits %r" % of(lines, "commit"))
    r = lines[-1]
    check(r["read"] == "none" and r["offset"] == w.size() == r["size"] and r["flushes"] == 2 and r["samples"] == 6,
          "clean read %r" % r)

    # A flush without its COMMIT is held back; a live append delivers only
    # what is new, and only once committed.
    w = good_file(d, rank=1)
    committed = w.size()
    w.samples(0, 0, [14.5], [0.75])
    p = subprocess.Popen([DUMP, w.path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def read_more():
        batch = []
        while True:
            batch.append(json.loads(p.stdout.readline()))
            if "read" in batch[-1]:
                return batch
    first = read_more()
    r = first[-1]
    check(r["read"] == "unfinished" and r["offset"] == committed and r["tail_offset"] == committed
          and r["samples"] == 6 and r["flushes"] == 2, "held-back flush %r" % r)
    w.commit(15.0)
    w.names(["backward"])
    w.samples(3, 1, [15.5, 16.0], [0.5, 0.5])
    w.commit(16.5)
    before_partial = w.size()
    rec = ms.record(ms.SAMPLES, struct.pack("<IiII", 0, 0, 1, 0) + struct.pack("<dd", 17.0, 0.25))
    w.append(rec[:20])                           # the writer is in the middle of a record
    p.stdin.write("read\n")
    p.stdin.flush()
    second = read_more()
    check([(x["samples"], x["starts"]) for x in of(second, "samples")] == [("forward", [14.5]), ("backward", [15.5, 16.0])],
          "second read delivers only the new flushes: %r" % of(second, "samples"))
    check([x["commit"] for x in of(second, "commit")] == [3, 4] and of(second, "names") == [{"names": ["backward"], "first": 3}],
          "second read's commits and names %r" % second)
    r = second[-1]
    check(r["read"] == "unfinished" and r["offset"] == before_partial and r["flushes"] == 2 and r["samples"] == 3,
          "second read status %r" % r)
    w.append(rec[20:])
    w.commit(17.5)
    p.stdin.write("read\n")
    p.stdin.flush()
    third = read_more()
    check([(x["samples"], x["starts"]) for x in of(third, "samples")] == [("forward", [17.0])]
          and third[-1]["read"] == "none" and third[-1]["offset"] == w.size(), "third read %r" % third)
    p.stdin.write("read\n")
    p.stdin.flush()
    fourth = read_more()
    check(len(fourth) == 1 and fourth[0]["flushes"] == 0 and fourth[0]["samples"] == 0, "nothing new: %r" % fourth)
    p.stdin.close()
    check(p.wait(timeout=30) == 0, "spill-dump follow exit")

    # STATE, SIGNAL and END need no COMMIT and come once.
    w = good_file(d, rank=2)
    w.samples(0, 0, [14.2], [0.1])
    w.signal(15, 14.3)
    w.state(b"\x01\x02\x03")
    lines = dump(w.path, b"read\n")
    check(len(of(lines, "signal")) == 1 and of(lines, "signal")[0] == {"signal": 15, "when": 14.3}, "signal once %r" % lines)
    check([x["state"] for x in of(lines, "state")] == ["010203"], "state once %r" % of(lines, "state"))
    check(len(of(lines, "samples")) == 3, "uncommitted samples beside a SIGNAL are held back")
    w.commit(14.4)
    w.end(14.5, "/tmp/run.h5")
    lines = dump(w.path)
    check(of(lines, "end") == [{"end": 14.5, "path": "/tmp/run.h5"}] and lines[-1]["read"] == "none", "end %r" % lines[-3:])

    # Raw samples: ticks through the latest CLOCK before them.
    w = ms.SpillWriter(d, JOB, 3, 4)
    w.names(["step"])
    w.clock(1000, 50.0, 1e-3)
    w.raw_samples(0, 0, [1000, 3000], [250, 0.125])
    w.clock(0, 0.0, 2e-3)
    w.raw_samples(0, 1, [10], [5])
    w.commit(60.0)
    s = of(dump(w.path), "samples")
    check([(x["starts"], x["durations"]) for x in s] == [([50.0, 52.0], [0.25, 0.125]), ([0.02], [0.01])],
          "raw samples %r" % s)

with tempfile.TemporaryDirectory() as d:
    # Truncated inside flush 2: flush 1 stays, the tail is unfinished.
    w = good_file(d)
    sizes = []
    w2 = ms.SpillWriter(d, JOB, 1, 4)
    w2.names(["a"])
    w2.samples(0, 0, [1.0], [0.5])
    end1 = w2.size() + w2.commit(2.0)
    w2.samples(0, 0, [3.0, 4.0], [0.5, 0.5])
    w2.commit(5.0)
    with open(w2.path, "r+b") as f:
        f.truncate(end1 + 30)
    lines = dump(w2.path)
    r = lines[-1]
    check(r["read"] == "unfinished" and r["offset"] == end1 and r["samples"] == 1, "truncated %r" % r)

    # A bit flipped in flush 2's samples: a damaged tail at that record.
    w2 = ms.SpillWriter(d, JOB, 2, 4)
    w2.names(["a"])
    w2.samples(0, 0, [1.0], [0.5])
    end1 = w2.size() + w2.commit(2.0)
    w2.samples(0, 0, [3.0, 4.0], [0.5, 0.5])
    w2.commit(5.0)
    data = bytearray(open(w2.path, "rb").read())
    data[end1 + 40] ^= 0x10
    open(w2.path, "wb").write(data)
    lines = dump(w2.path, b"read\n")
    for r in of(lines, "read"):
        check(r["read"] == "damaged" and r["tail_offset"] == end1 and "checksum" in r["problem"], "bit flip %r" % r)
    check(len(of(lines, "samples")) == 1 and of(lines, "samples")[0]["starts"] == [1.0], "before the flip stays")

    # Garbage after a commit, an impossible length, an undefined operation.
    for name, tail, word in [("garbage", b"hello world, not a record", "magic"),
                             ("length", struct.pack("<IHHII", ms.MAGIC, 3, 0, 0x7FFFFFFF, 0), "impossible"),
                             ("undefined", ms.record(ms.SAMPLES, struct.pack("<IiII", 9, 0, 0, 0)), "operation 9")]:
        w2 = ms.SpillWriter(d, JOB, 3, 4, name="%s.spill" % name)
        w2.names(["a"])
        w2.samples(0, 0, [1.0], [0.5])
        end1 = w2.size() + w2.commit(2.0)
        w2.append(tail)
        r = dump(w2.path)[-1]
        check(r["read"] == "damaged" and r["tail_offset"] == end1 and word in r["problem"] and r["samples"] == 1,
              "%s: %r" % (name, r))

    # Files that cannot be opened: each one message naming the file.
    text = os.path.join(d, "notes.spill")
    open(text, "w").write("this is not a spill file\n")
    empty = os.path.join(d, "empty.spill")
    open(empty, "w").close()
    newer = ms.SpillWriter(d, JOB, 0, 1, name="newer.spill", version=2).path
    huge = ms.SpillWriter(d, JOB, 0, 1 << 30, name="huge.spill").path
    cut = os.path.join(d, "cut.spill")
    open(cut, "wb").write(open(w.path, "rb").read()[:40])
    for path, code, word in [(text, 2, "not a spill file"), (empty, 2, "empty"), (newer, 3, "spill version 2"),
                             (huge, 2, "in a world of 1073741824 ranks"),
                             (cut, 2, "incomplete"), (os.path.join(d, "missing.spill"), 1, "No such file")]:
        lines = dump(path)
        check(len(lines) == 1 and lines[0]["error"].startswith(path + ": ") and word in lines[0]["error"]
              and lines[0]["code"] == code, "%s: %r" % (path, lines))

if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("spill reader: all checks passed")
