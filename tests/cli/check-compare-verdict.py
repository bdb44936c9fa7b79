# check-compare-verdict.py — `tprof compare`'s verdict test against numpy and scipy: blocks of occurrences, runs, a calibration; several runs a side, JUnit as XML, bad input.
# Usage: check-compare-verdict.py TPROF   (prints OK)
# SPDX-License-Identifier: MIT
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import h5py
import numpy as np
from scipy import stats

TPROF = sys.argv[1]
DIR = tempfile.mkdtemp(prefix='tprof-compare-verdict-')
rng = np.random.default_rng(20261205)
written = []


def write(name, ops, world_size=4):
    """ops: operation -> list of per-rank arrays of times, each in occurrence order."""
    path = os.path.join(DIR, name)
    with h5py.File(path, 'w') as f:
        f.attrs['format'] = 'tprof-profile'
        f.attrs['format_version'] = 1
        f.attrs['world_size'] = world_size
        timings = f.create_group('timings', track_order=True)
        for op, per_rank in ops.items():
            group = timings.create_group(op.replace('%', '%25').replace('/', '%2F'))
            group.attrs['name'] = op
            group['times'] = np.concatenate(per_rank) if per_rank else np.zeros(0)
            group['ranks'] = np.concatenate([np.full(len(t), r, np.int32) for r, t in enumerate(per_rank)]) \
                if per_rank else np.zeros(0, np.int32)
    written.append(path)
    return path


def run(*args):
    p = subprocess.run([TPROF, 'compare', *args], capture_output=True, text=True,
                       env=dict(os.environ, LANGUAGE='', LC_ALL='C.UTF-8'))
    return p.returncode, p.stdout, p.stderr


def run_json(*args):
    status, out, err = run(*args, '--format', 'json')
    assert status == 0 and err == '', (args, status, err)
    return {o['name']: o for o in json.loads(out)['operations']}


def holm(ps):
    ps = np.asarray(ps, dtype=float)
    adjusted = np.empty(len(ps))
    running = 0.0
    for k, i in enumerate(np.argsort(ps, kind='stable')):
        running = max(running, min(1.0, (len(ps) - k) * ps[i]))
        adjusted[i] = running
    return adjusted


def close(a, b, rtol):
    return abs(a - b) <= rtol * abs(b) + 1e-300


