# reference.py — what the viewer should show for a profile, computed independently with h5py and numpy.
#
# Usage: reference.py FILE COMMAND OP RANKS [ARGS...]
#    or: reference.py FILE --batch   with one tab-separated `COMMAND OP RANKS [ARGS...]`
#        query per stdin line; each answer ends with a line `===`
#   OP     an operation name (the `name` attribute of its group)
#   RANKS  'all', 'none' or a comma-separated list of ranks
#   summary                  count sum mean std min max median p95 p99 rank_count imbalance slowest_rank
#   hist BINS [log]          BINS: 'auto' or a number; prints edges, counts, and
#                            `rank_R` counts on the same edges
#   auto-bins [log]          numpy's uncapped 'auto' bin count (of log10 of the
#                            positive samples for log)
#   ranks                    one `rank_R count sum mean min max` line per rank with samples
# Floats are printed with float.hex() so the C side reads back the exact bits.
# The formatting and the log edges come from the stats tests' reference.py,
# so that both suites hold tprof to one reading of numpy.
# SPDX-License-Identifier: MIT

import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'stats'))
from reference import emit, log_edges  # noqa: E402  (tests/stats/reference.py)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import profile_h5  # noqa: E402  (tests/profile_h5.py)


def load(path, op, ranks_arg):
    with h5py.File(path, 'r') as f:
        for name, group in profile_h5.operations(f):
            if name == op:
                times = np.asarray(group['times'][()], dtype=np.float64)
                ranks = np.asarray(group['ranks'][()], dtype=np.int64)
                break
        else:
            sys.exit('no operation ' + op)
    if ranks_arg != 'all':
        chosen = [] if ranks_arg == 'none' else [int(r) for r in ranks_arg.split(',')]
        keep = np.isin(ranks, chosen)
        times, ranks = times[keep], ranks[keep]
    return times, ranks


def cmd_summary(times, ranks):
    n = times.size
    if n == 0:
        emit('summary', [0, 0.0] + [float('nan')] * 7 + [0, float('nan'), -1])
        return
    distinct = np.unique(ranks)
    totals = np.array([times[ranks == r].sum() for r in distinct])
    std = np.std(times, ddof=1) if n >= 2 else float('nan')
    emit('summary', [n, times.sum(), times.mean(), std, times.min(), times.max(),
                     np.quantile(times, 0.5), np.quantile(times, 0.95), np.quantile(times, 0.99),
                     distinct.size, totals.max() / totals.mean(), distinct[np.argmax(totals)]])


def cmd_hist(times, ranks, bins, log=False):
    if log:
        used = times > 0
        times, ranks = times[used], ranks[used]
    if times.size == 0:
        return
    if log:
        edges = log_edges(times, bins if bins == 'auto' else int(bins))
        counts = np.histogram(times, bins=edges)[0]
    else:
        counts, edges = np.histogram(times, bins='auto' if bins == 'auto' else int(bins))
    emit('edges', edges)
    emit('counts', counts)
    for r in np.unique(ranks):
        emit('rank_%d' % r, np.histogram(times[ranks == r], bins=edges)[0])


def cmd_auto_bins(times, log=False):
    values = np.log10(times[times > 0]) if log else times
    emit('auto_bins', np.histogram_bin_edges(values, 'auto').size - 1 if values.size else 0)


def cmd_ranks(times, ranks):
    for r in np.unique(ranks):
        x = times[ranks == r]
        emit('rank_%d' % r, [x.size, x.sum(), x.mean(), x.min(), x.max()])


def answer(path, command, op, ranks_arg, *args):
    times, ranks = load(path, op, ranks_arg)
    log = 'log' in args
    if command == 'summary':
        cmd_summary(times, ranks)
    elif command == 'hist':
        cmd_hist(times, ranks, args[0], log)
    elif command == 'auto-bins':
        cmd_auto_bins(times, log)
    elif command == 'ranks':
        cmd_ranks(times, ranks)
    else:
        sys.exit('unknown command ' + command)


def main():
    if sys.argv[2] == '--batch':
        for line in sys.stdin:
            line = line.rstrip('\n')
            if line:
                answer(sys.argv[1], *line.split('\t'))
                print('===')
    else:
        answer(*sys.argv[1:])


main()
