# check-compare.py — `tprof compare` against scipy and numpy on runs written with h5py: JSON field by field, CSV, per-rank view, exit statuses.
# Usage: check-compare.py TPROF DIR   (prints OK)
# SPDX-License-Identifier: MIT
import json
import os
import subprocess
import sys

import h5py
import numpy as np
from scipy.stats import mannwhitneyu

TPROF, DIR = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(20261203)


def write(path, ops, world_size):
    """ops: name -> (scale per rank list) ; 300 log-normal samples per rank."""
    data = {}
    with h5py.File(path, 'w') as f:
        f.attrs['format'] = 'tprof-profile'
        f.attrs['format_version'] = 1
        f.attrs['world_size'] = world_size
        timings = f.create_group('timings', track_order=True)
        for name, scales in ops.items():
            times = np.concatenate([rng.lognormal(np.log(1e-3 * s), 0.25, 300) for s in scales])
            ranks = np.repeat(np.arange(len(scales)), 300).astype(np.int32)
            group = timings.create_group(name.replace('%', '%25').replace('/', '%2F'))
            group.attrs['name'] = name
            group['times'] = times
            group['ranks'] = ranks
            data[name] = (times, ranks)
    return data


def run(*args):
    p = subprocess.run([TPROF, 'compare', *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def holm(ps):
    order = np.argsort(ps, kind='stable')
    m = len(ps)
    adjusted = np.empty(m)
    running = 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (m - k) * ps[i]))
        adjusted[i] = running
    return adjusted


def close(a, b, rtol):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= rtol * abs(b)


base_path, new_path = os.path.join(DIR, 'base.h5'), os.path.join(DIR, 'new.h5')
# one run a side: a change must pass what its blocks and ranks let a whole run
# shift (docs/compare.md), so every rank of backward and allreduce changes; in
# optimizer rank 2 alone, which the rank-by-rank view finds
base = write(base_path, {'forward': [1, 1, 1, 1], 'backward': [1, 1, 1, 1], 'allreduce': [1, 1, 1, 1],
                         'optimizer': [1, 1, 1, 1], 'io/old': [1, 1, 1, 1]}, 4)
new = write(new_path, {'forward': [1, 1, 1, 1], 'backward': [1.5, 1.5, 1.5, 1.5], 'allreduce': [0.6, 0.6, 0.6, 0.6],
                       'optimizer': [1, 1, 2, 1], 'io/new': [1, 1, 1, 1]}, 4)

# --- operations, JSON against scipy and numpy
status, out, err = run(base_path, new_path, '--format', 'json')
assert status == 0 and err == '', (status, err)
doc = json.loads(out)
assert doc['base'] == base_path and doc['new'] == new_path
names = [o['name'] for o in doc['operations']]
assert sorted(names) == sorted(['forward', 'backward', 'allreduce', 'optimizer', 'io/old', 'io/new']), names
both = [n for n in names if n in base and n in new]
ps = {n: mannwhitneyu(base[n][0], new[n][0], alternative='two-sided', method='asymptotic').pvalue for n in both}
adjusted = dict(zip(both, holm(np.array([ps[n] for n in both]))))
changes = []
for o in doc['operations']:
    n = o['name']
    b = base.get(n, (np.array([]), None))[0]
    w = new.get(n, (np.array([]), None))[0]
    changes.append(abs(w.sum() - b.sum()))
    assert o['base_count'] == b.size and o['new_count'] == w.size, o
    if n not in both:
        assert o['verdict'] == ('only-base' if n in base else 'only-new'), o
        assert o['p_value'] is None and o['ratio'] is None
        continue
    assert close(o['base_median'], float(np.median(b)), 1e-15), o
    assert close(o['new_median'], float(np.median(w)), 1e-15), o
    assert close(o['ratio'], float(np.median(w) / np.median(b)), 1e-12), o
    assert close(o['p_value'], float(ps[n]), 1e-9), (o, ps[n])
    assert close(o['p_adjusted'], float(adjusted[n]), 1e-9), (o, adjusted[n])
    assert o['ci_low'] < o['ratio'] < o['ci_high'], o
