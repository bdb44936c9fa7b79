# h5_profile.py — a profile file read with h5py alone (formats 2 and 3), for the tests' expectations.
# SPDX-License-Identifier: MIT
"""read(path) -> (root attributes, /ranks members, [(name, columns)]) where
columns is a dict of numpy arrays: times, ranks, and starts and threads
where the file has them; operations in the file's order."""

import h5py
import numpy as np


def _text(value):
    return value.decode() if isinstance(value, bytes) else value


def _version2(f):
    group = f["timings"]
    links = []
    group.id.links.iterate(lambda name: links.append(name.decode()), idx_type=h5py.h5.INDEX_CRT_ORDER)
    operations = []
    for link in links:
        op = group[link]
        columns = {key: op[key][()] for key in ("times", "ranks", "starts", "threads") if key in op}
        operations.append((_text(op.attrs.get("name", link)), columns))
    return operations


def _version3(f):
    names = [_text(n) for n in f["operations/name"][()]]
    bounds = f["operations/segments"][()]
    offsets, seg_ranks = f["segments/offset"][()], f["segments/rank"][()]
    operations = []
    for k, name in enumerate(names):
        s0, s1 = bounds[k], bounds[k + 1]
        lo, hi = offsets[s0], offsets[s1]
        columns = {"times": f["samples/times"][lo:hi],
                   "ranks": np.repeat(seg_ranks[s0:s1], np.diff(offsets[s0:s1 + 1]))}
        for key in ("starts", "threads"):
            if key in f["samples"]:
                columns[key] = f["samples/" + key][lo:hi]
        operations.append((name, columns))
    return operations


def read(path):
    with h5py.File(path, "r") as f:
        attrs = {key: _text(value) for key, value in f.attrs.items()}
        ranks = {key: f["ranks"][key][()] for key in f["ranks"]} if "ranks" in f else {}
        operations = _version3(f) if int(attrs["format_version"]) >= 3 else _version2(f)
    return attrs, ranks, operations