def block_logs(per_rank, n_blocks):
    """Log median of each block: occurrence k of a rank of c goes to block k * n_blocks // c."""
    blocks = [[] for _ in range(n_blocks)]
    for times in per_rank:
        for k, t in enumerate(times):
            blocks[k * n_blocks // len(times)].append(t)
    return np.log([np.median(b) for b in blocks])


def n_blocks_of(base, new):
    return min(10, min(max(len(t) for t in base), max(len(t) for t in new)) // 5)


def welch_blocks_p(base, new):
    """The blocks' test before a run was the unit: Welch on the block logs, blind to whole-run shifts."""
    n_blocks = n_blocks_of(base, new)
    return stats.ttest_ind(block_logs(base, n_blocks), block_logs(new, n_blocks), equal_var=False).pvalue


def blocks_p(base, new, factor=2.0):
    return blocks_test(base, new, factor)[0]


def blocks_test(base, new, factor=2.0):
    """One run a side: the whole runs' log difference over sqrt(2 k^2 v + 2 s^2 / B), v the larger of
    the blocks' pooled variance s^2 (2 (B - 1) df) and the ranks' (each rank's median; ranks - 1 df a run);
    the p-value and the 95 % interval of the ratio from the same t."""
    n_blocks = n_blocks_of(base, new)
    a, b = block_logs(base, n_blocks), block_logs(new, n_blocks)
    blocks = (np.var(a, ddof=1) + np.var(b, ddof=1)) / 2
    prior, df = blocks, 2 * (n_blocks - 1)
    ranks = [np.log([np.median(t) for t in side if len(t)]) for side in (base, new)]
    rank_df = sum(len(r) - 1 for r in ranks)
    if rank_df >= 1:
        rank_var = sum(np.sum((r - r.mean()) ** 2) for r in ranks) / rank_df
        if rank_var > blocks:
            prior, df = rank_var, rank_df
    error = np.sqrt(2 * factor ** 2 * prior + 2 * blocks / n_blocks)
    d, half = b.mean() - a.mean(), stats.t.isf(0.025, df) * error
    return 2 * stats.t.sf(abs(d) / error, df), np.exp(d - half), np.exp(d + half)


def run_logs(runs):
    return np.log([np.median(np.concatenate(r)) for r in runs])


def ar1(n, phi, sigma, scale):
    """An AR(1) process on the log scale, started in its stationary law."""
    x = np.empty(n)
    x[0] = rng.normal(0, sigma / np.sqrt(1 - phi * phi))
    for i in range(1, n):
        x[i] = phi * x[i - 1] + rng.normal(0, sigma)
    return scale * np.exp(x)


def iid(n, scale, sigma=0.1):
    return rng.lognormal(np.log(scale), sigma, n)


# --- 1. one run a side, AR(1) samples of identical code: the per-sample test calls
# the noise significant in most pairs; the blocks' verdict says "same"
per_sample_significant = not_same = 0
for pair in range(20):
    sides = [{'step': [ar1(400, 0.95, 0.05, 1e-3) for _ in range(4)]} for _ in range(2)]
    a = write('ar-a%d.h5' % pair, sides[0])
    b = write('ar-b%d.h5' % pair, sides[1])
    o = run_json(a, b)['step']
    expected_p = mann = stats.mannwhitneyu(np.concatenate(sides[0]['step']), np.concatenate(sides[1]['step']),
                                           alternative='two-sided', method='asymptotic').pvalue
    assert close(o['p_value'], expected_p, 1e-9), (o, expected_p)
    expected = blocks_p(sides[0]['step'], sides[1]['step'])
    assert o['verdict_test'] == 'blocks' and close(o['p_verdict'], expected, 1e-9), (o, expected)
    per_sample_significant += mann < 0.05
    not_same += o['verdict'] != 'same'
assert per_sample_significant >= 10, per_sample_significant
assert not_same <= 2, not_same

# --- 1b. one run a side, i.i.d. samples plus an offset of the whole run (3 %) and of each rank (2 %):
# the blocks alone (Welch) call most pairs different; the run as the unit says "same", and a
# change of 60 % still "slower"; the ranks' spread takes over when it is the larger
welch_significant = not_same = 0
for pair in range(20):
    sides = []
    for side in range(2):
        run_offset = rng.normal(0, 0.03)
        sides.append({'step': [iid(200, 1e-3 * np.exp(run_offset + rng.normal(0, 0.02)), 0.05) for _ in range(4)]})
    a = write('offset-a%d.h5' % pair, sides[0])
    b = write('offset-b%d.h5' % pair, sides[1])
    o = run_json(a, b)['step']
    expected, low, high = blocks_test(sides[0]['step'], sides[1]['step'])
    assert o['verdict_test'] == 'blocks' and close(o['p_verdict'], expected, 1e-9), (o, expected)
    assert close(o['ci_low'], low, 1e-9) and close(o['ci_high'], high, 1e-9), (o, low, high)
    welch_significant += welch_blocks_p(sides[0]['step'], sides[1]['step']) < 0.05
    not_same += o['verdict'] != 'same'
assert welch_significant >= 10, welch_significant
assert not_same <= 1, not_same
slow = {'step': [t * 1.6 for t in sides[1]['step']]}
o = run_json(a, write('offset-slow.h5', slow))['step']
expected = blocks_p(sides[0]['step'], slow['step'])
assert o['verdict'] == 'slower' and close(o['p_verdict'], expected, 1e-9), (o, expected)
# ranks 25 % apart, steady blocks: the ranks' variance and degrees of freedom (3 + 3)
spread = {'step': [iid(200, 1e-3 * f, 0.01) for f in (1.0, 1.25, 0.8, 1.1)]}
shifted = {'step': [iid(200, 1.3e-3 * f, 0.01) for f in (1.0, 1.25, 0.8, 1.1)]}
o = run_json(write('ranks-a.h5', spread), write('ranks-b.h5', shifted))['step']
expected = blocks_p(spread['step'], shifted['step'])
assert close(o['p_verdict'], expected, 1e-9) and o['verdict'] == 'same', (o, expected)
assert welch_blocks_p(spread['step'], shifted['step']) < 1e-6

# --- 2. several runs a side, i.i.d. samples plus a per-run offset of 3 %
def offset_run(shift=1.0, ops=('forward', 'backward', 'optimizer')):
    return {op: [iid(300, 1e-3 * (i + 1) * shift * np.exp(offset)) for _ in range(4)]
            for i, (op, offset) in enumerate(zip(ops, rng.normal(0, 0.03, len(ops))))}


base_runs = [offset_run() for _ in range(3)]
same_runs = [offset_run() for _ in range(3)]
slow_runs = [offset_run(1.15) for _ in range(3)]
base_paths = [write('base%d.h5' % i, r) for i, r in enumerate(base_runs)]
same_paths = [write('same%d.h5' % i, r) for i, r in enumerate(same_runs)]
slow_paths = [write('slow%d.h5' % i, r) for i, r in enumerate(slow_runs)]


def sides_args(base, new):
    return [x for p in base for x in ('--base', p)] + [x for p in new for x in ('--new', p)]


for new_runs, new_paths, expected_verdict in ((same_runs, same_paths, 'same'), (slow_runs, slow_paths, 'slower')):
    doc = run_json(*sides_args(base_paths, new_paths))
    names = ['forward', 'backward', 'optimizer']
    ps = [stats.ttest_ind(run_logs([r[n] for r in base_runs]), run_logs([r[n] for r in new_runs])).pvalue
          for n in names]
    per_sample = [stats.mannwhitneyu(np.concatenate([t for r in base_runs for t in r[n]]),
                                     np.concatenate([t for r in new_runs for t in r[n]]),
                                     alternative='two-sided', method='asymptotic').pvalue for n in names]
    for n, p, adjusted, p_sample, adjusted_sample in zip(names, ps, holm(ps), per_sample, holm(per_sample)):
        o = doc[n]
        assert o['verdict_test'] == 'runs', o
        # the interval of Student's test: the difference of the mean logs -+ t(0.975, df) times its error
        la, lb = run_logs([r[n] for r in base_runs]), run_logs([r[n] for r in new_runs])
        pooled = np.sqrt((np.var(la, ddof=1) * 2 + np.var(lb, ddof=1) * 2) / 4 * (1 / 3 + 1 / 3))
        half = stats.t.isf(0.025, 4) * pooled
        d = lb.mean() - la.mean()
        assert close(o['ci_low'], np.exp(d - half), 1e-9) and close(o['ci_high'], np.exp(d + half), 1e-9), o
        assert close(o['p_verdict'], adjusted, 1e-9), (o, adjusted, p)
        assert close(o['p_value'], p_sample, 1e-9) and close(o['p_adjusted'], adjusted_sample, 1e-9), o
        assert o['base_count'] == 3 * 1200 and o['new_count'] == 3 * 1200, o
        base_all = np.concatenate([t for r in base_runs for t in r[n]])
        new_all = np.concatenate([t for r in new_runs for t in r[n]])
        assert close(o['ratio'], np.median(new_all) / np.median(base_all), 1e-12), o
        assert o['verdict'] == expected_verdict, (n, o)
    if expected_verdict == 'same':
        # the per-run offsets make 1200 samples a side "significant" sample by sample
        assert min(holm(per_sample)) < 0.05, per_sample

# rank by rank, several runs a side: each rank's runs' medians
status, out, err = run('--op', 'backward', *sides_args(base_paths, slow_paths), '--format', 'json')
assert status == 0, err
by_rank = json.loads(out)['ranks']
ps = [stats.ttest_ind(np.log([np.median(r['backward'][k]) for r in base_runs]),
                      np.log([np.median(r['backward'][k]) for r in slow_runs])).pvalue for k in range(4)]
for row, adjusted in zip(by_rank, holm(ps)):
    assert row['verdict_test'] == 'runs' and close(row['p_verdict'], adjusted, 1e-9), (row, adjusted)
    assert row['verdict'] == ('slower' if adjusted < 0.05 else 'same'), row

# two base runs against one new one: the variance of the base runs alone (df 1)
doc = run_json('--base', base_paths[0], '--base', base_paths[1], '--new', slow_paths[0])
ps = []
for n in ('forward', 'backward', 'optimizer'):
    logs_a = run_logs([base_runs[0][n], base_runs[1][n]])
    log_b = run_logs([slow_runs[0][n]])[0]
    sd = np.std(logs_a, ddof=1)
    ps.append(2 * stats.t.sf(abs(log_b - logs_a.mean()) / (sd * np.sqrt(1 / 2 + 1)), 1))
for n, adjusted in zip(('forward', 'backward', 'optimizer'), holm(ps)):
    assert doc[n]['verdict_test'] == 'runs' and close(doc[n]['p_verdict'], adjusted, 1e-9), (doc[n], adjusted)

# --- 3. a calibration: the spread of identical runs per operation
calibration_runs = [offset_run() for _ in range(6)]
calibration_paths = [write('cal%d.h5' % i, r) for i, r in enumerate(calibration_runs)]
status, out, err = run('--calibrate', *calibration_paths, '--format', 'csv')
assert status == 0 and err == '', err
noise_path = os.path.join(DIR, 'noise.csv')
with open(noise_path, 'w') as f:
    f.write(out)
rows = list(csv.DictReader(io.StringIO(out)))
assert [r['name'] for r in rows] == ['forward', 'backward', 'optimizer'], rows
spread = {}
for r in rows:
    logs = run_logs([c[r['name']] for c in calibration_runs])
    sd = np.std(logs, ddof=1)
    floor = np.expm1(stats.t.isf(0.025, len(logs) - 1) * np.sqrt(2) * sd)
    assert int(r['runs']) == 6 and close(float(r['log_sd']), sd, 1e-12), (r, sd)
    assert close(float(r['noise_floor']), floor, 1e-8), (r, floor)
    spread[r['name']] = sd
status, out, err = run('--calibrate', *calibration_paths, '--format', 'json')
assert status == 0 and [o['name'] for o in json.loads(out)['operations']] == ['forward', 'backward', 'optimizer']

# one run a side with the calibration: a t test on the two runs' medians with the calibrated spread
doc = run_json('--noise', noise_path, base_paths[0], slow_paths[0])
ps = []
for n in ('forward', 'backward', 'optimizer'):
    d = run_logs([slow_runs[0][n]])[0] - run_logs([base_runs[0][n]])[0]
    ps.append(2 * stats.t.sf(abs(d) / (spread[n] * np.sqrt(2)), 5))
for n, adjusted in zip(('forward', 'backward', 'optimizer'), holm(ps)):
    o = doc[n]
    assert o['verdict_test'] == 'runs' and close(o['p_verdict'], adjusted, 1e-8), (o, adjusted)
    assert close(o['noise_floor'], float(next(r for r in rows if r['name'] == n)['noise_floor']), 1e-12), o
# an explicit --min-change replaces the noise floor
doc = run_json('--noise', noise_path, base_paths[0], slow_paths[0], '--min-change', '1')
assert all(o['noise_floor'] is None for o in doc.values()), doc
# a run-level offset that the blocks call slower is noise to the calibrated verdict
offset_a = write('offset-a.h5', {'forward': [iid(500, 1e-3) for _ in range(4)]})
offset_b = write('offset-b.h5', {'forward': [iid(500, 1.25e-3) for _ in range(4)]})
assert run_json(offset_a, offset_b)['forward']['verdict'] == 'slower'
offset_noise = os.path.join(DIR, 'offset-noise.csv')
with open(offset_noise, 'w') as f:
    f.write('name,runs,log_sd,noise_floor\nforward,8,0.15,0.5\n')
o = run_json('--noise', offset_noise, offset_a, offset_b)['forward']
assert o['verdict'] == 'same' and o['verdict_test'] == 'runs', o
expected = 2 * stats.t.sf(abs(np.log(o['new_median'] / o['base_median'])) / (0.15 * np.sqrt(2)), 7)
assert close(o['p_verdict'], expected, 1e-9), (o, expected)

# --- 4. a clear shift of 20 % in 10^4 i.i.d. samples stays slower; identical files are the same
clear_a = write('clear-a.h5', {'op': [iid(10000, 1e-3, 0.3)]}, 1)
clear_b = write('clear-b.h5', {'op': [iid(10000, 1.2e-3, 0.3)]}, 1)
o = run_json(clear_a, clear_b)['op']
assert o['verdict'] == 'slower' and o['p_verdict'] < 1e-3, o
for path in (clear_a, base_paths[0]):
    for o in run_json(path, path).values():
        assert o['verdict'] == 'same' and o['p_verdict'] == 1, o
for o in run_json(*sides_args(base_paths, base_paths)).values():
    assert o['verdict'] == 'same' and o['p_verdict'] == 1, o

# --- 5. CSV has p_verdict and the contract's words; the table the viewer's
status, out, _ = run(*sides_args(base_paths, slow_paths), '--format', 'csv')
records = list(csv.DictReader(io.StringIO(out)))
assert list(records[0].keys())[-3:] == ['verdict', 'p_verdict', 'verdict_test'], records[0]
assert {r['name']: r['verdict'] for r in records}['forward'] == 'slower'
status, out, _ = run(*sides_args(base_paths, slow_paths))
assert status == 0 and '▲ Slower' in out and 'p (verdict)' in out and '3 base runs against 3 new runs' in out, out
status, out, _ = run(base_paths[0], base_paths[1])
assert 'One run a side' in out and 'Same' in out, out

# --- 6. JUnit: valid XML, a testcase per operation, a failure for each slower one
odd = 'io/<read> & "write" \'x\'\x01'
junit_a = write('junit-a.h5', {'forward': [iid(400, 1e-3)], odd: [iid(400, 1e-3)], 'gone': [iid(50, 1e-3)]}, 1)
junit_b = write('junit-b.h5', {'forward': [iid(400, 1.3e-3)], odd: [iid(400, 1e-3)], 'new': [iid(50, 1e-3)]}, 1)
status, out, err = run(junit_a, junit_b, '--format', 'junit', '--fail-on-slower')
assert status == 3 and err == '', (status, err)
root = ET.fromstring(out)
cases = {c.get('name'): c for c in root.iter('testcase')}
assert set(cases) == {'forward', odd.replace('\x01', '\ufffd'), 'gone', 'new'}, set(cases)
assert root.get('tests') == '4' and root.get('failures') == '1', root.attrib
assert [c.get('name') for c in root.iter('testcase') if c.find('failure') is not None] == ['forward']
failure = cases['forward'].find('failure')
ratio = run_json(junit_a, junit_b)['forward']['ratio']
assert failure.get('type') == 'slower' and ('ratio %.4f' % ratio) in failure.get('message'), failure.attrib
assert cases['gone'].find('skipped') is not None and cases['new'].find('skipped') is not None
assert root.find('testsuite').get('failures') == '1'
status, out, _ = run(junit_a, junit_a, '--format', 'junit', '--fail-on-slower')
assert status == 0 and ET.fromstring(out).get('failures') == '0'
# per rank: a testcase per rank
status, out, _ = run('--op', 'forward', base_paths[0], slow_paths[0], '--format', 'junit')
assert [c.get('name') for c in ET.fromstring(out).iter('testcase')] == ['rank 0', 'rank 1', 'rank 2', 'rank 3']

# --- 7. bad input: one clear line, exit 2 for usage, 1 for a file
other_ops = write('other-ops.h5', {'forward': [iid(300, 1e-3)] * 4, 'backward': [iid(300, 2e-3)] * 4})
empty = write('empty.h5', {})
empty_op = write('empty-op.h5', {'forward': []})
missing = os.path.join(DIR, 'missing.h5')
bad_noise = os.path.join(DIR, 'bad-noise.csv')
with open(bad_noise, 'w') as f:
    f.write('name,runs,log_sd,noise_floor\nforward,six,0.1,0.2\n')
cases = [
    (2, ['--base', base_paths[0], '--new', slow_paths[0]], 'one run each'),
    (2, ['--base', base_paths[0], '--base', base_paths[1]], 'missing --new'),
    (2, ['--new', base_paths[0], '--new', base_paths[1]], 'missing --base'),
    (2, ['--base', base_paths[0], '--base', base_paths[1], '--new', slow_paths[0], slow_paths[1]], 'unexpected'),
    (2, ['--calibrate', base_paths[0]], 'two runs or more'),
    (2, ['--calibrate', base_paths[0], base_paths[1], '--format', 'junit'], 'junit'),
    (2, ['--format', 'xml', base_paths[0], base_paths[1]], 'xml'),
    (2, ['--op', 'forward', '--noise', noise_path, base_paths[0], base_paths[1]], '--noise'),
    (1, ['--base', base_paths[0], '--base', other_ops, '--new', slow_paths[0]], other_ops + ': has no operation'),
    (1, [base_paths[0], empty], empty + ': holds no samples'),
    (1, [empty_op, base_paths[0]], empty_op + ': holds no samples'),
    (1, ['--calibrate', base_paths[0], empty], empty + ': holds no samples'),
    (1, [base_paths[0], missing], missing),
    (1, ['--base', base_paths[0], '--base', missing, '--new', slow_paths[0]], missing),
    (1, ['--noise', bad_noise, base_paths[0], base_paths[1]], bad_noise + ': record 1'),
    (1, ['--noise', base_paths[0], base_paths[0], base_paths[1]], 'is not the CSV'),
    (1, ['--noise', missing, base_paths[0], base_paths[1]], missing),
]
for status_expected, args, words in cases:
    status, out, err = run(*args)
    assert status == status_expected and out == '' and err.count('\n') == 1 and words in err, (args, status, err)

for path in written:
    os.unlink(path)
for name in ('noise.csv', 'offset-noise.csv', 'bad-noise.csv'):
    os.unlink(os.path.join(DIR, name))
os.rmdir(DIR)
print('OK')
