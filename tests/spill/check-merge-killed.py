#!/usr/bin/env python3
# check-merge-killed.py — the demo under `tprof-run --spill`, every rank killed with SIGKILL at about 5 s, 20 times: tprof merge gives a profile with at least (5 - interval) s of samples on every rank, and tprof stragglers names rank 1.
# SPDX-License-Identifier: MIT
"""The 20 jobs are independent (each its own spill folder, merge and
profile), so TPROF_KILLED_PARALLEL of them (4 by default) run at a time.
The demo's ranks wait for a simulated
accelerator instead of computing (--compute accelerator, what its auto
picks wherever ranks outnumber cores), so a job is mostly 5 s of waiting:
run one after another, the 20 took 2 minutes in which the machine was
nearly idle. TPROF_KILLED_REPEATS changes the count."""
import concurrent.futures
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

TPROF_RUN, MPIEXEC, DEMO, TPROF = sys.argv[1:5]
REPEATS = int(os.environ.get("TPROF_KILLED_REPEATS", "20"))
PARALLEL = max(1, int(os.environ.get("TPROF_KILLED_PARALLEL", "4")))
INTERVAL = 1.0
RUN_FOR = 5.0
NP = 4


def descendants(pid):
    """Every process below @pid, from /proc."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        for c in children.get(p, []):
            out.append(c)
            todo.append(c)
    return out


def is_rank(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return os.path.basename(DEMO).encode() in f.read().split(b"\0")[0]
    except OSError:
        return False


def run_once(work, k):
    spill = os.path.join(work, "spill%d" % k)
    os.mkdir(spill)
    env = dict(os.environ, TPROF_SPILL_INTERVAL=str(INTERVAL))
    job = subprocess.Popen([TPROF_RUN, "--spill", spill, "-o", os.path.join(work, "never.h5"), "--",
                            MPIEXEC, "-n", str(NP), DEMO, "--quiet", "--iterations", "1000000",
                            "--compute", "accelerator",
                            # rank 1 three times slower: it stays the last to
                            # arrive even on a machine busy with other work
                            "--straggler", "1", "--straggler-factor", "3",
                            "-o", os.path.join(work, "never-demo.h5")],
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        # 5 s from when every rank has its file (spilling started)
        deadline = time.monotonic() + 60
        while len([f for f in os.listdir(spill) if f.endswith(".spill")]) < NP:
            assert job.poll() is None and time.monotonic() < deadline, \
                "run %d: the job ended or never spilled: %r" % (k, job.stderr.read() if job.poll() is not None else "")
            time.sleep(0.02)
        time.sleep(RUN_FOR)
        ranks = [p for p in descendants(job.pid) if is_rank(p)]
        assert len(ranks) >= NP, "run %d: %d rank processes found" % (k, len(ranks))
        for p in ranks:
            os.kill(p, signal.SIGKILL)
    finally:
        # a failed run leaves no job behind to slow the others
        try:
            os.killpg(job.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        job.wait(timeout=60)

    out = os.path.join(work, "merged%d.h5" % k)
    merged = subprocess.run([TPROF, "merge", spill, "-o", out], capture_output=True, text=True, timeout=120)
    assert merged.returncode == 0, "run %d: merge: %s" % (k, merged.stderr)
    assert "damaged" not in merged.stderr and "no usable" not in merged.stderr and "not used" not in merged.stderr, \
        "run %d: unreadable: %s" % (k, merged.stderr)
    with h5py.File(out, "r") as f:
        seg_rank, offset = f["segments/rank"][()], f["segments/offset"][()]
        starts, times = f["samples/starts"][()], f["samples/times"][()]
        until = f["ranks/data_until"][()]
        spans = []
        for r in range(NP):
            rows = np.concatenate([np.arange(offset[s], offset[s + 1]) for s in np.flatnonzero(seg_rank == r)])
            span = (starts[rows] + times[rows]).max() - starts[rows].min()
            spans.append(span)
            assert span >= RUN_FOR - INTERVAL, "run %d: rank %d has %.2f s of samples" % (k, r, span)
            # every sample that ended before data_until is in the profile
            # (later ones may be too: a flush copies after taking its instant)
            assert np.isfinite(until[r]) and until[r] - starts[rows].min() >= RUN_FOR - INTERVAL, \
                "run %d: rank %d data_until %r, first start %r" % (k, r, until[r], starts[rows].min())
    doc = subprocess.run([TPROF, "stragglers", out, "--format", "json"], capture_output=True, text=True)
    assert doc.returncode == 0, doc.stderr
    straggler = json.loads(doc.stdout)["straggler"]
    if straggler != 1:
        table = subprocess.run([TPROF, "stragglers", out], capture_output=True, text=True).stdout
        summary = subprocess.run([TPROF, "summary", out], capture_output=True, text=True).stdout
        raise AssertionError("run %d: straggler %r\n%s\n%s\n%s" % (k, straggler, merged.stdout, table, summary))
    # one write: the runs print from several threads
    sys.stdout.write("run %d: spans %s s, straggler rank %d\n" % (k, " ".join("%.2f" % s for s in spans), straggler))
    os.remove(out)


with tempfile.TemporaryDirectory() as work:
    with concurrent.futures.ThreadPoolExecutor(PARALLEL) as pool:
        # list() raises the first failed run's assertion
        list(pool.map(lambda k: run_once(work, k), range(REPEATS)))
print("killed jobs: %d merges, every rank readable, rank 1 named" % REPEATS)
