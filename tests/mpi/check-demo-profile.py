"""check-demo-profile.py — reads a tprof-demo-training profile with h5py alone and checks it against docs/file-format.md."""
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import profile_h5  # noqa: E402  (tests/profile_h5.py)


def fail(message):
    print(f"check-demo-profile: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    path, world_size, iterations = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with h5py.File(path, "r") as f:
        if f.attrs["format"] != "tprof-profile" or int(f.attrs["format_version"]) != 3:
            fail("wrong format attributes")
        if int(f.attrs["world_size"]) != world_size:
            fail(f"world_size {f.attrs['world_size']} != {world_size}")
        hosts = f["ranks"]["hostname"][()]
        if len(hosts) != world_size or any(len(h) == 0 for h in hosts):
            fail(f"bad host names {hosts!r}")
        names = []
        for name, group in profile_h5.operations(f):
            names.append(name.decode() if isinstance(name, bytes) else name)
            times = group["times"][()]
            ranks = group["ranks"][()]
            if times.dtype != np.float64 or ranks.dtype != np.int32 or times.shape != ranks.shape:
                fail(f"{names[-1]}: wrong dataset types or shapes")
            if not (np.all(np.isfinite(times)) and np.all(times > 0)):
                fail(f"{names[-1]}: times not finite and positive")
            if np.any(np.diff(ranks) < 0):
                fail(f"{names[-1]}: samples not grouped by ascending rank")
            if names[-1] in ("forward", "backward", "allreduce", "optimizer", "data/load", "step"):
                counts = np.bincount(ranks, minlength=world_size)
                if not np.all(counts == iterations):
                    fail(f"{names[-1]}: per-rank counts {counts} != {iterations}")
        # every phase in the order the loop first records it; the step ends last
        expected = ["data/load", "forward", "backward", "allreduce", "optimizer", "step"]
        if [n for n in names if n != "io/checkpoint"] != expected:
            fail(f"operations {names} are not in first-recorded order {expected}")


if __name__ == "__main__":
    main()

# SPDX-License-Identifier: MIT