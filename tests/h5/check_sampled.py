# check_sampled.py — a sampled capture's file (segments/recorded, docs/file-format.md), read with h5py alone; damaged copies of it.
# Usage: check_sampled.py FILE OP RECORDED STORED SUM MIN MAX   (SUM/MIN/MAX exact, as %a hex floats)
#        check_sampled.py FILE OP absent                        (OP was not sampled: recorded = stored)
#        check_sampled.py damage FILE OUT KIND                  (KIND: fewer, length, float, negative)
# SPDX-License-Identifier: MIT
import shutil
import sys

import h5py
import numpy as np


def operation(f, name):
    """Operation @name's rows of format 3's columns: its samples and its segments."""
    names = list(f['operations/name'].asstr()[()])
    assert name in names, 'no operation %r' % name
    k = names.index(name)
    s0, s1 = f['operations/segments'][k:k + 2]
    off = f['segments/offset'][()]
    return k, slice(s0, s1), f['samples/times'][off[s0]:off[s1]]


def check(path, op, recorded, stored, total, lo, hi):
    with h5py.File(path, 'r') as f:
        k, segs, times = operation(f, op)
        rec = f['segments/recorded'][segs]
        assert f['segments/recorded'].dtype == np.int64, f['segments/recorded'].dtype
        assert list(rec) == [recorded], rec
        assert list(f['segments/rank'][segs]) == [0]
        assert len(times) == stored
        stat = {key: f['operations/' + key][k] for key in ('count', 'sum', 'mean', 'std', 'min', 'max', 'median', 'p95')}
        assert stat['count'] == recorded, stat['count']
        # exact: every value is a multiple of a power of two, every sum exact
        assert stat['sum'] == total, (stat['sum'], total)
        assert f['segments/sum'][segs][0] == total
        assert stat['mean'] == total / recorded
        assert stat['min'] == lo and f['segments/min'][segs][0] == lo
        assert stat['max'] == hi and f['segments/max'][segs][0] == hi
        assert np.all((times >= lo) & (times <= hi))
        # the estimates come from the stored subset, as numpy computes them
        assert stat['median'] == np.median(times), (stat['median'], np.median(times))
        assert stat['std'] == np.std(times, ddof=1) or abs(stat['std'] / np.std(times, ddof=1) - 1) < 1e-12
        assert stat['p95'] == np.quantile(times, 0.95)


def check_absent(path, op):
    with h5py.File(path, 'r') as f:
        k, segs, times = operation(f, op)
        # recorded, where the file has the column, equals what is stored
        if 'segments/recorded' in f:
            off = f['segments/offset'][()]
            assert np.array_equal(f['segments/recorded'][segs], np.diff(off[segs.start:segs.stop + 1]))
        assert f['operations/count'][k] == len(times)


def damage(path, out, kind):
    shutil.copyfile(path, out)
    with h5py.File(out, 'r+') as f:
        rec = f['segments/recorded'][()]
        stored = np.diff(f['segments/offset'][()])
        del f['segments/recorded']
        if kind == 'fewer':
            f['segments/recorded'] = stored - 1
        elif kind == 'length':
            f['segments/recorded'] = np.concatenate([rec, rec])
        elif kind == 'float':
            f['segments/recorded'] = rec.astype(np.float64)
        elif kind == 'negative':
            f['segments/recorded'] = -rec
        else:
            raise AssertionError(kind)


def main():
    if sys.argv[1] == 'damage':
        damage(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[3] == 'absent':
        check_absent(sys.argv[1], sys.argv[2])
    else:
        check(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]),
              *(float.fromhex(a) for a in sys.argv[5:8]))
    print('OK')


main()
