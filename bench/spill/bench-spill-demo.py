# bench-spill-demo.py — the training demo's time and CPU time under tprof-run, with a spill every second against without, alternated.
# SPDX-License-Identifier: MIT
"""Usage: bench-spill-demo.py TPROF_RUN MPIEXEC DEMO [ROUNDS]

Prints the median wall time of the 4-rank demo (300 iterations) under
tprof-run, without spilling and with --spill (TPROF_SPILL_INTERVAL=1, ten
times the default's flushes), rounds alternating, and the median of the
rounds' ratios (each pair run moments apart) with their quartiles, so
that a machine whose load drifts still gives a fair figure; then the same
for the CPU time (user + system) of the whole job (launcher, ranks, their
spill threads), which other processes on the machine change far less."""

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

tprof_run, mpiexec, demo = (os.path.abspath(a) for a in sys.argv[1:4])
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 5
# 4 ranks on however few cores (Open MPI refuses more ranks than cores
# without it; MPICH ignores it)
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1", TPROF_SPILL_INTERVAL="1")


def run(spill, d):
    cmd = [tprof_run] + (["--spill", os.path.join(d, "spill")] if spill else []) + \
          ["-o", os.path.join(d, "run.h5"), mpiexec, "-n", "4", demo, "--quiet", "-i", "300",
           "--output", os.path.join(d, "demo.h5")]
    t0, c0 = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, cwd=d, env=env, check=True, capture_output=True)
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.monotonic() - t0, (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)


def paired(what, unit, plain, spilled):
    a, b = statistics.median(plain), statistics.median(spilled)
    ratios = sorted(x / y for x, y in zip(spilled, plain))
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
    print("demo, 4 ranks, 300 iterations, %s: %.3f %s with a spill every 1 s, %.3f %s without; "
          "paired ratio: median %.3f (target 1.01), quartiles %.3f-%.3f of %d pairs"
          % (what, b, unit, a, unit, statistics.median(ratios), q[0], q[-1], len(ratios)))


plain, spilled = [], []
with tempfile.TemporaryDirectory() as d:
    for r in range(rounds):
        order = [(False, plain), (True, spilled)]
        for spill, out in (order if r % 2 == 0 else order[::-1]):
            out.append(run(spill, d))
paired("wall time", "s", [w for w, _ in plain], [w for w, _ in spilled])
paired("CPU time of the job", "s", [c for _, c in plain], [c for _, c in spilled])
