# check-save-parallel.py — tprof_time_manager_save_parallel against gather + save on the same records, and against numpy: the same operations, samples, cached statistics and ranks; nothing left behind.
# Usage: check-save-parallel.py MPIEXEC NP WRITER SAMPLES [SORT-BUDGET [SAMPLE-LIMIT]]
# SPDX-License-Identifier: MIT
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import profile_h5  # noqa: E402  (tests/profile_h5.py)

MPIEXEC, NP, WRITER = os.path.abspath(sys.argv[1]), int(sys.argv[2]), os.path.abspath(sys.argv[3])
EXTRA = sys.argv[4:]


def operations(f):
    return profile_h5.operation_dict(f)


def check_operation(name, a, b, world, offsets_a, offsets_b):
    times, ranks = b['times'][()], b['ranks'][()]
    # the samples themselves: exactly what the gather put there, grouped by rank
    assert np.array_equal(times, a['times'][()]), name
    assert np.array_equal(ranks, a['ranks'][()]), name
    assert np.all(np.diff(ranks) >= 0), name
    assert np.array_equal(b['threads'][()], a['threads'][()]), name
    # starts: each save aligns the clocks anew (start + offset - origin),
    # so a rank's starts move by the difference of its two recorded
    # offsets, less the difference of the two origins: the same for every
    # sample and, once the offsets are taken out, for every rank
    starts_a, starts_b = a['starts'][()], b['starts'][()]
    tol = 1e-9 * max(1.0, np.max(np.abs(starts_a)))
    shifts = []
    for r in np.unique(ranks):
        d = starts_b[ranks == r] - starts_a[ranks == r]
        assert np.ptp(d) <= tol, (name, r, np.ptp(d))
        shifts.append(d[0] - (offsets_b[r] - offsets_a[r]))
    assert np.ptp(shifts) <= tol, (name, shifts)
    # the cache: exact where selection and extremes are, close where sums are
    n = len(times)
    count = np.bincount(ranks, minlength=world)
    assert np.array_equal(b['rank_count'][()], count), name
    assert np.array_equal(a['rank_count'][()], count), name
    for key, expect in (('median', np.median(times)), ('p95', np.percentile(times, 95)),
                        ('p99', np.percentile(times, 99))):
        assert b.attrs[key] == expect == a.attrs[key], (name, key, b.attrs[key], expect, a.attrs[key])
    assert np.allclose(b.attrs['std'], times.std(ddof=1) if n > 1 else np.nan, rtol=1e-9, equal_nan=True), name
    assert ('rank_recorded' in a) == ('rank_recorded' in b), name
    if 'rank_recorded' in b:
        # sampled: count, sum, mean, min, max and the per-rank arrays cover
        # everything recorded, which only the time managers knew; the
        # gathered file is the reference
        recorded = b['rank_recorded'][()]
        assert np.array_equal(recorded, a['rank_recorded'][()]), name
        assert np.all(recorded >= count) and np.any(recorded > count), name
        assert b.attrs['count'] == recorded.sum() == a.attrs['count'], name
        for key in ('min', 'max'):
            assert b.attrs[key] == a.attrs[key], (name, key)
        for key in ('sum', 'mean', 'std'):
            assert np.allclose(b.attrs[key], a.attrs[key], rtol=1e-9), (name, key)
        for key in ('rank_sum', 'rank_min', 'rank_max'):
            assert np.allclose(b[key][()], a[key][()], rtol=1e-12, equal_nan=True), (name, key)
        return True
    assert b.attrs['count'] == n == a.attrs['count'], name
    for key, expect in (('min', times.min()), ('max', times.max())):
        assert b.attrs[key] == expect == a.attrs[key], (name, key, b.attrs[key], expect, a.attrs[key])
    for key, expect, rtol in (('sum', times.sum(), 1e-12), ('mean', times.mean(), 1e-12),
                              ('std', times.std(ddof=1) if n > 1 else np.nan, 1e-9)):
        assert np.allclose(b.attrs[key], expect, rtol=rtol, equal_nan=True), (name, key, b.attrs[key], expect)
        assert np.allclose(b.attrs[key], a.attrs[key], rtol=rtol, equal_nan=True), (name, key)
    for r in range(world):
        mine = times[ranks == r]
        assert np.allclose(b['rank_sum'][r], mine.sum(), rtol=1e-12), (name, r)
        lo, hi = (mine.min(), mine.max()) if len(mine) else (np.nan, np.nan)
        assert np.array_equal(b['rank_min'][r], lo, equal_nan=True), (name, r)
        assert np.array_equal(b['rank_max'][r], hi, equal_nan=True), (name, r)
    return False


with tempfile.TemporaryDirectory() as work:
    r = subprocess.run([MPIEXEC, '-n', str(NP), WRITER, work] + EXTRA, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, (r.stdout, r.stderr)
    assert sorted(os.listdir(work)) == ['gathered.h5', 'parallel.h5'], os.listdir(work)
    with h5py.File(os.path.join(work, 'gathered.h5'), 'r') as fa, \
            h5py.File(os.path.join(work, 'parallel.h5'), 'r') as fb:
        for key in ('format', 'format_version', 'world_size'):
            assert fa.attrs[key] == fb.attrs[key], key
        world = int(fb.attrs['world_size'])
        assert world == NP
        assert 'timeline_origin' in fb.attrs and 'timeline_origin' in fa.attrs
        assert list(fa['ranks/hostname'][()]) == list(fb['ranks/hostname'][()])
        assert fb['ranks/clock_offset'].shape == (world,) and fb['ranks/clock_offset'][0] == 0.0
        ops_a, ops_b = operations(fa), operations(fb)
        assert set(ops_a) == set(ops_b), (set(ops_a), set(ops_b))
        expected = {'step', 'forward \u00e9tat', 'only-even', 'worker'} | ({'only-odd'} if NP > 1 else set())
        assert expected | {'rare'} == set(ops_b), set(ops_b)
        # the earliest start of all is the timeline's 0
        assert min(g['starts'][()].min() for g in ops_b.values()) == 0.0
        offsets_a, offsets_b = fa['ranks/clock_offset'][()], fb['ranks/clock_offset'][()]
        sampled = [name for name in sorted(ops_b)
                   if check_operation(name, ops_a[name], ops_b[name], world, offsets_a, offsets_b)]
        # a sample limit among the writer's arguments samples the larger operations
        assert bool(sampled) == (len(EXTRA) > 2), sampled
    print('np=%d: %d operations equal, %d of them sampled' % (NP, len(ops_b), len(sampled)))
