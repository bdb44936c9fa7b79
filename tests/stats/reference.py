# reference.py — expected statistics and histograms computed independently with numpy, for the stats tests.
#
# Usage: reference.py COMMAND DIR [ARGS...] ('slice DIR LENGTH CASES...' ignores DIR)
#        reference.py selections DIR MODE SPECS SELECTION...  (see cmd_selections)
#        reference.py arrival DIR WORLD_SIZE      (docs/analysis.md: occurrences, arrival, blame)
#        reference.py nesting DIR N_OPS [UNTIMED_OP...]   (docs/analysis.md: nesting)
#        reference.py host-summaries DIR PER_HOST [EXCLUDED_RANK...]
#        reference.py breakdown-hosts DIR N_PARTS PER_HOST
# DIR holds times.bin (float64) and ranks.bin (int32), native byte order;
# arrival reads starts.bin (float64) when present, nesting also threads.bin
# and ops.bin (int32: each sample's operation; samples in operation order).
# Prints one line per result: NAME VALUE..., floats as float.hex() so the C
# side reads back the exact bits.
# SPDX-License-Identifier: MIT

import os
import statistics
import sys

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


def load(directory):
    times = np.fromfile(directory + '/times.bin', dtype=np.float64)
    ranks = np.fromfile(directory + '/ranks.bin', dtype=np.int32)
    assert times.shape == ranks.shape
    return times, ranks


def std(x):
    return np.std(x, ddof=1) if x.size >= 2 else float('nan')


def summary(x):
    if x.size == 0:
        return [0, 0.0, float('nan'), float('nan'), float('nan'), float('nan')]
    return [x.size, np.sum(x), np.mean(x), std(x), np.min(x), np.max(x)]


def cmd_stats(directory, qs):
    times, ranks = load(directory)
    stats_one(times, ranks, [float(q) for q in qs], '')


def stats_one(times, ranks, qs, prefix):
    emit(prefix + 'summary', summary(times))
    emit(prefix + 'rank_count', np.unique(ranks).size)
    emit(prefix + 'quantiles', [np.quantile(times, q) if times.size else float('nan') for q in qs])
    distinct = np.unique(ranks)
    emit(prefix + 'ranks', distinct)
    totals = []
    for r in distinct:
        s = summary(times[ranks == r])
        emit(prefix + 'rank_%d' % r, s)
        totals.append(s[1])
    if distinct.size:
        totals = np.array(totals)
        emit(prefix + 'imbalance', totals.max() / totals.mean())
        emit(prefix + 'imbalance_time', totals.max() - totals.mean())
        emit(prefix + 'slowest_rank', distinct[np.argmax(totals)])  # argmax: first (lowest) on ties
    else:
        emit(prefix + 'imbalance', float('nan'))
        emit(prefix + 'imbalance_time', float('nan'))
        emit(prefix + 'slowest_rank', -1)


def cmd_selections(directory, mode, specs, selections):
    # Statistics (median, p95, p99) and histograms (one per bin spec, as
    # 'hist' gives them) of the samples of each rank selection ('all' or
    # comma-separated ranks); results of selection i are printed as s<i>_NAME.
    times, ranks = load(directory)
    for i, selection in enumerate(selections):
        keep = np.ones(times.shape, dtype=bool) if selection == 'all' else \
            np.isin(ranks, [int(r) for r in selection.split(',')])
        prefix = 's%d_' % i
        stats_one(times[keep], ranks[keep], [0.5, 0.95, 0.99], prefix)
        for j, spec in enumerate(specs):
            if keep.any():
                hist_one(times[keep], ranks[keep], mode, spec if spec == 'auto' else int(spec),
                         prefix + 'h%d_' % j)


def cmd_stdev_exact(directory):
    # statistics.stdev works on exact fractions: a reference free of rounding.
    times, _ = load(directory)
    emit('stdev', statistics.stdev(times.tolist()))
    emit('mean', statistics.fmean(times.tolist()))


def cmd_get_rank(directory, wanted):
    times, ranks = load(directory)
    keep = np.isin(ranks, np.array([int(w) for w in wanted], dtype=np.int64))
    emit('times', times[keep])
    emit('ranks', ranks[keep])


def parse_bound(text):
    return None if text == 'none' else int(text)


def cmd_slice(length, cases):
    # Each case: start,stop,step with 'none' for an omitted bound.
    items = list(range(int(length)))
    for i, case in enumerate(cases):
        start, stop, step = (parse_bound(t) for t in case.split(','))
        emit('case_%d' % i, [len(items[start:stop:step])] + items[start:stop:step])


# TPROF_HISTOGRAM_MAX_AUTO_BINS (tprof-histogram.h): numpy's 'auto' count,
# capped, so that a long-tailed selection cannot ask for millions of bins.
AUTO_BIN_CAP = 1000


