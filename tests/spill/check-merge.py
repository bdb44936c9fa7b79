#!/usr/bin/env python3
# check-merge.py — tprof merge against h5py and numpy on spill files make_spill.py writes: the samples on one timeline, offsets, cached statistics, data_until, and every bad input.
# SPDX-License-Identifier: MIT
import os
import subprocess
import sys
import tempfile
from datetime import datetime, timezone

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_spill as ms  # noqa: E402
from make_spill import check, failures  # noqa: E402

TPROF = sys.argv[1]
JOB = 0x5EED00000000C0DE
TOKEN = "%016x" % JOB


def merge(*args):
    out = subprocess.run([TPROF, "merge", *args], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE=""))
    check("Traceback" not in out.stderr and out.returncode in (0, 1, 2) and "AddressSanitizer" not in out.stderr,
          "merge %r crashed: %d %s" % (args, out.returncode, out.stderr))
    return out


class Job:
    """Spill files of one job, and what a merge must give (rank clock)."""

    def __init__(self, d, world_size, job=JOB, ranks=None, seed=1):
        self.d, self.world_size, self.job = d, world_size, job
        self.rng = np.random.default_rng(seed)
        self.expected = {}          # op -> list of (rank, thread, start on rank 0's clock, duration)
        self.until = [np.nan] * world_size
        self.offsets = [0.0] * world_size
        self.errors = [0.0] * world_size
        self.writers = {}
        for r in (range(world_size) if ranks is None else ranks):
            self.offsets[r] = 0.0 if r == 0 else float(self.rng.uniform(-50, 50))
            self.errors[r] = 0.0 if r == 0 else float(self.rng.uniform(1e-7, 1e-5))
            self.writers[r] = ms.SpillWriter(d, job, r, world_size, clock_offset=self.offsets[r],
                                             clock_offset_error=self.errors[r], interval=1.0,
                                             started=1000.0 - self.offsets[r], started_wall=1.8e9 + 0.5,
                                             host="node%d" % (r // 2), pid=100 + r)

    def flush(self, rank, ops, per_op=50, commit=True, raw=False):
        """One flush of @ops on @rank (names defined as needed)."""
        w = self.writers[rank]
        new = [o for o in ops if o not in w.ids] if hasattr(w, "ids") else list(ops)
        if not hasattr(w, "ids"):
            w.ids, w.clock_now = {}, 1000.0 - self.offsets[rank]
        if new:
            for o in new:
                w.ids[o] = len(w.ids)
            w.names(new)
        if raw:
            w.clock(5000, w.clock_now, 1e-6)
        pending = []
        for o in ops:
            for thread in (0, 1):
                starts = w.clock_now + np.sort(self.rng.uniform(0, 1, per_op))
                durations = self.rng.exponential(0.002 * (1 + rank), per_op)
                if raw:
                    ticks = [5000 + int(round((s - w.clock_now) * 1e6)) for s in starts]
                    starts = w.clock_now + (np.array(ticks) - 5000) * 1e-6
                    dur_ticks = [int(round(x * 1e6)) for x in durations]
                    durations = np.array(dur_ticks) * 1e-6
                    w.raw_samples(w.ids[o], thread, ticks, dur_ticks)
                else:
                    w.samples(w.ids[o], thread, list(starts), list(durations))
                pending += [(o, rank, thread, s + self.offsets[rank], x) for s, x in zip(starts, durations)]
        w.clock_now += 1.0
        if commit:
            w.commit(w.clock_now)
            self.until[rank] = w.clock_now + self.offsets[rank]
            for o, *rest in pending:
                self.expected.setdefault(o, []).append(tuple(rest))
        return pending


def check_profile(path, job, label):
    starts_all = [s for v in job.expected.values() for (_, _, s, _) in v]
    t0 = min(starts_all)
    with h5py.File(path, "r") as f:
        names = [n.decode() if isinstance(n, bytes) else n for n in f["operations/name"][()]]
        check(sorted(names) == sorted(job.expected), "%s: operations %r" % (label, names))
        seg = f["operations/segments"][()]
        srank, soff = f["segments/rank"][()], f["segments/offset"][()]
        times, starts, threads = f["samples/times"][()], f["samples/starts"][()], f["samples/threads"][()]
        for k, name in enumerate(names):
            exp = job.expected.get(name, [])
            got = []
            for s in range(seg[k], seg[k + 1]):
                for i in range(soff[s], soff[s + 1]):
                    got.append((int(srank[s]), int(threads[i]), starts[i], times[i]))
            key = lambda x: (x[0], x[1], x[2])  # noqa: E731
            e = sorted(((r, t, s - t0, x) for r, t, s, x in exp), key=key)
            g = sorted(got, key=key)
            check(len(e) == len(g), "%s: %s count %d != %d" % (label, name, len(g), len(e)))
            if len(e) == len(g) and e:
                ea, ga = np.array(e), np.array(g)
                check(np.array_equal(ea[:, :2], ga[:, :2]), "%s: %s ranks/threads" % (label, name))
                check(np.allclose(ea[:, 2], ga[:, 2], rtol=0, atol=1e-9), "%s: %s starts" % (label, name))
                check(np.array_equal(ea[:, 3], ga[:, 3]), "%s: %s durations" % (label, name))
            x = np.array([v for (_, _, _, v) in exp])
            stats = {"count": len(x), "sum": x.sum(), "mean": x.mean(), "std": x.std(ddof=1), "min": x.min(),
                     "max": x.max(), "median": np.median(x), "p95": np.quantile(x, 0.95), "p99": np.quantile(x, 0.99)}
            for s, v in stats.items():
                check(np.isclose(f["operations/" + s][k], v, rtol=1e-9, atol=0), "%s: %s cached %s %r != %r"
                      % (label, name, s, f["operations/" + s][k], v))
        check(np.isclose(starts.min(), 0.0, atol=1e-12), "%s: the timeline starts at 0" % label)
        check(np.array_equal(f["ranks/clock_offset"][()], job.offsets), "%s: clock_offset" % label)
        check(np.array_equal(f["ranks/clock_offset_error"][()], job.errors), "%s: clock_offset_error" % label)
        until = f["ranks/data_until"][()]
        exp_until = np.array(job.until) - t0
        check(np.array_equal(np.isnan(until), np.isnan(exp_until))
              and np.allclose(until[~np.isnan(until)], exp_until[~np.isnan(exp_until)], atol=1e-9),
              "%s: data_until %r != %r" % (label, until, exp_until))
        hosts = [h.decode() if isinstance(h, bytes) else h for h in f["ranks/hostname"][()]]
        check(hosts == ["node%d" % (r // 2) if r in job.writers else "" for r in range(job.world_size)],
              "%s: hosts %r" % (label, hosts))
        # rank 0 (offset 0) started at 1000 s of its clock, wall 1.8e9 + 0.5
        wall = 1.8e9 + 0.5 + (t0 - 1000.0)
        origin = datetime.fromtimestamp(wall, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        check(f.attrs["timeline_origin"] == origin, "%s: origin %r != %r" % (label, f.attrs["timeline_origin"], origin))
    return t0


with tempfile.TemporaryDirectory() as d:
    # A job of 4 ranks: flushes in seconds and raw ticks, a flush without
    # its COMMIT on rank 1, a damaged tail on rank 2, a file of another
    # kind in the directory.
    spill = os.path.join(d, "spill")
    os.mkdir(spill)
    job = Job(spill, 4)
    for r in range(4):
        job.flush(r, ["forward", "allreduce"])
        job.flush(r, ["forward", "io/checkpoint"] if r != 3 else ["backward"], raw=(r == 3))
    job.flush(1, ["forward"], commit=False)
    job.flush(2, ["forward"])
    w2 = job.writers[2]
    damaged_at = w2.size()
    job_copy = list(job.expected["forward"])
    job.flush(2, ["forward"])                 # this flush gets damaged: not expected
    job.expected["forward"] = job_copy
    job.until[2] = w2.clock_now - 1.0 + job.offsets[2]
    data = bytearray(open(w2.path, "rb").read())
    data[damaged_at + 100] ^= 0x01
    open(w2.path, "wb").write(data)
    open(os.path.join(spill, "README.txt"), "w").write("not a spill file\n")
    out_path = os.path.join(d, "run.h5")
    out = merge(spill, "-o", out_path)
    check(out.returncode == 0, "good job: exit %d %s" % (out.returncode, out.stderr))
    check(w2.path in out.stderr and "damaged at byte %d" % damaged_at in out.stderr and "checksum" in out.stderr,
          "the damaged tail is named with its offset: %r" % out.stderr)
    check(len(out.stderr.strip().splitlines()) == 1, "nothing else on stderr: %r" % out.stderr)
    t0 = check_profile(out_path, job, "good job")
    lines = out.stdout.splitlines()
    check(lines[0].startswith(out_path + ": ") and TOKEN in lines[0] and "from 4 of 4 ranks" in lines[0],
          "summary line %r" % lines[0])
    for r in range(4):
        row = lines[2 + r].split()
        check(row[0] == str(r) and abs(float(row[4]) - (job.until[r] - t0)) < 1e-3, "data until row %r" % row)
    check("unfinished" in lines[3] and "damaged" in lines[4], "file states %r" % lines[2:6])
    summary = subprocess.run([TPROF, "summary", out_path, "--format", "csv"], capture_output=True, text=True)
    check(summary.returncode == 0 and "forward" in summary.stdout, "tprof summary opens the merged profile")

    # Each rank's samples earlier than those of the ranks before it: the
    # merge moves every rank's starts by the earliest start read so far,
    # then the ranks read before the last one by what it lowered.
    edir = os.path.join(d, "earlier-each-rank")
    os.mkdir(edir)
    ejob = Job(edir, 4, seed=3)
    for r in range(4):
        ew = ejob.writers[r]
        ew.ids, ew.clock_now = {}, 1000.0 - ejob.offsets[r] - 10.0 * r
        ejob.flush(r, ["forward", "allreduce"])
        ejob.flush(r, ["forward"])
    out = merge(edir, "-o", os.path.join(d, "earlier.h5"))
    check(out.returncode == 0 and out.stderr == "", "earlier each rank: %d %r" % (out.returncode, out.stderr))
    check_profile(os.path.join(d, "earlier.h5"), ejob, "earlier each rank")

    # A missing rank: named, not fatal; its data_until is NaN.
    os.remove(job.writers[3].path)
    del job.writers[3]
    job.expected = {o: [x for x in v if x[0] != 3] for o, v in job.expected.items() if o != "backward"}
    job.until[3] = np.nan
    job.offsets[3] = job.errors[3] = 0.0
    out = merge(spill, "-o", out_path)
    check(out.returncode == 0 and "rank 3 has no usable spill file" in out.stderr, "missing rank: %r" % out.stderr)
    check_profile(out_path, job, "missing rank")
    check("from 3 of 4 ranks" in out.stdout, "missing rank summary %r" % out.stdout.splitlines()[:1])

    # A file whose header contradicts the others: named, the rest merged.
    ms.SpillWriter(spill, JOB, 3, 8)
    out = merge(spill, "-o", out_path)
    check(out.returncode == 0 and "tprof-%s-3.spill: not used: its header says 8 ranks" % TOKEN in out.stderr,
          "inconsistent header: %r" % out.stderr)
    check_profile(out_path, job, "inconsistent header")

    # Two jobs in one directory: refused with both listed; --job chooses.
    other = Job(spill, 2, job=0xABCDEF0123456789, seed=7)
    other.flush(0, ["step"])
    other.flush(1, ["step"])
    before = open(out_path, "rb").read()
    out = merge(spill, "-o", out_path)
    check(out.returncode == 2 and "2 jobs" in out.stderr and TOKEN in out.stderr and "abcdef0123456789" in out.stderr
          and "--job" in out.stderr, "two jobs: %d %r" % (out.returncode, out.stderr))
    check(open(out_path, "rb").read() == before, "a refused merge leaves OUT untouched")
    out = merge(spill, "--job", "abcdef0123456789", "-o", out_path)
    check(out.returncode == 0, "--job: %r" % out.stderr)
    check_profile(out_path, other, "--job")
    out = merge(spill, "--job", "0000000000000001", "-o", out_path)
    check(out.returncode == 1 and "no spill file of job 0000000000000001" in out.stderr, "unknown job %r" % out.stderr)

    # Truncated inside a flush: the committed flushes stay.
    tdir = os.path.join(d, "truncated")
    os.mkdir(tdir)
    tjob = Job(tdir, 1)
    tjob.flush(0, ["forward"])
    size = tjob.writers[0].size()
    tjob.flush(0, ["forward"], commit=False)
    with open(tjob.writers[0].path, "r+b") as f:
        f.truncate(size + 300)
    out = merge(tdir, "-o", out_path)
    check(out.returncode == 0 and out.stderr == "", "truncated: %d %r" % (out.returncode, out.stderr))
    check_profile(out_path, tjob, "truncated")

    # A committed flush holding a duration that is not a finite time >= 0:
    # the reader refuses it (the save trusts the merge's samples, checked
    # there), the flushes before it are merged.
    for bad_value in (-1.0, float("nan"), float("inf")):
        vdir = os.path.join(d, "invalid-%s" % bad_value)
        os.mkdir(vdir)
        vjob = Job(vdir, 1)
        vjob.flush(0, ["forward"])
        w = vjob.writers[0]
        w.samples(w.ids["forward"], 0, [w.clock_now, w.clock_now + 0.5], [0.25, bad_value])
        w.commit(w.clock_now + 1.0)
        out = merge(vdir, "-o", out_path)
        check(out.returncode == 0 and "sample 1 has start" in out.stderr,
              "duration %r: %d %r" % (bad_value, out.returncode, out.stderr))
        check_profile(out_path, vjob, "duration %r" % bad_value)
        with h5py.File(out_path, "r") as f:
            times = f["samples/times"][...]
        check(times.size > 0 and np.all(np.isfinite(times)) and np.all(times >= 0),
              "duration %r: the merged times are all finite and >= 0" % bad_value)

    # Records larger than the reader's 64 KiB window, whose arrays are read
    # straight into the merged columns and checked there: merged whole, in
    # seconds and raw ticks; then a flipped byte, a bad duration and the end
    # of the file deep inside one refuse or drop its flush only.
    def large_job(name, seed):
        ldir = os.path.join(d, name)
        os.mkdir(ldir)
        ljob = Job(ldir, 2, seed=seed)
        for r in range(2):
            ljob.flush(r, ["forward", "allreduce"], per_op=6000)
            ljob.flush(r, ["forward"], per_op=6000, raw=(r == 1))
        return ldir, ljob

    ldir, ljob = large_job("large", 11)
    out = merge(ldir, "-o", out_path)
    check(out.returncode == 0 and out.stderr == "", "large records: %d %r" % (out.returncode, out.stderr))
    check_profile(out_path, ljob, "large records")
    deep = 16 + 16 + 8 * 6000 + 8 * 5000   # sample 5000's duration in a record of 6000
    for case in ("checksum", "duration", "truncated"):
        ldir, ljob = large_job("large-" + case, 12)
        w = ljob.writers[0]
        expected = {o: list(v) for o, v in ljob.expected.items()}
        until = ljob.until[0]
        at = w.size()
        if case == "duration":
            starts = list(w.clock_now + np.arange(6000) * 1e-4)
            durations = [1e-3] * 6000
            durations[5000] = -1.0
            w.samples(w.ids["forward"], 0, starts, durations)
            w.commit(w.clock_now + 1.0)
        else:
            ljob.flush(0, ["forward"], per_op=6000)
            ljob.expected, ljob.until[0] = expected, until
            data = bytearray(open(w.path, "rb").read())
            if case == "checksum":
                data[at + deep + 3] ^= 0x10
            else:
                del data[at + deep:]
            open(w.path, "wb").write(data)
        out = merge(ldir, "-o", out_path)
        messages = {"checksum": "damaged at byte %d (checksum mismatch" % at,
                    "duration": "damaged at byte %d (SAMPLES record: sample 5000 has start" % at}
        if case in messages:
            check(out.returncode == 0 and w.path in out.stderr and messages[case] in out.stderr
                  and len(out.stderr.strip().splitlines()) == 1, "large %s: %d %r" % (case, out.returncode, out.stderr))
        else:
            check(out.returncode == 0 and out.stderr == "", "large %s: %d %r" % (case, out.returncode, out.stderr))
        check_profile(out_path, ljob, "large " + case)

    # Nothing readable: exit 1, one message, OUT untouched.
    empty = os.path.join(d, "empty")
    os.mkdir(empty)
    before = open(out_path, "rb").read()
    for args, words in [([empty], ["holds no spill file"]),
                        ([os.path.join(d, "absent")], ["No such file"])]:
        out = merge(*args, "-o", out_path)
        check(out.returncode == 1 and all(w in out.stderr for w in words) and len(out.stderr.splitlines()) == 1,
              "%r: %d %r" % (args, out.returncode, out.stderr))
    bad = os.path.join(d, "bad")
    os.mkdir(bad)
    open(os.path.join(bad, "tprof-%s-0.spill" % TOKEN), "w").write("this is not a spill file at all\n")
    out = merge(bad, "-o", out_path)
    check(out.returncode == 1 and "not a spill file" in out.stderr and "none of the 1 spill files" in out.stderr,
          "not a spill file: %d %r" % (out.returncode, out.stderr))
    check(open(out_path, "rb").read() == before, "failed merges leave OUT untouched")
    out = merge(spill)
    check(out.returncode == 2 and "-o OUT" in out.stderr, "missing -o: %r" % out.stderr)

if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("tprof merge: all checks passed")
