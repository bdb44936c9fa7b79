# check_load_shared.py — format-3 files of 10^4 operations (enough that a load checks their caches on two threads), good and with one or two bad caches or samples, written with h5py: every load must give the outcome of a load bound to one processor, which must name the lowest operation refused.
# Usage: check_load_shared.py LOAD_SHARED   (load-shared.c; prints OK, or SKIP with one processor or
# none ever free)
# SPDX-License-Identifier: MIT
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import format3  # noqa: E402
from format3 import scale, set_value  # noqa: E402

WORLD = 4
N_OPS = 10000
PER_OP = 8
REPEAT = 8
# under a sanitizer the test took some 30 times as long (323 s in CI):
# two shared loads of each kind a case still compare both threads' choice
SANITIZED_REPEAT = 2
# the operations' first segments: one segment for every third operation,
# one a rank for the others (as ops() lays them out)
FIRST_SEGMENT = np.concatenate(([0], np.cumsum([1 if k % 3 == 0 else WORLD for k in range(N_OPS)])))


def ops():
    out = []
    for k in range(N_OPS):
        # most on every rank, every third on one: a run, or four, per operation
        ranks = [k % WORLD] * PER_OP if k % 3 == 0 else [r for r in range(WORLD) for _ in range(PER_OP // WORLD)]
        times = 1e-3 * (1 + np.arange(PER_OP) * 0.37 + k * 1e-4)
        out.append(format3.operation("op%05d" % k, times, ranks, np.arange(PER_OP) * 0.01 + k,
                                     np.zeros(PER_OP, dtype=np.int64)))
    return out


def both(*mutations):
    def mutate(f):
        for m in mutations:
            m(f)
    return mutate


# label: (mutation, what the message of a load in process must name (None:
# the file loads), what an isolated load's must where its open refuses
# the file before the samples' pass (it checks each cache on its own
# first): then no thread is started)
CASES = {
    "good": (None, None, None),
    "median-first": (scale("operations/median", 0, 1.001), "operations/median[0]", None),
    "median-last": (scale("operations/median", N_OPS - 1, 1.001), "operations/median[%d]" % (N_OPS - 1), None),
    "two-medians": (both(scale("operations/median", 9000, 1.001), scale("operations/median", 1000, 1.001)),
                    "operations/median[1000]", None),
    # a cache refused on its own (its mean) and one refused by its samples:
    # the lower, whichever kind
    "median-below-mean": (both(set_value("operations/mean", 8000, np.inf), scale("operations/median", 1500, 1.001)),
                          "operations/median[1500]", "operations/mean[8000]"),
    "mean-below-median": (both(scale("operations/median", 8000, 1.001), set_value("operations/mean", 1500, np.inf)),
                          "operations/mean[1500]", "operations/mean[1500]"),
    "neighbours": (both(set_value("operations/mean", 4101, np.inf), scale("operations/median", 4100, 1.001)),
                   "operations/median[4100]", "operations/mean[4101]"),
    # every operation from 6000 on refused: the two threads each refuse a
    # round at once, the lower is named
    "all-from-6000": (scale("operations/median", slice(6000, None), 1.001), "operations/median[6000]", None),
    # a rank's cached sum, checked against its samples' run
    "rank-sum": (both(scale("operations/median", 6000, 1.001), scale("segments/sum", FIRST_SEGMENT[2000], 2.0)),
                 "segments/sum[%d]|operations/sum[2000]" % FIRST_SEGMENT[2000],
                 "segments/sum[%d]|operations/sum[2000]" % FIRST_SEGMENT[2000]),
    # the values are checked before any cache: a late NaN before an early bad cache
    "time-nan-late": (both(set_value("samples/times", 9500 * PER_OP + 3, np.nan),
                           scale("operations/median", 100, 1.001)),
                      "samples/times[%d]" % (9500 * PER_OP + 3), None),
}


def sanitized(program):
    """Whether @program is linked with AddressSanitizer or ThreadSanitizer."""
    linked = subprocess.run(["ldd", program], capture_output=True, text=True).stdout
    return "libasan" in linked or "libtsan" in linked


def main():
    load_shared = sys.argv[1]
    repeat = SANITIZED_REPEAT if sanitized(load_shared) else REPEAT
    errors = []
    reached = shared_cases = 0
    with tempfile.TemporaryDirectory(prefix="tprof-load-shared-") as tmp:
        base = os.path.join(tmp, "base.h5")
        format3.write(base, WORLD, ops())
        with h5py.File(base, "r") as f:
            assert list(f["operations/segments"][()]) == list(FIRST_SEGMENT)
        for label, (mutate, named, isolated_named) in CASES.items():
            path = os.path.join(tmp, label + ".h5")
            with open(base, "rb") as src, open(path, "wb") as dst:
                dst.write(src.read())
            if mutate is not None:
                with h5py.File(path, "r+") as f:
                    mutate(f)
            done = subprocess.run([load_shared, path, str(repeat)], capture_output=True, text=True,
                                  errors="replace")
            if done.returncode == 77:
                print("SKIP: " + done.stdout.strip())
                sys.exit(77)
            lines = done.stdout.splitlines()
            if done.returncode != 0 or len(lines) != 4:
                errors.append("%s: exit %d: %s%s" % (label, done.returncode, done.stdout, done.stderr))
                continue
            for line, expected in zip(lines[:2], (named, isolated_named or named)):
                outcome = line.split(": ", 1)[1]
                if expected is None and outcome != "loaded":
                    errors.append("%s: expected to load: %s" % (label, line))
                elif expected is not None and (path not in outcome
                                               or not any(n in outcome for n in expected.split("|"))):
                    errors.append("%s: does not name the file and %s: %s" % (label, expected, line))
            # loads that reach the samples' pass share it while a processor
            # is free: with the machine busy throughout, none may have. The
            # first load of a process starts the thread kept for the next,
            # which takes that load's job as it starts: a second shared
            # load shows the kept thread handed a job
            for line, reaches in zip(lines[2:], (True, isolated_named is None)):
                if reaches:
                    reached += 1
                    shared_cases += int(line.split(": ", 1)[1].split()[0]) >= 2
                elif int(line.split(": ", 1)[1].split()[0]) != 0:
                    errors.append("%s: %s, expected none: the open refuses the file" % (label, line))
    if errors:
        print("FAIL:\n" + "\n".join(errors))
        sys.exit(1)
    if shared_cases == 0:
        print("SKIP: no second load of a process shared its check (no processor was free, or the "
              "kept thread was never handed a job)")
        sys.exit(77)
    print("OK: %d of %d loads' cases shared their check" % (shared_cases, reached))


if __name__ == "__main__":
    main()
