# check-plot.py — `tprof plot --kind heatmap` against numpy on a profile written by h5py: the CSV cells, the pictures' formats, the refusals.
# Usage: check-plot.py TPROF DIR   (prints OK)
# SPDX-License-Identifier: MIT
import csv
import os
import subprocess
import sys

import h5py
import numpy as np

TPROF, DIR = sys.argv[1], sys.argv[2]
W, K = 4, 30
rng = np.random.default_rng(11)
path = os.path.join(DIR, 'heatmap.h5')
# rank 2 stalls at occurrence 7; rank 3 has 5 occurrences fewer; file
# order is shuffled within each rank (occurrences go by start)
ranks, starts, times = [], [], []
for r in range(W):
    n = K - 5 if r == 3 else K
    order = rng.permutation(n)
    for k in order:
        ranks.append(r)
        starts.append(k * 0.01 + rng.uniform(0, 1e-4))
        times.append(rng.uniform(1e-3, 2e-3) + (0.05 if (r, k) == (2, 7) else 0))
ranks, starts, times = np.array(ranks, np.int32), np.array(starts), np.array(times)
with h5py.File(path, 'w') as f:
    f.attrs['format'] = 'tprof-profile'
    f.attrs['format_version'] = 2
    f.attrs['world_size'] = W
    g = f.create_group('timings').create_group('step')
    g.attrs['name'] = 'step'
    g['times'], g['ranks'], g['starts'] = times, ranks, starts
    g['threads'] = np.zeros(len(times), np.int32)


def expected(value, n_cols):
    by_rank = {r: times[ranks == r][np.argsort(starts[ranks == r], kind='stable')] for r in range(W)}
    n = max(len(t) for t in by_rank.values())
    med = np.array([np.median([t[k] for t in by_rank.values() if k < len(t)]) for k in range(n)])
    n_cols = min(n_cols, n)
    out = {}
    for r, t in by_rank.items():
        for j in range(n_cols):
            lo, hi = j * n // n_cols, (j + 1) * n // n_cols
            vals = [t[k] - (med[k] if value == 'deviation' else 0) for k in range(lo, min(hi, len(t)))]
            if vals:
                out[(r, lo, hi - 1)] = max(vals)
    return out


