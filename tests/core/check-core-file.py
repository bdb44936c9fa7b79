# check-core-file.py — reads the profile test-core-file --write saves with h5py alone and checks its data and statistics with numpy.
# SPDX-License-Identifier: MIT
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import profile_h5  # noqa: E402  (tests/profile_h5.py)

WORLD_SIZE = 4
STEP_COUNT = 1000


def check(condition, message):
    if not condition:
        print("FAIL: " + message)
        sys.exit(1)


def expected_step():
    # the numbers of core-reference.h, generated independently
    i = np.arange(STEP_COUNT)
    ranks = (i % WORLD_SIZE).astype(np.int32)
    times = ((i * 37) % 101 + 1) / 64.0
    times[ranks == 3] *= 2.0
    return times, ranks


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "core.h5")
        out = subprocess.run([exe, "--write", path], check=True, capture_output=True, text=True).stdout
        printed = {}
        for line in out.splitlines():
            fields = line.split()
            printed[fields[0]] = [float(x) for x in fields[1:]]

        with h5py.File(path, "r") as f:
            check(f.attrs["format"] == "tprof-profile", "format is %r" % f.attrs["format"])
            check(int(f.attrs["world_size"]) == WORLD_SIZE, "world_size is %r" % f.attrs["world_size"])
            groups = profile_h5.operation_dict(f)
            check(set(groups) == {"step", "io/checkpoint", "recorded"}, "operations are %r" % sorted(groups))

            times, ranks = expected_step()
            step = groups["step"]
            saved_times, saved_ranks = step["times"][()], step["ranks"][()]
            check(np.array_equal(np.sort(saved_ranks), np.sort(ranks)), "step ranks differ")
            # the writer may group samples by rank: compare each rank's, in order
            for r in range(WORLD_SIZE):
                check(np.array_equal(saved_times[saved_ranks == r], times[ranks == r]),
                      "step times of rank %d differ" % r)
            check(np.array_equal(groups["io/checkpoint"]["times"][()], np.arange(1, 8) / 8.0),
                  "io/checkpoint times differ")
            check(np.all(groups["recorded"]["ranks"][()] == 0), "recorded ranks are not all 0")
            check(list(f["ranks"]["hostname"].asstr()[()]) == ["node-a", "node-a", "node-b", "node-b"],
                  "hostnames differ")

            for name, group in groups.items():
                t = group["times"][()]
                want = [len(t), t.sum(), t.mean(), t.std(ddof=1),
                        np.quantile(t, 0.5), np.quantile(t, 0.95), np.quantile(t, 0.99)]
                got = printed[name]
                check(int(got[0]) == len(t), "%s: count %r, numpy %d" % (name, got[0], len(t)))
                check(np.allclose(got[1:], want[1:], rtol=1e-12, atol=0.0),
                      "%s: libtprof-capture says %r, numpy %r" % (name, got[1:], want[1:]))
    print("check-core-file: OK")


main()
