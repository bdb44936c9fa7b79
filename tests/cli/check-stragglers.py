# check-stragglers.py — `tprof stragglers` against an independent numpy implementation of docs/analysis.md on a profile written by h5py.
# Usage: check-stragglers.py TPROF DIR   (prints OK)
# SPDX-License-Identifier: MIT
import json
import os
import subprocess
import sys

import h5py
import numpy as np

TPROF, DIR = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(4)
W, STEPS = 4, 30
path = os.path.join(DIR, 'straggler.h5')

# A training loop: compute (rank 1 is 1.5x slower, so it arrives late at
# the collective), then an allreduce that every rank leaves together; rank 3
# misses its last allreduce; io is unsynchronised noise.
ops = {'compute': ([], [], [], []), 'allreduce': ([], [], [], []), 'io': ([], [], [], [])}
clock = np.zeros(W)
for k in range(STEPS):
    compute = rng.uniform(0.010, 0.012, W)
    compute[1] *= 1.5
    arrive = clock + compute
    leave = arrive.max() + 0.0005 + rng.uniform(0, 1e-5, W)
    for r in range(W):
        for name, start, dur in (('compute', clock[r], compute[r]), ('allreduce', arrive[r], leave[r] - arrive[r])):
            if name == 'allreduce' and r == 3 and k == STEPS - 1:
                continue
            t, rk, s, th = ops[name]
            t.append(dur); rk.append(r); s.append(start); th.append(0)
        t, rk, s, th = ops['io']
        t.append(rng.uniform(0.001, 0.005)); rk.append(r); s.append(leave[r] + rng.uniform(0, 0.004)); th.append(1)
    clock = leave + 0.006

with h5py.File(path, 'w') as f:
    f.attrs['format'] = 'tprof-profile'
    f.attrs['format_version'] = 2
    f.attrs['world_size'] = W
    timings = f.create_group('timings', track_order=True)
    for name, (t, rk, s, th) in ops.items():
        g = timings.create_group(name)
        g.attrs['name'] = name
        order = np.argsort(np.array(rk), kind='stable')  # grouped by rank, as writers store
        g['times'] = np.array(t)[order]
        g['ranks'] = np.array(rk, dtype=np.int32)[order]
        g['starts'] = np.array(s)[order] - 0.0
        g['threads'] = np.array(th, dtype=np.int32)[order]
    f.create_group('ranks')['hostname'] = ['a', 'a', 'b', 'b']


def reference():
    """docs/analysis.md, written again with numpy."""
    wait = np.zeros(W)
    late = np.zeros(W, dtype=np.int64)
    sync = []
    with h5py.File(path, 'r') as f:
        for key in f['timings']:
            g = f['timings'][key]
            t, r, s = g['times'][()], g['ranks'][()], g['starts'][()]
            present = [q for q in range(W) if np.any(r == q)]
            occ = {q: np.argsort(s[r == q], kind='stable') for q in present}
            st = {q: s[r == q][occ[q]] for q in present}
            en = {q: (s[r == q] + t[r == q])[occ[q]] for q in present}
            n = min(len(st[q]) for q in present)
            start_spread = np.median([max(st[q][k] for q in present) - min(st[q][k] for q in present) for k in range(n)])
            end_spread = np.median([max(en[q][k] for q in present) - min(en[q][k] for q in present) for k in range(n)])
            if len(present) >= 2 and start_spread > 0 and end_spread <= 0.5 * start_spread:
                sync.append(g.attrs['name'])
                for k in range(n):
                    latest = max(st[q][k] for q in present)
                    who = min(q for q in present if st[q][k] == latest)
                    wait[who] += sum(latest - st[q][k] for q in present)
                    late[who] += 1
    return sync, wait, late


def run(*args):
    p = subprocess.run([TPROF, 'stragglers', *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


sync, wait, late = reference()
assert sync == ['allreduce'], sync
status, out, err = run(path, '--format', 'json')
assert status == 0 and err == '', (status, err)
doc = json.loads(out)
assert doc['file'] == path and doc['world_size'] == W
assert doc['synchronising'] == sync, doc['synchronising']
ranks = doc['ranks']
assert [x['rank'] for x in ranks][0] == 1, ranks  # the slow rank, named from arrival
# named because it came last far more often than 1 in W (scipy's binomial tail)
from scipy.stats import binom
n_occ = int(late.sum())
assert doc['occurrences'] == n_occ, (doc['occurrences'], n_occ)
p_value = min(1.0, W * binom.sf(late[1] - 1, n_occ, 1.0 / W))
assert doc['straggler'] == (1 if p_value < 0.001 else None), (doc['straggler'], p_value)
assert abs(doc['p_value'] - p_value) <= 1e-8 * p_value, (doc['p_value'], p_value)
assert [x['wait_caused'] for x in ranks] == sorted((x['wait_caused'] for x in ranks), reverse=True)
for x in ranks:
    r = x['rank']
    assert x['hostname'] == 'ab'[r // 2], x
    assert x['late_count'] == late[r], (x, late[r])
    assert abs(x['wait_caused'] - wait[r]) <= 1e-9 * max(wait[r], 1e-12), (x, wait[r])
# durations alone would blame another rank: rank 1 waits least in the allreduce
with h5py.File(path, 'r') as f:
    g = f['timings']['allreduce']
    totals = [g['times'][()][g['ranks'][()] == r].sum() for r in range(W)]
assert int(np.argmin(totals)) == 1, totals

status, out, _ = run(path)
assert status == 0 and 'Straggler: rank 1,' in out and 'Synchronising operations: allreduce' in out, out
status, out, _ = run(path, '--format', 'csv', '--by', 'rank')
assert out.splitlines()[0] == 'rank,hostname,late_count,wait_caused,verdict', out
assert out.splitlines()[1].startswith('1,a,') and out.splitlines()[1].endswith(',rank'), out

# refusals
old = os.path.join(DIR, 'no-starts.h5')
with h5py.File(old, 'w') as f:
    f.attrs['format'] = 'tprof-profile'
    f.attrs['format_version'] = 1
    f.attrs['world_size'] = 1
    g = f.create_group('timings').create_group('x')
    g['times'], g['ranks'] = np.ones(2), np.zeros(2, dtype=np.int32)
status, _, err = run(old)
assert status == 1 and 'has no timeline' in err and err.count('\n') == 1, err
assert "tprof's gather" in err and 'older' not in err, err  # what it lacks, how to get it, no guess
assert run(path, '--format', 'xml')[0] == 2
assert run()[0] == 2
print('OK')
