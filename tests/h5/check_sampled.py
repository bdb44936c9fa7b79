# check_sampled.py — a sampled capture's file (DESIGN.md 2b rank_recorded), read with h5py alone; damaged copies of it.
# Usage: check_sampled.py FILE OP RECORDED STORED SUM MIN MAX   (SUM/MIN/MAX exact, as %a hex floats)
#        check_sampled.py FILE OP absent                        (OP was not sampled: no rank_recorded)
#        check_sampled.py damage FILE OUT KIND                  (KIND: fewer, length, float, negative)
# SPDX-License-Identifier: MIT
import shutil
import sys

import h5py
import numpy as np


def group(f, name):
    for key in f['timings']:
        if f['timings'][key].attrs['name'] == name:
            return f['timings'][key]
    raise AssertionError('no operation %r' % name)


def check(path, op, recorded, stored, total, lo, hi):
    with h5py.File(path, 'r') as f:
        g = group(f, op)
        rec = g['rank_recorded'][()]
        assert rec.dtype == np.int64, rec.dtype
        assert rec.shape == (f.attrs['world_size'],), rec.shape
        assert list(rec) == [recorded], rec
        assert list(g['rank_count'][()]) == [stored]
        assert len(g['times']) == stored and len(g['ranks']) == stored
        assert g.attrs['count'] == recorded, g.attrs['count']
        # exact: every value is a multiple of a power of two, every sum exact
        assert g.attrs['sum'] == total, (g.attrs['sum'], total)
        assert g['rank_sum'][0] == total
        assert g.attrs['mean'] == total / recorded
        assert g.attrs['min'] == lo and g['rank_min'][0] == lo
        assert g.attrs['max'] == hi and g['rank_max'][0] == hi
        times = g['times'][()]
        assert np.all((times >= lo) & (times <= hi))
        # the estimates come from the stored subset, as numpy computes them
        assert g.attrs['median'] == np.median(times), (g.attrs['median'], np.median(times))
        assert g.attrs['std'] == np.std(times, ddof=1) or abs(g.attrs['std'] / np.std(times, ddof=1) - 1) < 1e-12
        assert g.attrs['p95'] == np.quantile(times, 0.95)


def check_absent(path, op):
    with h5py.File(path, 'r') as f:
        g = group(f, op)
        assert 'rank_recorded' not in g
        assert g.attrs['count'] == len(g['times'])


def damage(path, out, kind):
    shutil.copyfile(path, out)
    with h5py.File(out, 'r+') as f:
        for key in f['timings']:
            g = f['timings'][key]
            if 'rank_recorded' not in g:
                continue
            rec = g['rank_recorded'][()]
            del g['rank_recorded']
            if kind == 'fewer':
                g['rank_recorded'] = g['rank_count'][()] - 1
            elif kind == 'length':
                g['rank_recorded'] = np.concatenate([rec, rec])
            elif kind == 'float':
                g['rank_recorded'] = rec.astype(np.float64)
            elif kind == 'negative':
                g['rank_recorded'] = -rec
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
