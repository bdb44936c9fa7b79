# check-plot-hosts.py — `tprof plot --kind heatmap --by host`: each host's row is the slowest of its ranks' cells (from --by rank's CSV and h5py's host names), the picture's rows, the refusals.
# Usage: check-plot-hosts.py TPROF MAKE_SCENARIO   (prints OK)
# SPDX-License-Identifier: MIT
import csv
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

TPROF, SCENARIO = sys.argv[1], sys.argv[2]


def run(*args):
    p = subprocess.run([TPROF, 'plot', *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def cells(path):
    with open(path, newline='') as f:
        rows = list(csv.reader(f))
    return rows[0], {(row[0], int(row[1]), int(row[2])): float(row[3]) for row in rows[1:]}


with tempfile.TemporaryDirectory() as tmp:
    node = os.path.join(tmp, 'slow-node.h5')
    subprocess.run([sys.executable, SCENARIO, 'slow-node', node, '--ranks', '64', '--steps', '30'], check=True,
                   capture_output=True)
    with h5py.File(node, 'r') as f:
        hosts = [h.decode() if isinstance(h, bytes) else h for h in f['ranks']['hostname'][()]]

    # the rows of ranks (checked against numpy in check-plot.py), gathered here by host
    for value in ('duration', 'deviation'):
        by_rank, by_host = os.path.join(tmp, 'rank.csv'), os.path.join(tmp, 'host.csv')
        assert run(node, '--op', 'backward', '--kind', 'heatmap', '--value', value, '-o', by_rank)[0] == 0
        status, _, err = run(node, '--op', 'backward', '--kind', 'heatmap', '--value', value, '--by', 'host',
                             '-o', by_host)
        assert status == 0 and err == '', err
        head, ranks = cells(by_rank)
        head_h, got = cells(by_host)
        assert head == ['rank', 'first', 'last', value] and head_h == ['host', 'first', 'last', value], head_h
        expected = {}
        for (rank, lo, hi), v in ranks.items():
            key = (hosts[int(rank)], lo, hi)
            expected[key] = max(expected.get(key, -np.inf), v)
        assert set(got) == set(expected), sorted(set(got) ^ set(expected))[:5]
        for key, v in expected.items():
            assert got[key] == v, (key, got[key], v)
        assert len({k[0] for k in got}) == 8

    # node004 (ranks 32-39, the middle host) is the slowest row of durations
    assert run(node, '--op', 'backward', '--kind', 'heatmap', '--by', 'host', '-o', by_host)[0] == 0
    _, got = cells(by_host)
    means = {h: np.mean([v for (hh, _, _), v in got.items() if hh == h]) for h in set(hosts)}
    assert max(means, key=means.get) == 'node004', means

    # a picture, and --by rank as without --by
    png = os.path.join(tmp, 'host.png')
    assert run(node, '--op', 'backward', '--kind', 'heatmap', '--by', 'host', '-o', png)[0] == 0
    with open(png, 'rb') as f:
        assert f.read(8) == b'\x89PNG\r\n\x1a\n'
    plain = os.path.join(tmp, 'plain.csv')
    assert run(node, '--op', 'backward', '--kind', 'heatmap', '--by', 'rank', '-o', plain)[0] == 0
    assert run(node, '--op', 'backward', '--kind', 'heatmap', '-o', by_rank)[0] == 0
    assert cells(plain) == cells(by_rank) and cells(plain)[0][0] == 'rank'

    def refused(expect, needle, *args):
        status, out, err = run(node, '--op', 'backward', *args)
        assert status == expect and needle in err and out == '', (status, err)

    refused(2, '--by and --topology group the rows of --kind heatmap only', '--kind', 'trend', '--by', 'host',
            '-o', png)
    refused(2, '--by "rack": not a level (rank, host;', '--kind', 'heatmap', '--by', 'rack', '-o', png)
    with h5py.File(node, 'a') as f:
        del f['ranks']['hostname']
    refused(1, 'no two ranks share a host name', '--kind', 'heatmap', '--by', 'host', '-o', png)
print('OK')
