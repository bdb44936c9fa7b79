# check-ranks.py — `tprof ranks --format json` against numpy: per-rank statistics and robust z outliers.
# SPDX-License-Identifier: MIT
import json
import sys

import numpy as np

from profile_data import close, load

profile, op, output, expected_outliers = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
_, ops = load(profile)
times, ranks = next((t, r) for name, t, r in ops if name == op)
with open(output, encoding='utf-8') as f:
    got = json.load(f)

errors = []
present = np.unique(ranks)
totals = np.array([times[ranks == r].sum() for r in present])
median = np.median(totals)
mad = np.median(np.abs(totals - median))
if mad > 0:
    z = 0.6745 * (totals - median) / mad
else:
    mean_ad = np.mean(np.abs(totals - median))
    z = (totals - median) / (1.253314 * mean_ad) if mean_ad > 0 else np.zeros_like(totals)

if got['operation'] != op or [r['rank'] for r in got['ranks']] != list(present):
    errors.append('ranks %r, expected %r' % ([r['rank'] for r in got['ranks']], list(present)))
for k, (r, row) in enumerate(zip(present, got['ranks'])):
    mine = times[ranks == r]
    want = {'count': len(mine), 'sum': mine.sum(), 'mean': mine.mean(), 'min': mine.min(),
            'max': mine.max(), 'z': z[k]}
    for key, value in want.items():
        if not close(row[key], float(value), rtol=1e-9, atol=1e-12):
            errors.append('rank %d: %s is %r, numpy says %r' % (r, key, row[key], value))
    if row['outlier'] != bool(abs(z[k]) > 3.5):
        errors.append('rank %d: outlier is %r, z = %r' % (r, row['outlier'], z[k]))

flagged = ','.join(str(row['rank']) for row in got['ranks'] if row['outlier'])
if flagged != expected_outliers:
    errors.append('flagged ranks %r, expected %r' % (flagged, expected_outliers))
if errors:
    sys.exit('\n'.join(errors))
