# stragglers_reference.py — the straggler verdict of a profile (arrival, blame per rank and group, the binomial tests, the descent into a group) written again with numpy and scipy, for the tests of tprof stragglers and tprof.stragglers().
# SPDX-License-Identifier: MIT
import h5py
import numpy as np
from scipy.stats import binom

ALPHA = 0.001


def arrival(path):
    """Per rank: late count, wait caused, late count by chance; and the
    occurrences in all, over the synchronising operations (the rule of
    tprof's documentation, vectorised with numpy)."""
    with h5py.File(path, 'r') as f:
        W = int(f.attrs['world_size'])
        hosts = [h.decode() if isinstance(h, bytes) else h for h in f['ranks']['hostname'][()]]
        late, wait, expected = np.zeros(W, np.int64), np.zeros(W), np.zeros(W)
        for key in f['timings']:
            g = f['timings'][key]
            t, r, s = g['times'][()], g['ranks'][()].astype(np.int64), g['starts'][()]
            order = np.lexsort((np.arange(len(s)), s, r))
            counts = np.bincount(r, minlength=W)
            present = np.flatnonzero(counts)
            n = counts[present].min()
            first = np.concatenate(([0], np.cumsum(counts)))[present]
            pos = order[first[:, None] + np.arange(n)[None, :]]
            S, E = s[pos], s[pos] + t[pos]
            start_spread = np.median(S.max(0) - S.min(0))
            end_spread = np.median(E.max(0) - E.min(0))
            if not (len(present) >= 2 and start_spread > 0 and end_spread <= 0.5 * start_spread):
                continue
            who = present[S.argmax(0)]          # the first maximum: the lowest rank among equals
            np.add.at(late, who, 1)
            np.add.at(wait, who, (S.max(0)[None, :] - S).sum(0))
            expected[present] += n / len(present)
    return hosts, late, wait, expected, int(late.sum())


def binom_test(k, n, p, tests):
    return min(1.0, tests * binom.sf(k - 1, n, p))


def verdict(levels, late, wait, expected, N):
    """levels[0] is None (ranks); levels[i] maps each rank to its group at
    level i. Returns (level, group) named, or (0, rank) / (0, None)."""
    W = len(late)
    rank_worst = int(np.argmax(wait))
    rank_p = binom_test(late[rank_worst], N, expected.sum() / N / W, W)
    rank = rank_worst if wait[rank_worst] > 0 and rank_p < ALPHA else None

    def sums(level):
        if level == 0:
            names, idx = list(range(W)), np.arange(W)
        else:
            index = {}
            idx = np.array([index.setdefault(k, len(index)) for k in levels[level]])
            names = list(index)
        n = len(names)
        return (names, idx, np.bincount(idx, late, n), np.bincount(idx, wait, n), np.bincount(idx, expected, n))

    for top in range(len(levels) - 1, 0, -1):
        names, idx, gl, gw, ge = sums(top)
        g = int(np.argmax(gw))
        if gw[g] <= 0 or binom_test(gl[g], N, ge[g] / N, int((ge > 0).sum())) >= ALPHA:
            continue
        level = top
        while level > 0:
            below = sums(level - 1)
            members = sorted(set(below[1][idx == g]))
            members = [m for m in members if below[4][m] > 0]
            best = sorted(members, key=lambda m: (-below[2][m], -below[3][m], m))[0]
            if len(members) > 1 and binom_test(below[2][best], gl[g], below[4][best] / ge[g], len(members)) >= ALPHA:
                return level, names[g], gl[g], gw[g], rank
            level, g = level - 1, best
            names, idx, gl, gw, ge = below
        break
    return 0, rank, None, None, rank
