# check-breakdown-hosts.py — the Breakdown chart's CSV of hosts against numpy: a row per host, its ranks' parts summed.
#
# Usage: check-breakdown-hosts.py CSV FILE OP
#   CSV   the chart's export, its bars hosts: host,PART...,OP (self)
#   FILE  the profile: its operations' samples and ranks/hostname
#   OP    the operation broken down; every other operation is taken to
#         run inside it (as make-scenario.py writes them)
# Exits non-zero, saying what differs, unless every host with samples has
# one row, in the file's host order, each part within 1e-9 of numpy's.
# SPDX-License-Identifier: MIT

import csv
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import profile_h5  # noqa: E402  (tests/profile_h5.py)


def per_rank_sums(op, world):
    return np.bincount(op['ranks'], weights=op['times'], minlength=world)


def main():
    csv_path, path, name = sys.argv[1:4]
    with h5py.File(path, 'r') as f:
        world = int(f.attrs['world_size'])
        hostnames = np.array(f['ranks/hostname'].asstr()[()])
        ops = profile_h5.operation_dict(f)
    with open(csv_path, newline='') as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], rows[1:]
    parts = header[1:-1]
    if header[0] != 'host' or header[-1] != name + ' (self)' or sorted(parts) != sorted(set(ops) - {name}):
        sys.exit('header %r: want host, the operations inside %s, then its self time' % (header, name))

    sums = {op: per_rank_sums(ops[op], world) for op in ops}
    self_time = sums[name] - sum(sums[p] for p in parts)
    hosts = list(dict.fromkeys(hostnames))
    if [row[0] for row in rows] != hosts:
        sys.exit('hosts %s... : want one row per host in rank order, %s...' % ([r[0] for r in rows][:4], hosts[:4]))
    for row in rows:
        on_host = hostnames == row[0]
        want = [sums[p][on_host].sum() for p in parts] + [self_time[on_host].sum()]
        got = [float(x) for x in row[1:]]
        if not np.allclose(got, want, rtol=1e-9, atol=0):
            sys.exit('%s: got %s, numpy says %s' % (row[0], got, want))
    print('%d hosts, %d parts: as numpy' % (len(rows), len(header) - 1))


main()