def tprof(*args):
    p = subprocess.run([TPROF, 'plot', path, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


for value, width in (('duration', 1000), ('deviation', 1000), ('duration', 7)):
    out = os.path.join(DIR, 'hm-%s-%d.csv' % (value, width))
    status, _, err = tprof('--op', 'step', '--kind', 'heatmap', '--value', value, '--width', str(width), '-o', out)
    assert status == 0, err
    with open(out) as f:
        rows = list(csv.reader(f))
    assert rows[0] == ['rank', 'first', 'last', value], rows[0]
    got = {(int(r), int(a), int(b)): float(v) for r, a, b, v in rows[1:]}
    want = expected(value, width)
    assert got.keys() == want.keys(), (sorted(got)[:5], sorted(want)[:5])
    for key, v in want.items():
        assert abs(got[key] - v) <= 1e-12 * max(abs(v), 1e-12), (key, got[key], v)
# the stall stands out: rank 2's occurrence 7 is the largest cell
out = os.path.join(DIR, 'hm-duration-1000.csv')
with open(out) as f:
    rows = list(csv.reader(f))[1:]
top = max(rows, key=lambda r: float(r[3]))
assert (top[0], top[1]) == ('2', '7'), top

# the trend: each column's band across ranks and a line per rank (4 ranks: all)
out = os.path.join(DIR, 'trend.csv')
status, _, err = tprof('--op', 'step', '--kind', 'trend', '-o', out)
assert status == 0, err
with open(out) as f:
    rows = list(csv.reader(f))
assert rows[0] == ['first', 'last', 'ranks', 'min', 'p5', 'median', 'p95', 'max', 'rolling_median',
                   'rank_0', 'rank_1', 'rank_2', 'rank_3'], rows[0]
cells = expected('duration', 1000)
# the rolling median of the column medians, over 5 % of the columns
medians = np.array([float(row[5]) if row[5] else np.nan for row in rows[1:]])
half = int(len(medians) * 0.05 / 2)
for j, row in enumerate(rows[1:]):
    window = medians[max(0, j - half):j + half + 1]
    window = window[np.isfinite(window)]
    assert np.isclose(float(row[8]), np.median(window), rtol=1e-12, atol=0), (j, row[8])
for row in rows[1:]:
    k = int(row[0])
    assert int(row[1]) == k
    col = [cells[(r, k, k)] for r in range(W) if (r, k, k) in cells]
    want = [len(col)] + list(np.quantile(col, [0, 0.05, 0.5, 0.95, 1]))
    got = [int(row[2])] + [float(x) for x in row[3:8]]
    assert got[0] == want[0] and np.allclose(got[1:], want[1:], rtol=1e-12, atol=0), (k, got, want)
    for r in range(W):
        v = row[9 + r]
        assert (v == '') == ((r, k, k) not in cells), (k, r, v)
        if v:
            assert abs(float(v) - cells[(r, k, k)]) <= 1e-12 * cells[(r, k, k)]

# against the timeline: each column's start, the earliest over the ranks
# of its first occurrence
out = os.path.join(DIR, 'trend-time.csv')
status, _, err = tprof('--op', 'step', '--kind', 'trend', '--time-axis', '-o', out)
assert status == 0, err
with open(out) as f:
    rows = list(csv.reader(f))
assert rows[0][:4] == ['first', 'last', 'start', 'ranks'], rows[0]
sorted_starts = {r: np.sort(starts[ranks == r]) for r in range(W)}
for row in rows[1:]:
    k = int(row[0])
    want = min(s[k] for s in sorted_starts.values() if k < len(s))
    assert float(row[2]) == want, (k, row[2], want)

for suffix, magic in (('png', b'\x89PNG'), ('svg', b'<?xml'), ('pdf', b'%PDF')):
    out = os.path.join(DIR, 'hm.' + suffix)
    status, _, err = tprof('--op', 'step', '--kind', 'heatmap', '--ranks', '1-', '--log', '-o', out)
    assert status == 0, err
    with open(out, 'rb') as f:
        assert f.read(len(magic)) == magic, suffix
    status, _, err = tprof('--op', 'step', '--kind', 'trend', '-o', out)
    assert status == 0, err
    with open(out, 'rb') as f:
        assert f.read(len(magic)) == magic, suffix
    status, _, err = tprof('--op', 'step', '--kind', 'trend', '--time-axis', '-o', out)
    assert status == 0, err
    with open(out, 'rb') as f:
        assert f.read(len(magic)) == magic, suffix

# the breakdown: on each rank, the time of the operations inside step and
# step's own rest
tree = os.path.join(DIR, 'tree.h5')
data = {name: {'times': [], 'ranks': [], 'starts': []} for name in ('step', 'fwd', 'bwd')}
for r in range(3):
    for k in range(10):
        t0 = k * 0.04
        f, b = rng.uniform(2e-3, 4e-3) * (1 + r), rng.uniform(4e-3, 6e-3)
        for name, start, dur in (('step', t0, 0.03), ('fwd', t0 + 1e-3, f), ('bwd', t0 + 1e-3 + f, b)):
            data[name]['times'].append(dur)
            data[name]['ranks'].append(r)
            data[name]['starts'].append(start)
with h5py.File(tree, 'w') as f:
    f.attrs['format'] = 'tprof-profile'
    f.attrs['format_version'] = 2
    f.attrs['world_size'] = 3
    timings = f.create_group('timings', track_order=True)
    for name, d in data.items():
        g = timings.create_group(name)
        g.attrs['name'] = name
        g['times'], g['ranks'] = np.array(d['times']), np.array(d['ranks'], np.int32)
        g['starts'], g['threads'] = np.array(d['starts']), np.zeros(len(d['times']), np.int32)
out = os.path.join(DIR, 'breakdown.csv')
p = subprocess.run([TPROF, 'plot', tree, '--op', 'step', '--kind', 'breakdown', '-o', out], capture_output=True, text=True)
assert p.returncode == 0, p.stderr
with open(out) as f:
    rows = list(csv.reader(f))
assert rows[0] == ['rank', 'fwd', 'bwd', 'step (self)'], rows[0]
for row in rows[1:]:
    r = int(row[0])
    sums = {name: np.array(d['times'])[np.array(d['ranks']) == r].sum() for name, d in data.items()}
    want = [sums['fwd'], sums['bwd'], sums['step'] - sums['fwd'] - sums['bwd']]
    assert np.allclose([float(x) for x in row[1:]], want, rtol=1e-9, atol=1e-12), (row, want)
p = subprocess.run([TPROF, 'plot', tree, '--op', 'fwd', '--kind', 'breakdown', '-o', os.path.join(DIR, 'none.png')],
                   capture_output=True, text=True)
assert p.returncode == 1 and 'nothing to break down' in p.stderr, p.stderr
p = subprocess.run([TPROF, 'plot', tree, '--op', 'step', '--kind', 'breakdown', '-o', os.path.join(DIR, 'bd.svg')],
                   capture_output=True, text=True)
assert p.returncode == 0, p.stderr

# refusals: usage errors exit 2, a missing operation 1, nothing written
for args, code, words in (                          (('--op', 'step', '--kind', 'pie', '-o', 'x.png'), 2, 'unknown --kind'),
                          (('--op', 'step', '--kind', 'heatmap', '--value', 'mean', '-o', 'x.png'), 2, '--value'),
                          (('--op', 'step', '--kind', 'heatmap', '-o', 'x.bmp'), 2, 'format'),
                          (('--kind', 'heatmap', '-o', 'x.png'), 2, '--op'),
                          (('--op', 'nope', '--kind', 'heatmap', '-o', os.path.join(DIR, 'x.png')), 1, 'nope')):
    status, _, err = tprof(*args)
    assert status == code and words in err, (args, status, err)
assert not os.path.exists(os.path.join(DIR, 'x.png'))
print('OK')
