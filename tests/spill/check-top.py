#!/usr/bin/env python3
# check-top.py — `tprof top` (not on a terminal) on spill files make_spill.py grows between refreshes: growing counts, the straggler, a stopped rank, a damaged tail, the end.
# SPDX-License-Identifier: MIT
import json
import os
import queue
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_spill as ms  # noqa: E402
from make_spill import check, failures  # noqa: E402

TPROF = sys.argv[1]
JOB = 0x0123456789ABCDEF
WORLD = 4
OPS = ["forward", "backward", "allreduce"]
INTERVAL = 0.4   # the spill interval in the headers: stopped after 1.2 s


class Job:
    """Four ranks on two hosts; at allreduce rank 1 arrives last 80 % of
    the time, and every rank leaves together. Counts what is committed."""

    def __init__(self, directory):
        self.rand = random.Random(27)
        self.writers = [ms.SpillWriter(directory, JOB, r, WORLD, clock_offset=0.002 * r,
                                       interval=INTERVAL, host="node%d" % (r // 2), label="check-top")
                        for r in range(WORLD)]
        for w in self.writers:
            w.names(OPS)
        self.step = 0
        self.committed = {op: 0 for op in OPS}

    def steps(self, n, ranks=range(WORLD)):
        for _ in range(n):
            t = float(self.step)
            fwd = [0.1 + (0.2 if r == 1 and self.rand.random() < 0.8 else 0.0) + 0.01 * self.rand.random()
                   for r in range(WORLD)]
            leave = t + max(fwd) + 0.02
            for r in ranks:
                w, local = self.writers[r], -0.002 * r   # rank r's clock is 2r ms behind rank 0's
                w.samples(0, 0, [t + local], [fwd[r]])
                w.samples(2, 0, [t + fwd[r] + 0.01 + local], [leave - (t + fwd[r] + 0.01)])
                w.samples(1, 0, [leave + 0.01 + local], [0.3])
            self.step += 1
        for r in ranks:
            self.writers[r].commit(float(self.step))
        if list(ranks) == list(range(WORLD)):
            for op in OPS:
                self.committed[op] = self.step * WORLD


def reader(stream, blocks):
    """Splits top's output into blocks (a blank line ends each)."""
    block = []
    for line in stream:
        if line.strip() == "":
            blocks.put("".join(block))
            block = []
        else:
            block.append(line)
    if block:
        blocks.put("".join(block))
    blocks.put(None)


def counts(block):
    found = {}
    for op in OPS:
        m = re.search(r"^%s\s+(\d+)\s" % op, block, re.M)
        if m:
            found[op] = int(m.group(1))
    return found


def wait_for(blocks, cond, what, timeout=15.0):
    """The first block for which cond holds; records a failure after timeout."""
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        try:
            block = blocks.get(timeout=max(0.0, end - time.monotonic()))
        except queue.Empty:
            break
        if block is None:
            break
        last = block
        if cond(block):
            return block
    check(False, "%s; last block:\n%s" % (what, last))
    return last or ""


def start(directory, *args):
    proc = subprocess.Popen([TPROF, "top", directory, "--interval", "0.3"] + list(args),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    blocks = queue.Queue()
    threading.Thread(target=reader, args=(proc.stdout, blocks), daemon=True).start()
    return proc, blocks


def test_live(directory):
    job = Job(directory)
    job.steps(20)
    hidden = job.writers[3].path + ".later"
    os.rename(job.writers[3].path, hidden)   # rank 3's file appears once top runs
    proc, blocks = start(directory)
    wait_for(blocks, lambda b: counts(b) == {op: 60 for op in OPS} and "Missing: rank 3 has no spill file." in b,
             "rank 3 missing at first")
    # three spill intervals after top first read the files: rank 3 holds nothing back
    wait_for(blocks, lambda b: "Not reporting: rank 3 holds no occurrence back until its file appears." in b,
             "rank 3 not reporting after 3 intervals")
    os.rename(hidden, job.writers[3].path)
    first = wait_for(blocks, lambda b: counts(b) == {op: 80 for op in OPS} and "Missing" not in b
                     and "Not reporting" not in b, "rank 3's file read once it appears: 80 each")
    check(re.search(r"^tprof top — \d{4}-\d\d-\d\d \d\d:\d\d:\d\d — job 0123456789abcdef, 4 ranks", first, re.M),
          "a timestamp line starts each block:\n" + first)
    job.steps(40)
    grown = wait_for(blocks, lambda b: counts(b) == {op: 240 for op in OPS}, "the counts grow to 240")
    check("Straggler so far: rank 1," in grown, "rank 1 is the straggler:\n" + grown)
    check(re.search(r"confidence (> )?[\d.]+ % \(p = [\d.e+-]+\)", grown), "the straggler's confidence:\n" + grown)
    check(re.search(r"Progress: [\d.e+]+ allreduce per second", grown), "progress in allreduce:\n" + grown)
    # rank 3 stops; rank 2's next record is damaged; ranks 0 and 1 go on
    job.writers[2].append(b"\xde\xad" * 12)
    stopped = None
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and stopped is None:
        job.steps(2, ranks=[0, 1])
        time.sleep(0.2)
        while not blocks.empty():
            b = blocks.get()
            if b is not None and re.search(r"^Stopped reporting \(no flush for 3 intervals\): node1: rank 3\.$",
                                           b, re.M):
                stopped = b
    check(stopped is not None, "rank 3 named as stopped, on node1 alone")
    stopped = stopped or ""
    check(re.search(r"^Damaged: rank 2, .*tprof-0123456789abcdef-2\.spill: from byte %d: " % (
        job.writers[2].size() - 24), stopped, re.M), "rank 2's damaged tail named with its offset:\n" + stopped)
    check(counts(stopped).get("forward", 0) >= 240, "what is before the damage stays:\n" + stopped)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=10)
    check(proc.returncode == 0 and err == "", "Ctrl+C exits cleanly: %d %r" % (proc.returncode, err))


def test_end(directory):
    job = Job(directory)
    job.steps(5)
    for w in job.writers:
        w.end(6.0, "/scratch/run.h5")
    proc, blocks = start(directory)
    proc.wait(timeout=20)
    err = proc.stderr.read()
    out = ""
    while (block := blocks.get(timeout=10)) is not None:
        out += block
    check(proc.returncode == 0 and err == "", "ended job: status %d, %r" % (proc.returncode, err))
    check(counts(out) == {op: 20 for op in OPS}, "the ended job's counts:\n" + out)
    check("The job ended; its profile is /scratch/run.h5" in out, "names the profile:\n" + out)
    # as JSON: one object, the same counts, ended, the profile named
    done = subprocess.run([TPROF, "top", directory, "--format", "json"], capture_output=True, text=True, timeout=20)
    lines = done.stdout.splitlines()
    check(done.returncode == 0 and done.stderr == "" and len(lines) == 1, "json of an ended job: %r" % (done,))
    if lines:
        v = json.loads(lines[0])
        check(v["job"] == "%016x" % JOB and v["world_size"] == WORLD and v["label"] == "check-top"
              and {o["name"]: o["count"] for o in v["operations"]} == {op: 20 for op in OPS}
              and v["ended"] is True and v["profile"] == "/scratch/run.h5"
              and v["missing_ranks"] == [] and v["stopped_ranks"] == [] and v["damaged"] == [],
              "json of an ended job: %r" % v)


def test_end_without_a_file(directory):
    """Rank 3's file never appears; the others end: the job has ended
    (top exits by itself, status 0) and rank 3 is named as never
    reporting, in text and in JSON."""
    job = Job(directory)
    job.steps(5, ranks=[0, 1, 2])
    os.remove(job.writers[3].path)
    for w in job.writers[:3]:
        w.end(6.0, "/scratch/run.h5")
    proc, blocks = start(directory)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        check(False, "top waits for a rank that never reported")
    err = proc.stderr.read()
    out = ""
    while (block := blocks.get(timeout=10)) is not None:
        out += block
    check(proc.returncode == 0 and err == "", "ended without rank 3: status %d, %r" % (proc.returncode, err))
    check(counts(out) == {op: 15 for op in OPS}, "three ranks' counts:\n" + out)
    check("Rank 3 never reported: it has no spill file.\n" in out
          and "The job ended; its profile is /scratch/run.h5" in out, "rank 3 named, the profile too:\n" + out)
    done = subprocess.run([TPROF, "top", directory, "--format", "json"], capture_output=True, text=True, timeout=20)
    v = json.loads(done.stdout) if done.returncode == 0 and done.stdout.count("\n") == 1 else {}
    check(v.get("ended") is True and v.get("missing_ranks") == [3] and v.get("profile") == "/scratch/run.h5",
          "json of a job ended without rank 3: %r" % (done,))
    # two ranks without a file: the plural
    os.remove(job.writers[2].path)
    out = subprocess.run([TPROF, "top", directory], capture_output=True, text=True, timeout=20).stdout
    check("Ranks 2,3 never reported: they have no spill file.\n" in out, "ranks 2,3 named:\n" + out)


def test_once_and_bad(directory):
    job = Job(directory)
    job.steps(3)
    out = subprocess.run([TPROF, "top", directory, "--once"], capture_output=True, text=True, timeout=20)
    check(out.returncode == 0 and counts(out.stdout) == {op: 12 for op in OPS}, "--once: %r" % (out,))
    check("Missing" not in out.stdout, "no rank is missing:\n" + out.stdout)
    # 3 occurrences are not evidence: even 3 lates of 3 happen by chance (p = 4 / 64 after correction)
    check("Straggler so far: none clear yet. Rank 1 caused the most wait" in out.stdout,
          "no straggler named on 3 occurrences:\n" + out.stdout)
    # the same refresh as JSON: the sums equal the samples' (hand-made:
    # every backward is 0.3 s), no straggler on 3 occurrences
    out = subprocess.run([TPROF, "top", directory, "--once", "--format", "json"], capture_output=True, text=True,
                         timeout=20)
    v = json.loads(out.stdout) if out.returncode == 0 and out.stdout.count("\n") == 1 else None
    check(v is not None, "--once --format json: %r" % (out,))
    if v is not None:
        ops = {o["name"]: o for o in v["operations"]}
        check(set(ops) == set(OPS) and all(o["count"] == 12 for o in ops.values())
              and abs(ops["backward"]["total"] - 12 * 0.3) < 1e-12 and abs(ops["backward"]["mean"] - 0.3) < 1e-12,
              "json operations: %r" % v["operations"])
        check(v["straggler"]["verdict"] == "none" and v["straggler"]["occurrences"] == 3
              and v["ended"] is False and v["profile"] is None, "json straggler and end: %r" % v)
    out = subprocess.run([TPROF, "top", directory, "--once", "--format", "csv"], capture_output=True, text=True,
                         timeout=20)
    check(out.returncode == 2 and "--format" in out.stderr, "--format csv refused: %r" % (out,))
    os.remove(job.writers[3].path)
    out = subprocess.run([TPROF, "top", directory, "--once"], capture_output=True, text=True, timeout=20)
    check("Missing: rank 3 has no spill file." in out.stdout, "a missing file is named:\n" + out.stdout)
    out = subprocess.run([TPROF, "top", directory, "--once", "--format", "json"], capture_output=True, text=True,
                         timeout=20)
    check(out.returncode == 0 and json.loads(out.stdout)["missing_ranks"] == [3], "json missing rank: %r" % (out,))
    for bad, why in ((os.path.join(directory, "nowhere"), "not a directory of spill files"),
                     (tempfile.mkdtemp(dir=directory), "no spill file")):
        out = subprocess.run([TPROF, "top", bad, "--once"], capture_output=True, text=True, timeout=20)
        check(out.returncode == 1 and out.stdout == "" and bad in out.stderr and why in out.stderr
              and len(out.stderr.splitlines()) == 1, "bad DIR %s: %r" % (bad, out))
    out = subprocess.run([TPROF, "top", directory, "--interval", "0"], capture_output=True, text=True, timeout=20)
    check(out.returncode == 2 and "--interval" in out.stderr, "--interval 0 refused: %r" % (out,))


def test_clean_end(directory):
    """A job that ended cleanly removed its spill files and left the note
    naming its profile: top says so instead of "no spill file"."""
    with open(os.path.join(directory, "tprof-%016x.ended" % JOB), "w") as f:
        f.write("/scratch/clean.h5\n")
    out = subprocess.run([TPROF, "top", directory, "--once"], capture_output=True, text=True, timeout=20)
    check(out.returncode == 0 and out.stderr == ""
          and out.stdout == "The job %016x ended cleanly and removed its spill files; its profile is "
                            "/scratch/clean.h5\n" % JOB, "clean end: %r" % (out,))
    out = subprocess.run([TPROF, "top", directory, "--format", "json"], capture_output=True, text=True, timeout=20)
    v = json.loads(out.stdout) if out.returncode == 0 else {}
    check(v.get("job") == "%016x" % JOB and v.get("ended") is True and v.get("profile") == "/scratch/clean.h5",
          "clean end as json: %r" % (out,))
    # another job's note is not this one's
    out = subprocess.run([TPROF, "top", directory, "--once", "--job", "%016x" % (JOB + 1)], capture_output=True,
                         text=True, timeout=20)
    check(out.returncode == 1 and "no spill file" in out.stderr, "another job's note: %r" % (out,))


def test_against_merge(directory):
    """After all data, top's figures are those of tprof stragglers and
    tprof summary on the profile tprof merge makes of the same files."""
    job = Job(directory)
    job.steps(30)
    top = subprocess.run([TPROF, "top", directory, "--once"], capture_output=True, text=True, timeout=20)
    profile = os.path.join(directory, "merged.h5")
    subprocess.run([TPROF, "merge", directory, "-o", profile], capture_output=True, check=True, timeout=60)
    blame = json.loads(subprocess.run([TPROF, "stragglers", profile, "--format", "json"], capture_output=True,
                                      text=True, check=True, timeout=60).stdout)
    summary = json.loads(subprocess.run([TPROF, "summary", profile, "--format", "json"], capture_output=True,
                                        text=True, check=True, timeout=60).stdout)
    check(counts(top.stdout) == {o["name"]: o["count"] for o in summary["operations"]},
          "counts equal tprof summary's:\n" + top.stdout)
    m = re.search(r"Straggler so far: rank (\d+), last to arrive (\d+) of (\d+) times .*\(p = ([\d.e+-]+)\)",
                  top.stdout)
    check(m is not None, "a straggler:\n" + top.stdout)
    if m:
        late = {r["rank"]: r["late_count"] for r in blame["ranks"]}
        check(blame["verdict"] == "rank" and int(m.group(1)) == blame["straggler"]
              and int(m.group(2)) == late[blame["straggler"]] and int(m.group(3)) == blame["occurrences"]
              and m.group(4) == "%.2g" % blame["p_value"],
              "top's straggler %s equals tprof stragglers' %r" % (m.groups(), blame))


with tempfile.TemporaryDirectory() as tmp:
    for name, test in (("live", test_live), ("end", test_end),
                       ("end-without-a-file", test_end_without_a_file), ("once", test_once_and_bad),
                       ("clean", test_clean_end), ("merge", test_against_merge)):
        d = os.path.join(tmp, name)
        os.mkdir(d)
        test(d)

if failures:
    sys.exit(1)
print("ok")
