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
    # MPI_Comm_idup is WORLD's creation 6; MPI_Comm_create_group, a
    # collective of {1, 3} alone, is numbered among those of its tag and
    # members (two here), leaving WORLD's count to the creations of all.
    "idup": ["WORLD.6"] * 4,
    "create_group": ["null", "WORLD.g7:1#1", "null", "WORLD.g7:1#1"],
    "create_group_again": ["null", "WORLD.g7:2#1", "null", "WORLD.g7:2#1"],
    # the intercommunicator of {0, 2} and {1, 3}, named alike on both
    # sides by their lowest ranks; its merge is its creation 1, its dup
    # the second intercommunicator between these groups
    "intercomm": ["INTER:1#0+1"] * 4,
    "merged": ["INTER:1#0+1.1"] * 4,
    "intercomm_dup": ["INTER:2#0+1"] * 4,
}



def run(timeout, *options):
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, TPROF_HANG_TIMEOUT=timeout)
        return subprocess.run([TPROF_RUN, "-o", os.path.join(d, "out.h5")] + list(options)
                              + [MPIEXEC, "-n", "4", PROGRAM],
                              capture_output=True, text=True, env=env, timeout=120)


# A bad TPROF_HANG_TIMEOUT is named, on every rank, and nothing is tracked.
for bad in ["abc", "-5", "0", "nan"]:
    p = run(bad)
    said = p.stderr.count("TPROF_HANG_TIMEOUT=%s is not a positive number of seconds" % bad)
    if p.returncode != 0 or said != 4 or "0 dup none" not in p.stdout:
        raise SystemExit("FAIL: TPROF_HANG_TIMEOUT=%s: exit %d, said %d times, %s" % (bad, p.returncode, said, p.stdout))
# tprof-run refuses a bad --hang-timeout, and one without a spill directory.
for options, message in [(["--hang-timeout", "x"], "'x' is not a number of seconds"),
                         (["--hang-timeout", "0"], "must be more than 0 seconds"),
                         (["--hang-timeout", "5"], "needs --spill DIR")]:
    env_without_spill = {k: v for k, v in os.environ.items() if k != "TPROF_SPILL_DIR"}
    p = subprocess.run([TPROF_RUN] + options + ["true"], capture_output=True, text=True, env=env_without_spill)
    if p.returncode != 2 or message not in p.stderr or "--hang-timeout" not in p.stderr:
        raise SystemExit("FAIL: tprof-run %s: exit %d, %r" % (options, p.returncode, p.stderr))

p = run("600")
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