def capped_auto_bins(values):
    return min(np.histogram_bin_edges(values, 'auto').size - 1, AUTO_BIN_CAP)


def log_edges(positive, bins):
    lo, hi = np.log10(positive.min()), np.log10(positive.max())
    if bins == 'auto':
        bins = capped_auto_bins(np.log10(positive))
    first, last = (lo - 0.5, hi + 0.5) if lo == hi else (lo, hi)
    edges = 10.0 ** np.linspace(first, last, bins + 1)
    if lo != hi:
        # tprof pins the outer edges to the data (10**log10(v) may miss v).
        edges[0], edges[-1] = positive.min(), positive.max()
    return edges


def cmd_hist(directory, mode, specs):
    # One histogram per bin spec (a count or 'auto'); results of spec i are
    # printed as h<i>_NAME.
    times, ranks = load(directory)
    for i, spec in enumerate(specs):
        hist_one(times, ranks, mode, spec if spec == 'auto' else int(spec), 'h%d_' % i)


def hist_one(times, ranks, mode, bins, prefix):
    if mode == 'log':
        used = times > 0
        emit(prefix + 'n_nonpositive', np.count_nonzero(times <= 0))
        if not used.any():
            emit(prefix + 'n_bins', 0)
            return
        edges = log_edges(times[used], bins)
    else:
        used = np.ones(times.shape, dtype=bool)
        if bins == 'auto':
            bins = capped_auto_bins(times)
        edges = np.histogram_bin_edges(times, bins)
    counts, numpy_edges = np.histogram(times[used], bins=edges if mode == 'log' else bins)
    assert np.array_equal(numpy_edges, edges)
    emit(prefix + 'n_bins', edges.size - 1)
    emit(prefix + 'edges', edges)
    emit(prefix + 'counts', counts)
    distinct = np.unique(ranks)
    emit(prefix + 'ranks', distinct)
    for r in distinct:
        subset = times[used & (ranks == r)]
        if mode == 'log':
            row = np.histogram(subset, bins=edges)[0]
        else:
            # Same edges through numpy's equal-bin fast path, as tprof bins.
            row = np.histogram(subset, bins=edges.size - 1, range=(edges[0], edges[-1]))[0]
        emit(prefix + 'rank_%d' % r, row)


def cmd_hist_range(directory, bins, lo, hi, selection):
    # numpy.histogram with range=: the edges two runs share.
    times, ranks = load(directory)
    keep = np.ones(times.shape, dtype=bool) if selection == 'all' else \
        np.isin(ranks, [int(r) for r in selection.split(',')])
    counts, edges = np.histogram(times[keep], bins=bins, range=(lo, hi))
    emit('counts', counts)
    emit('edges', edges)


def cmd_compare(directory):
    # The samples of rank 0 are the base run, those of rank 1 the new one:
    # scipy's Mann-Whitney U test and numpy's medians.
    from scipy.stats import mannwhitneyu
    times, ranks = load(directory)
    base, new = times[ranks == 0], times[ranks == 1]
    emit('p_value', mannwhitneyu(base, new, alternative='two-sided', method='asymptotic').pvalue)
    emit('base_median', np.median(base))
    emit('new_median', np.median(new))


def cmd_binomial(cases):
    # P(X >= k) for X ~ Binomial(n, p), each case 'k,n,p': scipy's survival function at k - 1.
    from scipy.stats import binom
    emit('upper_tail', [binom.sf(int(k) - 1, int(n), float(p)) for k, n, p in (c.split(',') for c in cases)])


# TPROF_SYNCHRONISING_END_TO_START and TPROF_NESTING_TOLERANCE
END_TO_START = 0.5
TOLERANCE = 1e-9


def load_optional(directory, name, dtype):
    path = directory + '/' + name
    return np.fromfile(path, dtype=dtype) if os.path.exists(path) else None


