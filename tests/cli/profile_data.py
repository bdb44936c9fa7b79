# profile_data.py — reads a tprof profile with h5py alone, the independent side of the CLI tests.
# SPDX-License-Identifier: MIT
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import profile_h5  # noqa: E402  (tests/profile_h5.py)


def load(path):
    """Returns (world_size, [(name, times, ranks)]) in file order."""
    ops = []
    with h5py.File(path, 'r') as f:
        world_size = int(f.attrs['world_size'])
        for name, op in profile_h5.operations(f):  # file order
            if isinstance(name, bytes):
                name = name.decode('utf-8')
            ops.append((str(name), op['times'].astype(np.float64), op['ranks'].astype(np.int64)))
    return world_size, ops


def parse_ranks(expr):
    ranks = set()
    for item in expr.split(','):
        if '-' in item:
            a, b = item.split('-')
            ranks.update(range(int(a), int(b) + 1))
        else:
            ranks.add(int(item))
    return sorted(ranks)


def close(a, b, rtol=1e-12, atol=1e-15):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= atol + rtol * abs(b)
