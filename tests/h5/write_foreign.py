# write_foreign.py — writes profiles the way another program using h5py might, for libtprof-capture to read.
# SPDX-License-Identifier: MIT
import sys

import h5py
import numpy as np


def write_name_order(path):
    # no creation order, fixed-length ASCII strings, odd integer and float types
    with h5py.File(path, "w") as f:
        f.attrs["format"] = np.bytes_("tprof-profile")
        f.attrs["format_version"] = np.uint8(1)
        f.attrs["world_size"] = np.array([3], dtype=np.int64)
        f.attrs["producer"] = "h5py test writer"
        timings = f.create_group("timings")

        zeta = timings.create_group("zeta")
        zeta.attrs["name"] = "zeta"
        zeta["times"] = np.array([0.5, 0.25, 1.5, 2.0], dtype=np.float32)
        zeta["ranks"] = np.array([2, 0, 2, 1], dtype=np.int64)

        alpha = timings.create_group("alpha")
        alpha.attrs["name"] = np.bytes_("alpha beta")
        alpha.create_dataset("times", data=np.array([3.0, 0.125, 7.75], dtype=">f8"),
                             chunks=(2,), compression="gzip", shuffle=True)
        alpha.create_dataset("ranks", data=np.array([1, 1, 0], dtype=np.uint16))

        # no `name` attribute: readers un-escape the link name
        io = timings.create_group("io%2Fread")
        io["times"] = np.zeros(0, dtype=np.float32)
        io["ranks"] = np.zeros(0, dtype=np.int8)

        f.create_group("ranks")["hostname"] = np.array([b"node-a", b"node-b", b"node-c"], dtype="S6")


def write_creation_order(path):
    with h5py.File(path, "w", track_order=True) as f:
        f.attrs["format"] = "tprof-profile"
        f.attrs["format_version"] = 1
        f.attrs["world_size"] = 2
        timings = f.create_group("timings", track_order=True)
        for i, name in enumerate(["zeta", "alpha", "mid"]):
            group = timings.create_group(name)
            group.attrs["name"] = name
            group["times"] = np.array([float(i)], dtype=np.float64)
            group["ranks"] = np.array([i % 2], dtype=np.int32)


{"name-order": write_name_order, "creation-order": write_creation_order}[sys.argv[1]](sys.argv[2])
print("OK")
