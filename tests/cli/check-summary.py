# check-summary.py — `tprof summary --format json` against numpy on the same profile.
# SPDX-License-Identifier: MIT
import json
import sys

import numpy as np

from profile_data import close, load, parse_ranks

profile, output = sys.argv[1], sys.argv[2]
selected = parse_ranks(sys.argv[3]) if len(sys.argv) > 3 else None
world_size, ops = load(profile)
with open(output, encoding='utf-8') as f:
    got = json.load(f)

errors = []
if got['file'] != profile:
    errors.append('file is %r' % got['file'])
if got['world_size'] != world_size:
    errors.append('world_size is %r' % got['world_size'])
if list(got) != ['file', 'world_size', 'operations']:
    errors.append('keys are %r' % list(got))
if [o['name'] for o in got['operations']] != [name for name, _, _ in ops]:
    errors.append('operations %r, expected %r' % ([o['name'] for o in got['operations']], [n for n, _, _ in ops]))

keys = ['name', 'count', 'rank_count', 'sum', 'mean', 'std', 'min', 'max', 'median', 'p95', 'p99',
        'imbalance', 'slowest_rank', 'parent', 'self_sum', 'sampled', 'stored', 'estimates']
for (name, times, ranks), o in zip(ops, got['operations']):
    if list(o) != keys:
        errors.append('%s: keys %r' % (name, list(o)))
    if selected is not None:
        keep = np.isin(ranks, selected)
        times, ranks = times[keep], ranks[keep]
    n = len(times)
    present = np.unique(ranks)
    totals = np.array([times[ranks == r].sum() for r in present])
    expected = {
        'count': n,
        'rank_count': len(present),
        'sum': float(times.sum()),
        'mean': float(times.mean()) if n else None,
        'std': float(times.std(ddof=1)) if n > 1 else None,
        'min': float(times.min()) if n else None,
        'max': float(times.max()) if n else None,
        'median': float(np.median(times)) if n else None,
        'p95': float(np.quantile(times, 0.95)) if n else None,
        'p99': float(np.quantile(times, 0.99)) if n else None,
        'imbalance': float(totals.max() / totals.mean()) if n else None,
        'slowest_rank': int(present[np.argmax(totals)]) if n else None,
        'sampled': False,
        'stored': n,
        'estimates': [],
    }
    for key, want in expected.items():
        have = o[key]
        if key in ('count', 'rank_count', 'slowest_rank', 'sampled', 'stored', 'estimates'):
            ok = have == want
        else:
            ok = close(have, want, rtol=1e-9)
        if not ok:
            errors.append('%s: %s is %r, numpy says %r' % (name, key, have, want))

if errors:
    sys.exit('\n'.join(errors))
