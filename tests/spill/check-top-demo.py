#!/usr/bin/env python3
# check-top-demo.py — tprof top (not on a terminal) while the 4-rank training demo runs under tprof-run --spill: growing counts, rank 1 named, the end.
# SPDX-License-Identifier: MIT
"""Usage: check-top-demo.py TPROF_RUN MPIEXEC DEMO TPROF"""
import os
import re
import subprocess
import sys
import tempfile
import time

TPROF_RUN, MPIEXEC, DEMO, TPROF = (os.path.abspath(a) for a in sys.argv[1:5])
INTERVAL = 0.5   # the spill interval; tprof top refreshes at the same pace
OPS = ("forward", "backward", "allreduce")


def counts(block):
    found = {}
    for op in OPS:
        m = re.search(r"^%s\s+(\d+)\s" % op, block, re.M)
        if m:
            found[op] = int(m.group(1))
    return found


with tempfile.TemporaryDirectory() as d:
    spill = os.path.join(d, "spill")
    env = dict(os.environ, TPROF_SPILL_INTERVAL=str(INTERVAL), OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    job = subprocess.Popen([TPROF_RUN, "--spill", spill, "-o", os.path.join(d, "run.h5"), MPIEXEC, "-n", "4", DEMO,
                            "--quiet", "-i", "600", "--output", os.path.join(d, "demo.h5")],
                           cwd=d, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # the files appear once MPI is up; tprof top refuses a directory without them
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len([f for f in os.listdir(spill) if f.endswith(".spill")]
                                               if os.path.isdir(spill) else []) < 4:
        time.sleep(0.1)
    top = subprocess.run([TPROF, "top", spill, "--interval", str(INTERVAL)], capture_output=True, text=True,
                         timeout=300)
    job.communicate(timeout=300)
    assert job.returncode == 0, job.returncode
    assert top.returncode == 0 and top.stderr == "", (top.returncode, top.stderr)
    blocks = [b for b in top.stdout.split("\n\n") if b.startswith("tprof top")]
    assert len(blocks) >= 3, top.stdout
    # within 2 intervals of the first flush: the three operations, then counts that grow
    seen = [i for i, b in enumerate(blocks) if set(counts(b)) == set(OPS)]
    assert seen and seen[0] <= 2, "no forward/backward/allreduce in the first blocks:\n" + "\n\n".join(blocks[:3])
    first = counts(blocks[seen[0]])
    grown = [counts(b) for b in blocks[seen[0] + 1:]]
    assert any(all(c[op] > first[op] for op in OPS) for c in grown), (first, grown)
    named = [b for b in blocks if re.search(r"^Straggler so far: rank 1, .* confidence", b, re.M)]
    assert named, "rank 1 never named:\n" + blocks[-1]
    others = [b for b in blocks if re.search(r"^Straggler so far: (rank [023]|host)", b, re.M)]
    assert not others, "another straggler named:\n" + others[0]
    assert "The job ended; its profile is %s" % os.path.realpath(os.path.join(d, "run.h5")) in top.stdout, \
        top.stdout[-400:]
print("ok")
