# check-hist-csv.py — `tprof hist -o X.csv` against numpy.histogram on the same data and bins.
# SPDX-License-Identifier: MIT
import argparse
import csv
import sys

import numpy as np

from profile_data import load, parse_ranks

parser = argparse.ArgumentParser()
parser.add_argument('profile')
parser.add_argument('op')
parser.add_argument('csv')
parser.add_argument('--bins', default='auto')
parser.add_argument('--ranks')
parser.add_argument('--separate-ranks', action='store_true')
parser.add_argument('--log-x', action='store_true')
parser.add_argument('--max-auto-bins', type=int, help="the cap on 'auto' (numpy's rule has none)")
args = parser.parse_args()


def auto_bin_count(values):
    # numpy's own 'auto' width, without building its (possibly huge) edges
    ptp = values.max() - values.min()
    if ptp == 0:
        return 1
    width = np.lib.histograms._hist_bin_auto(values, (values.min(), values.max()))
    return int(np.ceil(ptp / width)) if width else 1


def capped(bins, values):
    if bins != 'auto' or args.max_auto_bins is None:
        return bins
    count = auto_bin_count(values)
    return 'auto' if count <= args.max_auto_bins else args.max_auto_bins


_, ops = load(args.profile)
times, ranks = next((t, r) for name, t, r in ops if name == args.op)
if args.ranks:
    keep = np.isin(ranks, parse_ranks(args.ranks))
    times, ranks = times[keep], ranks[keep]

with open(args.csv, newline='') as f:
    rows = list(csv.reader(f))
header, body = rows[0], rows[1:]
left = np.array([float(r[0]) for r in body])
right = np.array([float(r[1]) for r in body])
counts = np.array([int(r[2]) for r in body])
errors = []

bins = args.bins if args.bins == 'auto' else int(args.bins)
if args.log_x:
    positive = times[times > 0]
    n_bins = capped(bins, np.log10(positive))
    n_bins = np.histogram_bin_edges(np.log10(positive), 'auto').size - 1 if n_bins == 'auto' else n_bins
    edges = np.logspace(np.log10(positive.min()), np.log10(positive.max()), n_bins + 1)
    data = positive
else:
    edges = np.histogram_bin_edges(times, bins=capped(bins, times))
    data = times
expected_counts, _ = np.histogram(data, bins=edges)

if len(body) != len(edges) - 1:
    errors.append('%d bins, numpy has %d' % (len(body), len(edges) - 1))
else:
    if not np.allclose(left, edges[:-1], rtol=1e-12, atol=0) or not np.allclose(right, edges[1:], rtol=1e-12, atol=0):
        errors.append('edges differ from numpy: %r vs %r' % (list(left[:3]), list(edges[:3])))
    if not np.all(right[:-1] == left[1:]):
        errors.append('bins are not contiguous')
    if args.log_x:
        # edges computed independently may differ in the last bit: count on our own edges
        expected_counts, _ = np.histogram(data, bins=np.append(left, right[-1]))
    if not np.array_equal(counts, expected_counts):
        errors.append('counts %r, numpy %r' % (list(counts), list(expected_counts)))

expected_header = ['left', 'right', 'count']
if args.separate_ranks:
    present = np.unique(ranks)
    expected_header += ['rank_%d' % r for r in present]
    our_edges = np.append(left, right[-1])
    for k, r in enumerate(present):
        column = np.array([int(row[3 + k]) for row in body])
        want, _ = np.histogram(data[ranks[times > 0] == r] if args.log_x else times[ranks == r], bins=our_edges)
        if not np.array_equal(column, want):
            errors.append('rank %d counts %r, numpy %r' % (r, list(column), list(want)))
    total = sum(np.array([int(row[3 + k]) for row in body]) for k in range(len(present)))
    if not np.array_equal(total, counts):
        errors.append('per-rank counts do not add up to the counts')
if header != expected_header:
    errors.append('header %r, expected %r' % (header, expected_header))

if errors:
    sys.exit('\n'.join(errors))
