# check-trace.py — `tprof trace` on a profile with a timeline written by h5py: every event against the arrays, filters, gzip, refusals.
# Usage: check-trace.py TPROF DIR   (prints OK)
# SPDX-License-Identifier: MIT
import gzip
import json
import os
import subprocess
import sys

import h5py
import numpy as np

TPROF, DIR = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(7)
path = os.path.join(DIR, 'timeline.h5')
ops = {}
with h5py.File(path, 'w') as f:
    f.attrs['format'] = 'tprof-profile'
    f.attrs['format_version'] = 2
    f.attrs['world_size'] = 3
    timings = f.create_group('timings', track_order=True)
    for name in ('step', 'io/load'):
        ranks = np.repeat(np.arange(3), 4).astype(np.int32)
        times = rng.uniform(1e-3, 2e-3, ranks.size)
        starts = np.tile(np.arange(4) * 0.01, 3) + ranks * 1e-4
        threads = (np.arange(ranks.size) % 2).astype(np.int32)
        g = timings.create_group(name.replace('/', '%2F'))
        g.attrs['name'] = name
        g['times'], g['ranks'], g['starts'], g['threads'] = times, ranks, starts, threads
        ops[name] = (times, ranks, starts, threads)
    f.create_group('ranks')['hostname'] = ['node-a', 'node-a', 'node-b']


def trace(*args, out='t.json'):
    out = os.path.join(DIR, out)
    p = subprocess.run([TPROF, 'trace', path, '-o', out, *args], capture_output=True, text=True)
    assert p.returncode == 0 and p.stderr == '', (args, p.returncode, p.stderr)
    opener = gzip.open if out.endswith('.gz') else open
    with opener(out, 'rt') as f:
        doc = json.load(f)
    assert doc['displayTimeUnit'] == 'ns'
    return doc['traceEvents']


def expected(ranks=(0, 1, 2), names=('step', 'io/load'), lo=-np.inf, hi=np.inf):
    events = []
    for name in names:
        times, r, starts, threads = ops[name]
        for i in range(times.size):
            if r[i] in ranks and starts[i] + times[i] >= lo and starts[i] <= hi:
                events.append((name, round(starts[i] * 1e6, 3), round(times[i] * 1e6, 3), int(r[i]), int(threads[i])))
    return sorted(events)


def complete(events):
    return sorted((e['name'], e['ts'], e['dur'], e['pid'], e['tid']) for e in events if e['ph'] == 'X')


events = trace()
meta = [e for e in events if e['ph'] == 'M']
assert [(e['pid'], e['args']['name']) for e in meta] == [(0, 'Rank 0 (node-a)'), (1, 'Rank 1 (node-a)'),
                                                          (2, 'Rank 2 (node-b)')], meta
assert all(e['name'] == 'process_name' for e in meta)
assert complete(events) == expected(), (complete(events)[:3], expected()[:3])
assert complete(trace(out='t.json.gz')) == expected()
assert complete(trace('--ranks', '0,2')) == expected(ranks=(0, 2))
assert complete(trace('--op', 'io/load')) == expected(names=('io/load',))
assert complete(trace('--op', 'io/load', '--op', 'step')) == expected()
assert complete(trace('--from', '0.015', '--to', '0.025')) == expected(lo=0.015, hi=0.025)

# refusals: no timeline (exit 1), bad arguments (exit 2)
old = os.path.join(DIR, 'no-timeline.h5')
with h5py.File(old, 'w') as f:
    f.attrs['format'] = 'tprof-profile'
    f.attrs['format_version'] = 1
    f.attrs['world_size'] = 1
    g = f.create_group('timings').create_group('x')
    g['times'], g['ranks'] = np.ones(2), np.zeros(2, dtype=np.int32)
p = subprocess.run([TPROF, 'trace', old, '-o', os.path.join(DIR, 'x.json')], capture_output=True, text=True)
assert p.returncode == 1 and 'has no timeline' in p.stderr and p.stderr.count('\n') == 1, p.stderr
assert not os.path.exists(os.path.join(DIR, 'x.json'))
for args in (['-o', 'x.txt'], [], ['-o', 'x.json', '--from', 'soon'], ['-o', 'x.json', '--ranks', '5']):
    p = subprocess.run([TPROF, 'trace', path, *args], capture_output=True, text=True, cwd=DIR)
    assert p.returncode == 2 and p.stderr.count('\n') == 1, (args, p.returncode, p.stderr)
p = subprocess.run([TPROF, 'trace', path, '-o', 'x.json', '--op', 'nothing'], capture_output=True, text=True, cwd=DIR)
assert p.returncode == 1 and 'no operation named "nothing"' in p.stderr, p.stderr
print('OK')
