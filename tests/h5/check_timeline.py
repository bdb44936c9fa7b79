# check_timeline.py — the timeline of a saved profile (docs/file-format.md), read with h5py alone.
# Usage: check_timeline.py FILE BEFORE AFTER   (a recorded profile; BEFORE/AFTER bound its origin, Unix seconds)
#        check_timeline.py FILE interleaved
# SPDX-License-Identifier: MIT
import datetime
import sys

import h5py
import numpy as np


def ops(f):
    """Each operation's samples from format 3's columns, as docs/file-format.md reads them."""
    out = {}
    seg, off, rank = f['operations/segments'][()], f['segments/offset'][()], f['segments/rank'][()]
    columns = {k: f['samples/' + k][()] for k in ('times', 'starts', 'threads')}
    for k, name in enumerate(f['operations/name'].asstr()[()]):
        s0, s1 = seg[k], seg[k + 1]
        rows = slice(off[s0], off[s1])
        out[name] = {key: values[rows] for key, values in columns.items()}
        out[name]['ranks'] = np.repeat(rank[s0:s1], np.diff(off[s0:s1 + 1]))
    return out


def check_recorded(path, before, after):
    with h5py.File(path, 'r') as f:
        assert f.attrs['format_version'] == 3
        origin = f.attrs['timeline_origin']
        origin = origin.decode() if isinstance(origin, bytes) else origin
        when = datetime.datetime.strptime(origin, '%Y-%m-%dT%H:%M:%S.%fZ').replace(tzinfo=datetime.timezone.utc)
        assert before <= when.timestamp() <= after, (origin, before, after)
        assert list(f['ranks']['clock_offset'][()]) == [0.0]
        assert list(f['ranks']['clock_offset_error'][()]) == [0.0]
        assert f['samples/starts'].dtype == np.float64 and f['samples/threads'].dtype == np.int32
        o = ops(f)
    for name, d in o.items():
        assert d['starts'].shape == d['times'].shape == d['threads'].shape, name
        assert np.all(np.isfinite(d['starts'])), name
    # the timeline begins at the first sample
    assert min(d['starts'].min() for d in o.values()) == 0.0
    steps, fwd, bwd, load = o['step'], o['forward'], o['backward'], o['io/load']
    # nesting: each forward and backward lies inside its step, in order
    for k in range(len(steps['times'])):
        s0, s1 = steps['starts'][k], steps['starts'][k] + steps['times'][k]
        assert s0 <= fwd['starts'][k] and fwd['starts'][k] + fwd['times'][k] <= s1 + 1e-9, k
        assert fwd['starts'][k] + fwd['times'][k] <= bwd['starts'][k] + 1e-9, k
        assert bwd['starts'][k] + bwd['times'][k] <= s1 + 1e-9, k
        if k > 0:
            assert steps['starts'][k] >= steps['starts'][k - 1] + steps['times'][k - 1] - 1e-9
    # the main thread recorded first: thread 0; the loader thread: 1
    assert set(steps['threads']) == {0} and set(load['threads']) == {1}, (set(steps['threads']), set(load['threads']))
    # the loader ran after the steps
    assert load['starts'].min() >= steps['starts'][-1] + steps['times'][-1] - 1e-9
    # a handed-in time began its length before it was handed in: after the rest
    handed = o['handed-in']
    assert handed['times'][0] == 0.25
    assert handed['starts'][0] + 0.25 >= load['starts'][-1] + load['times'][-1] - 1e-6


def check_interleaved(path):
    with h5py.File(path, 'r') as f:
        d = ops(f)['op']
        assert 'timeline_origin' not in f.attrs
        assert 'ranks' not in f or 'clock_offset' not in f['ranks']
    assert list(d['ranks']) == [0, 0, 0, 1, 1, 2], d['ranks']
    assert list(d['times']) == [0.2, 0.4, 0.6, 0.1, 0.3, 0.5]
    assert list(d['starts']) == [20, 40, 60, 10, 30, 50]
    assert list(d['threads']) == [1, 3, 5, 0, 2, 4]


if sys.argv[2] == 'interleaved':
    check_interleaved(sys.argv[1])
else:
    check_recorded(sys.argv[1], float(sys.argv[2]), float(sys.argv[3]))
print('OK')
