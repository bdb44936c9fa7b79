# check-summary-tree.py — `tprof summary`'s operation tree (parent, self_sum) against the quadratic numpy nesting of tests/stats/reference.py, on a profile written by h5py.
# Usage: check-summary-tree.py TPROF DIR   (prints OK)
# SPDX-License-Identifier: MIT
import json
import os
import re
import subprocess
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'stats'))
from reference import nesting_parents, parent_operations  # noqa: E402  the one reference of docs/analysis.md

TPROF, DIR = sys.argv[1], sys.argv[2]
W, STEPS = 3, 6
NAMES = ['step', 'forward', 'backward', 'allreduce', 'loader', 'lone']
rng = np.random.default_rng(5)

# Per rank: thread 0 runs steps with forward, backward (holding an
# allreduce) and untimed gaps; thread 1 runs a loader; 'lone' is a sample
# outside every step.
rows = []  # (op, rank, thread, start, time)
for r in range(W):
    t = 0.01 * r
    for k in range(STEPS):
        f, b, a = rng.uniform(1e-3, 2e-3, 3)
        gap = rng.uniform(1e-4, 5e-4)
        rows.append((1, r, 0, t + gap, f))
        rows.append((2, r, 0, t + gap + f, b + a))
        rows.append((3, r, 0, t + gap + f + b, a))
        step = gap + f + b + a + gap
        rows.append((0, r, 0, t, step))
        rows.append((4, r, 1, t + 1e-4, rng.uniform(1e-3, 3e-3)))
        t += step + 1e-3
    rows.append((5, r, 0, t + 1.0, 1e-3))
rows = np.array(rows)
ops, ranks, threads = rows[:, 0].astype(np.int32), rows[:, 1].astype(np.int32), rows[:, 2].astype(np.int32)
starts, times = rows[:, 3], rows[:, 4]

path = os.path.join(DIR, 'tree.h5')
with h5py.File(path, 'w') as f:
    f.attrs['format'] = 'tprof-profile'
    f.attrs['format_version'] = 2
    f.attrs['world_size'] = W
    timings = f.create_group('timings', track_order=True)
    for op, name in enumerate(NAMES):
        keep = np.nonzero(ops == op)[0]
        keep = keep[np.argsort(ranks[keep], kind='stable')]
        g = timings.create_group(name)
        g.attrs['name'] = name
        g['times'], g['ranks'] = times[keep], ranks[keep]
        g['starts'], g['threads'] = starts[keep], threads[keep]


def expected(selected):
    keep = np.isin(ranks, selected)
    o, s, t, rk, th = ops[keep], starts[keep], times[keep], ranks[keep], threads[keep]
    parent = nesting_parents(s, s + t, rk, th, np.ones(o.size, bool))
    has = parent >= 0
    self_time = t - np.bincount(parent[has], weights=t[has], minlength=t.size)
    chosen = parent_operations(o, parent, len(NAMES), set())
    return ({NAMES[op]: (NAMES[chosen[op]] if chosen[op] >= 0 else None) for op in range(len(NAMES))},
            {NAMES[op]: float(self_time[o == op].sum()) for op in range(len(NAMES))})


def tprof(*args):
    p = subprocess.run([TPROF, 'summary', path, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


for args, selected in (((), range(W)), (('--ranks', '0,2'), [0, 2])):
    status, out, err = tprof('--format', 'json', *args)
    assert status == 0, err
    got = {o['name']: o for o in json.loads(out)['operations']}
    parents, selfs = expected(selected)
    assert {n: o['parent'] for n, o in got.items()} == parents, ({n: o['parent'] for n, o in got.items()}, parents)
    for name, want in selfs.items():
        assert abs(got[name]['self_sum'] - want) <= 1e-9 * max(abs(want), 1e-9), (name, got[name]['self_sum'], want)
# the tree is what the profile says: step holds forward and backward, backward the allreduce
assert parents == {'step': None, 'forward': 'step', 'backward': 'step', 'allreduce': 'backward',
                   'loader': None, 'lone': None}, parents
# the untimed gaps are step's self time
assert selfs['step'] > 0

# the table: a tree, children indented under their parent, with a Self column
status, out, _ = tprof()
lines = out.splitlines()
assert lines[0].split()[:5] == ['Operation', 'Count', 'Ranks', 'Sum', 'Self'], lines[0]
assert [re.match(r'^ *\S+', line).group(0) for line in lines[1:7]] == \
    ['step', '  forward', '  backward', '    allreduce', 'loader', 'lone'], lines

# CSV ends with parent and self_sum; --no-tree reads no sample: empty
status, out, _ = tprof('--format', 'csv')
head, first = out.splitlines()[:2]
assert head.endswith(',slowest_rank,parent,self_sum,sampled,stored') and first.startswith('step,') and ',,' in first, out
status, out, _ = tprof('--format', 'json', '--no-tree')
assert all(o['parent'] is None and o['self_sum'] is None for o in json.loads(out)['operations'])
status, out, _ = tprof('--no-tree')
assert 'Self' not in out.splitlines()[0], out
# sorting by self time, largest first
status, out, _ = tprof('--format', 'json', '--sort', 'self_sum')
got = [o['self_sum'] for o in json.loads(out)['operations']]
assert got == sorted(got, reverse=True), got
assert tprof('--tree', '--no-tree')[0] == 2

# a file without a timeline has no tree and says nothing wrong
old = os.path.join(DIR, 'flat.h5')
with h5py.File(old, 'w') as f:
    f.attrs['format'] = 'tprof-profile'
    f.attrs['format_version'] = 2
    f.attrs['world_size'] = 1
    g = f.create_group('timings').create_group('x')
    g.attrs['name'] = 'x'
    g['times'], g['ranks'] = np.ones(2), np.zeros(2, dtype=np.int32)
p = subprocess.run([TPROF, 'summary', old, '--format', 'json'], capture_output=True, text=True)
assert p.returncode == 0 and p.stderr == '', p.stderr
assert json.loads(p.stdout)['operations'][0]['parent'] is None
print('OK')
