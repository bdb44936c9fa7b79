# reference.py — what the viewer should show for a profile, computed independently with h5py and numpy.
#
# Usage: reference.py FILE COMMAND OP RANKS [ARGS...]
#    or: reference.py FILE --batch   with one tab-separated `COMMAND OP RANKS [ARGS...]`
#        query per stdin line; each answer ends with a line `===`
#   OP     an operation name (the `name` attribute of its group)
#   RANKS  'all', 'none' or a comma-separated list of ranks
#   summary                  count sum mean std min max median p95 p99 rank_count imbalance slowest_rank
#   hist BINS [log]          BINS: 'auto' or a number (for log: a number, edges from logspace)
#                            prints edges, counts, and `rank_R` counts on the same edges
#   ranks                    one `rank_R count sum mean min max` line per rank with samples
# Floats are printed with float.hex() so the C side reads back the exact bits.

import sys

import h5py
import numpy as np


def fmt(v):
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    v = float(v)
    if v != v:
        return 'nan'
    return v.hex()


def emit(name, values):
    if np.ndim(values) == 0:
        values = [values]
    print(name, *[fmt(v) for v in values])


def load(path, op, ranks_arg):
    with h5py.File(path, 'r') as f:
        for key in f['timings']:
            group = f['timings'][key]
            if group.attrs['name'] == op:
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
    if times.size == 0:
        return
    if log:
        positive = times[times > 0]
        lo, hi = positive.min(), positive.max()
        edges = np.logspace(np.log10(lo), np.log10(hi), int(bins) + 1)
        edges[0], edges[-1] = lo, hi
        counts, edges = np.histogram(positive, bins=edges)
        source, source_ranks = positive, ranks[times > 0]
    else:
        counts, edges = np.histogram(times, bins='auto' if bins == 'auto' else int(bins))
        source, source_ranks = times, ranks
    emit('edges', edges)
    emit('counts', counts)
    for r in np.unique(source_ranks):
        emit('rank_%d' % r, np.histogram(source[source_ranks == r], bins=edges)[0])


def cmd_ranks(times, ranks):
    for r in np.unique(ranks):
        x = times[ranks == r]
        emit('rank_%d' % r, [x.size, x.sum(), x.mean(), x.min(), x.max()])


def answer(path, command, op, ranks_arg, *args):
    times, ranks = load(path, op, ranks_arg)
    if command == 'summary':
        cmd_summary(times, ranks)
    elif command == 'hist':
        cmd_hist(times, ranks, args[0], len(args) > 1 and args[1] == 'log')
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