verdicts = {o['name']: o['verdict'] for o in doc['operations']}
assert verdicts['forward'] == 'same', verdicts
assert verdicts['backward'] == 'slower', verdicts
assert verdicts['allreduce'] == 'faster', verdicts
# sorted by how much the total time changed
assert changes == sorted(changes, reverse=True), changes

# --- CSV holds the same numbers
status, out, _ = run(base_path, new_path, '--format', 'csv')
lines = out.splitlines()
assert lines[0] == ('name,base_count,new_count,base_median,new_median,ratio,ci_low,ci_high,p_value,p_adjusted,'
                    'verdict,p_verdict,verdict_test')
assert len(lines) == 1 + 6
for line, o in zip(lines[1:], doc['operations']):
    fields = line.split(',')
    assert fields[0] == o['name'] and fields[-3] == o['verdict'], (line, o)

# --- a gate for CI: exit 3 when something got slower
assert run(base_path, new_path, '--fail-on-slower')[0] == 3
assert run(base_path, base_path, '--fail-on-slower')[0] == 0
# a change below --min-change is no change; a stricter alpha keeps 'slower' here
status, out, _ = run(base_path, new_path, '--format', 'json', '--min-change', '60')
assert {o['name']: o['verdict'] for o in json.loads(out)['operations']}['backward'] == 'same'

# --- rank by rank: rank 2 got slower, the others did not
status, out, err = run(base_path, new_path, '--op', 'optimizer', '--format', 'json')
assert status == 0, err
ranks = json.loads(out)['ranks']
assert [r['rank'] for r in ranks] == [0, 1, 2, 3]
verdict_of = {r['rank']: r['verdict'] for r in ranks}
assert verdict_of[2] == 'slower' and verdict_of[0] == verdict_of[1] == verdict_of[3] == 'same', verdict_of
b, w = base['optimizer'], new['optimizer']
p_ranks = [mannwhitneyu(b[0][b[1] == r], w[0][w[1] == r], alternative='two-sided', method='asymptotic').pvalue
           for r in range(4)]
for r, adj in zip(ranks, holm(np.array(p_ranks))):
    assert close(r['p_adjusted'], float(adj), 1e-9), (r, adj)

# --- --ranks restricts both runs
status, out, _ = run(base_path, new_path, '--ranks', '0-1', '--format', 'json')
for o in json.loads(out)['operations']:
    assert o['base_count'] in (0, 600) and o['new_count'] in (0, 600), o
    if o['name'] == 'optimizer':
        assert o['verdict'] == 'same', o

# --- runs of different sizes: no per-rank view, and the table says so
other_path = os.path.join(DIR, 'eight.h5')
write(other_path, {'forward': [1] * 8}, 8)
status, out, _ = run(base_path, other_path)
assert status == 0 and 'ranks are not compared one by one' in out, out
status, _, err = run(base_path, other_path, '--op', 'forward')
assert status == 1 and err.startswith('tprof: ' + other_path + ': has 8 ranks'), err

# --- bad input
for args in (['--alpha', '0'], ['--alpha', 'x'], ['--min-change', '-1'], ['--format', 'xml'],
             ['--op', 'forward', '--ranks', '0']):
    status, _, err = run(base_path, new_path, *args)
    assert status == 2 and err.count('\n') == 1, (args, status, err)
assert run(base_path)[0] == 2
assert run(base_path, new_path, 'extra')[0] == 2
status, _, err = run(base_path, os.path.join(DIR, 'missing.h5'))
assert status == 1 and 'missing.h5' in err, err
status, _, err = run(base_path, new_path, '--op', 'nothing')
assert status == 1 and 'no operation named "nothing"' in err, err
print('OK')