def cmd_heatmap(directory, n_cols, value, rows):
    """Ranks x occurrences (by start, stable), each cell the maximum of the
    occurrences its column covers; deviation subtracts each occurrence's
    median over the ranks that have it."""
    times, ranks = load(directory)
    starts = np.fromfile(directory + '/starts.bin', dtype=np.float64)
    by_rank, starts_by_rank = {}, {}
    for q in np.unique(ranks):
        idx = np.nonzero(ranks == q)[0]
        order = idx[np.argsort(starts[idx], kind='stable')]
        by_rank[int(q)] = times[order]
        starts_by_rank[int(q)] = starts[order]
    n = max(len(t) for t in by_rank.values())
    medians = np.array([np.median([t[k] for t in by_rank.values() if k < len(t)]) for k in range(n)])
    n_cols = min(n_cols, n)
    cells = []
    for r in rows:
        t = by_rank.get(r, np.array([]))
        for j in range(n_cols):
            lo, hi = j * n // n_cols, (j + 1) * n // n_cols
            vals = [t[k] - (medians[k] if value == 'deviation' else 0) for k in range(lo, min(hi, len(t)))]
            cells.append(max(vals) if vals else float('nan'))
    emit('n_cols', n_cols)
    emit('cells', cells)
    # when each column begins: the earliest start of its first occurrence
    emit('column_starts', [min(s[j * n // n_cols] for s in starts_by_rank.values() if j * n // n_cols < len(s))
                           for j in range(n_cols)])
    grid = np.array(cells).reshape(len(rows), n_cols)
    band = []
    for j in range(n_cols):
        col = grid[:, j][~np.isnan(grid[:, j])]
        band.extend(np.quantile(col, [0, 0.05, 0.5, 0.95, 1]) if col.size else [float('nan')] * 5)
    emit('band', band)


def cmd_arrival(directory, world_size):
    """Occurrences by start (stable: ties and no starts keep file order),
    spreads, the synchronising rule and each occurrence's blame."""
    times, ranks = load(directory)
    starts = load_optional(directory, 'starts.bin', np.float64)
    present = [q for q in range(world_size) if np.any(ranks == q)]
    number = np.zeros(times.size, dtype=np.int64)
    order = {}
    for q in present:
        idx = np.nonzero(ranks == q)[0]
        order[q] = idx if starts is None else idx[np.argsort(starts[idx], kind='stable')]
        number[order[q]] = np.arange(idx.size)
    common = min((order[q].size for q in present), default=0)
    emit('occurrence', number)
    emit('n_ranks', len(present))
    emit('common', common)
    if starts is None or common == 0:
        return
    s = np.array([starts[order[q][:common]] for q in present]).T          # occurrence x rank
    e = np.array([(starts + times)[order[q][:common]] for q in present]).T
    start_spread = np.median(s.max(axis=1) - s.min(axis=1))
    end_spread = np.median(e.max(axis=1) - e.min(axis=1))
    sync = len(present) >= 2 and start_spread > 0 and end_spread <= END_TO_START * start_spread
    late = np.array(present)[np.argmax(s, axis=1)]                         # argmax: the lowest rank of equals
    wait = (s.max(axis=1)[:, None] - s).sum(axis=1)
    lateness = np.full((common, world_size), np.nan)
    lateness[:, present] = s - s.min(axis=1)[:, None]
    emit('start_spread', start_spread)
    emit('end_spread', end_spread)
    emit('synchronising', int(sync))
    emit('late_rank', late)
    emit('occurrence_wait', wait)
    emit('lateness', lateness.ravel())
    wait_caused = np.zeros(world_size)
    late_count = np.zeros(world_size, dtype=np.int64)
    if sync:
        np.add.at(wait_caused, late, wait)
        np.add.at(late_count, late, 1)
    emit('wait_caused', wait_caused)
    emit('late_count', late_count)


def nesting_parents(starts, ends, ranks, threads, timed):
    """Parent of each sample: on its rank and thread, ordered by start, end
    descending and id, the last sample before it whose end is not before
    its own (within the tolerance). Quadratic per thread, written from the
    definition."""
    parent = np.full(starts.size, -1, dtype=np.int64)
    ids = np.nonzero(timed)[0]
    for key in set(zip(ranks[ids].tolist(), threads[ids].tolist())):
        group = ids[(ranks[ids] == key[0]) & (threads[ids] == key[1])]
        group = group[np.lexsort((group, -ends[group], starts[group]))]
        for p in range(1, group.size):
            before = np.nonzero(ends[group[:p]] + TOLERANCE >= ends[group[p]])[0]
            if before.size:
                parent[group[p]] = group[before[-1]]
    return parent


def self_times(starts, times, parent):
    """Each sample's time minus the length of the union of its children's
    intervals, each cut at the parent's end: overlapping children count
    their overlap once."""
    self_time = times.astype(np.float64).copy()
    ends = starts + times
    for p in np.unique(parent[parent >= 0]):
        kids = np.nonzero(parent == p)[0]
        lo = starts[kids]
        hi = np.minimum(ends[kids], ends[p])
        order = np.argsort(lo, kind='stable')
        covered, reach = 0.0, -np.inf
        for a, b in zip(lo[order], hi[order]):
            a = max(a, reach)
            if b > a:
                covered += b - a
                reach = b
        self_time[p] -= covered
    return self_time


def parent_operations(ops, parent, n_ops, untimed):
    chosen = [-1] * n_ops
    for op in range(n_ops):
        if op in untimed:
            continue
        mine = np.nonzero(ops == op)[0]
        votes = np.where(parent[mine] >= 0, ops[np.maximum(parent[mine], 0)], -1)
        votes = votes[votes != op]                  # recursion does not vote
        if votes.size == 0:
            continue
        values, counts = np.unique(votes, return_counts=True)
        best = values[np.argmax(counts)]
        if best < 0 or 2 * counts.max() <= votes.size:
            continue
        up = best
        while up >= 0 and up != op:                 # would it close a cycle?
            up = chosen[up]
        if up != op:
            chosen[op] = int(best)
    return chosen


def cmd_nesting(directory, n_ops, untimed):
    times, ranks = load(directory)
    starts = np.fromfile(directory + '/starts.bin', dtype=np.float64)
    threads = np.fromfile(directory + '/threads.bin', dtype=np.int32)
    ops = np.fromfile(directory + '/ops.bin', dtype=np.int32)
    timed = ~np.isin(ops, list(untimed))
    parent = nesting_parents(starts, starts + times, ranks, threads, timed)
    self_time = self_times(starts, times, parent)
    self_time[~timed] = np.nan
    emit('parent', parent)
    emit('self', self_time)
    emit('self_sum', [np.nan if op in untimed else self_time[ops == op].sum() for op in range(n_ops)])
    emit('parent_op', parent_operations(ops, parent, n_ops, untimed))


def cmd_rolling_median(directory, half):
    """The times as a series: each value's window of half on either side,
    its finite values' median."""
    times, _ = load(directory)
    out = []
    for j in range(times.size):
        window = times[max(0, j - half):j + half + 1]
        window = window[np.isfinite(window)]
        out.append(np.median(window) if window.size else float('nan'))
    emit('rolling_median', out)


def cmd_host_summaries(directory, per_host, excluded):
    """Each host's (ranks r // PER_HOST) samples together, but those of
    the EXCLUDED ranks: count, sum, mean, std (N-1), min, max."""
    times, ranks = load(directory)
    keep = ~np.isin(ranks, excluded)
    times, hosts = times[keep], ranks[keep] // per_host
    for h in range(int(hosts.max()) + 1):
        emit('host_%d' % h, summary(times[hosts == h]))


def cmd_breakdown_hosts(directory, n_parts, per_host):
    """A breakdown's columns by host (rank r on host r // PER_HOST):
    times.bin holds each column's N_PARTS values in turn, ranks.bin the
    column's rank for each. Per host: each part summed over its columns
    (NaN where one is), then its total (NaN counted as 0)."""
    times, ranks = load(directory)
    values = times.reshape(-1, n_parts)
    hosts = ranks.reshape(-1, n_parts)[:, 0] // per_host
    for h in np.unique(hosts):
        cols = values[hosts == h]
        emit('host_%d' % h, list(cols.sum(axis=0)) + [np.nansum(cols)])


def main():
    command, rest = sys.argv[1], sys.argv[2:]
    if command == 'stats':
        cmd_stats(rest[0], rest[1:])
    elif command == 'stdev-exact':
        cmd_stdev_exact(rest[0])
    elif command == 'get-rank':
        cmd_get_rank(rest[0], rest[1:])
    elif command == 'arrival':
        cmd_arrival(rest[0], int(rest[1]))
    elif command == 'nesting':
        cmd_nesting(rest[0], int(rest[1]), {int(x) for x in rest[2:]})
    elif command == 'host-summaries':
        cmd_host_summaries(rest[0], int(rest[1]), [int(x) for x in rest[2:]])
    elif command == 'breakdown-hosts':
        cmd_breakdown_hosts(rest[0], int(rest[1]), int(rest[2]))
    elif command == 'compare':
        cmd_compare(rest[0])
    elif command == 'heatmap':
        cmd_heatmap(rest[0], int(rest[1]), rest[2], [int(x) for x in rest[3:]])
    elif command == 'rolling-median':
        cmd_rolling_median(rest[0], int(rest[1]))
    elif command == 'binomial':
        cmd_binomial(rest[1:])
    elif command == 'slice':
        cmd_slice(rest[1], rest[2:])
    elif command == 'hist':
        cmd_hist(rest[0], rest[1], rest[2:])
    elif command == 'hist_range':
        # hist_range DIR BINS LO HI SELECTION
        cmd_hist_range(rest[0], int(rest[1]), float(rest[2]), float(rest[3]), rest[4])
    elif command == 'selections':
        # selections DIR MODE SPEC,SPEC... SELECTION...  (SPECS may be '-': none)
        specs = [] if rest[2] == '-' else rest[2].split(',')
        cmd_selections(rest[0], rest[1], specs, rest[3:])
    else:
        sys.exit('reference.py: unknown command ' + command)


if __name__ == '__main__':
    main()
