# check-hang-names.py — the names the hang watchdog gives communicators, on 4 real ranks: every member agrees, and they follow the parent.n#lowest rule worked out by hand.
# SPDX-License-Identifier: MIT
"""Usage: check-hang-names.py TPROF_RUN MPIEXEC PRELOAD_HANG_NAMES"""
import os
import subprocess
import sys
import tempfile

TPROF_RUN, MPIEXEC, PROGRAM = sys.argv[1:4]

# creations over WORLD, in order: dup (1), split by parity (2: {0,2} and
# {1,3}), create of {0,1} (3; ranks 2, 3 get MPI_COMM_NULL), a 2x2 cart (4),
# then after freeing the dup, a dup again (5). Over the cart (4): its sub
# keeping dimension 0 (1: {0,2}, {1,3}). Over each split part: its dup (1).
EXPECTED = {
    "world": ["WORLD"] * 4,
    "self": ["SELF"] * 4,
    "dup": ["WORLD.1"] * 4,
    "split": ["WORLD.2#0", "WORLD.2#1", "WORLD.2#0", "WORLD.2#1"],
    "create": ["WORLD.3#0", "WORLD.3#0", "null", "null"],
    "cart": ["WORLD.4"] * 4,
    "cart_sub": ["WORLD.4.1#0", "WORLD.4.1#1", "WORLD.4.1#0", "WORLD.4.1#1"],
    "dup_of_split": ["WORLD.2#0.1", "WORLD.2#1.1", "WORLD.2#0.1", "WORLD.2#1.1"],
    "dup_again": ["WORLD.5"] * 4,
}

with tempfile.TemporaryDirectory() as d:
    env = dict(os.environ, TPROF_HANG_TIMEOUT="600")
    p = subprocess.run([TPROF_RUN, "-o", os.path.join(d, "out.h5"), MPIEXEC, "--oversubscribe", "-n", "4", PROGRAM],
                       capture_output=True, text=True, env=env, timeout=120)
if p.returncode != 0:
    raise SystemExit("FAIL: the program exited %d: %s" % (p.returncode, p.stderr))
got = {}
for line in p.stdout.splitlines():
    rank, what, label = line.split()
    got.setdefault(what, ["?"] * 4)[int(rank)] = label
for what, labels in EXPECTED.items():
    if got.get(what) != labels:
        raise SystemExit("FAIL: %s: expected %s, got %s" % (what, labels, got.get(what)))
print("check-hang-names: ok")
