# check-stragglers-hosts.py — `tprof stragglers` naming a slow host, a slow rank or a slow rack (and `tprof summary --by host`) against an independent numpy/scipy computation on make-scenario.py profiles.
# Usage: check-stragglers-hosts.py TPROF MAKE_SCENARIO   (prints OK)
# SPDX-License-Identifier: MIT
import json
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stragglers_reference import arrival, verdict  # noqa: E402

TPROF, MAKE_SCENARIO = sys.argv[1], sys.argv[2]


def run(*args):
    p = subprocess.run([TPROF, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def make(kind, path, *extra):
    subprocess.run([sys.executable, MAKE_SCENARIO, kind, path, *extra], check=True, capture_output=True)


def check(path, expect_kind, expect_name, *args, topology_levels=None):
    hosts, late, wait, expected, N = arrival(path)
    levels = [None, hosts] + (topology_levels or [])
    level, name, glate, gwait, rank = verdict(levels, late, wait, expected, N)
    status, out, err = run('stragglers', path, '--format', 'json', *args)
    assert status == 0 and err == '', (status, err)
    doc = json.loads(out)
    kind = 'host' if level > 0 else ('rank' if name is not None else 'none')
    assert kind == expect_kind, (path, kind, expect_kind)
    assert doc['verdict'] == kind, (doc['verdict'], kind)
    assert doc['straggler'] == rank, (doc['straggler'], rank)
    assert doc['occurrences'] == N
    if kind != 'host':
        assert doc['host'] is None and (kind == 'none' or doc['straggler'] == expect_name), doc['host']
        return doc, None
    host = doc['host']
    members = [r for r in range(len(late)) if levels[level][r] == name]
    assert name == expect_name and host['host'] == name, (host, name)
    assert host['ranks'] == members and host['late_count'] == glate and host['occurrences'] == N, host
    assert abs(host['wait_caused'] - gwait) <= 1e-9 * gwait, (host['wait_caused'], gwait)
    return doc, gwait / wait.sum()


with tempfile.TemporaryDirectory() as tmp:
    # a slow node at 1024 ranks: the host, last at (nearly) every allreduce
    node = os.path.join(tmp, 'slow-node.h5')
    make('slow-node', node)
    doc, share = check(node, 'host', 'node064')
    assert doc['host']['late_count'] >= 190 and share > 0.9, (doc['host'], share)
    status, out, _ = run('stragglers', node)
    lines = out.splitlines()
    assert status == 0 and lines[1].startswith('Straggler: host node064 (ranks 512-519), last to arrive %d of %d times'
                                               % (doc['host']['late_count'], doc['occurrences'])), lines[1]
    assert 'within it, rank %d is latest most often' % doc['host']['latest_rank'] in lines[1], lines[1]
    row = lines[4].split()
    assert row[0] == 'node064' and row[-1] == '%.0f%%' % (100 * share), (row, share)
    assert len(lines) == 3 + 1 + 10 + 1 and '10 of 128 rows' in lines[-1], lines   # --top's default
    status, out, _ = run('stragglers', node, '--top', '3')
    assert len(out.splitlines()) == 3 + 1 + 3 + 1, out
    # CSV carries the verdict on the host's row
    status, out, _ = run('stragglers', node, '--format', 'csv')
    csv = out.splitlines()
    assert csv[0] == 'host,ranks,late_count,wait_caused,verdict' and csv[1].startswith('node064,512-519,'), csv[:2]
    assert csv[1].endswith(',host') and len(csv) == 129 and not any(l.endswith(',host') for l in csv[2:]), csv[:3]
    # by rank alone: the rank test, no host
    status, out, _ = run('stragglers', node, '--by', 'rank', '--format', 'json', '--top', '5')
    by_rank = json.loads(out)
    assert by_rank['verdict'] == 'rank' and by_rank['host'] is None and len(by_rank['ranks']) == 5, by_rank

    # per-host totals of each operation, against h5py + numpy
    status, out, err = run('summary', node, '--by', 'host', '--format', 'json')
    assert status == 0 and err == '', err
    summary = json.loads(out)
    with h5py.File(node, 'r') as f:
        for op in summary['operations']:
            g = f['timings'][op['name']]
            t, r = g['times'][()], g['ranks'][()]
            assert len(op['groups']) == 128
            for grp in op['groups']:
                mask = np.isin(r, grp['ranks'])
                assert grp['count'] == mask.sum() and abs(grp['sum'] - t[mask].sum()) <= 1e-9 * t[mask].sum(), grp
                assert grp['ranks'] == list(range(int(grp['name'][4:]) * 8, int(grp['name'][4:]) * 8 + 8)), grp
    os.unlink(node)

    # 10^5 ranks, 20 steps
    big = os.path.join(tmp, 'slow-node-big.h5')
    make('slow-node', big, '--ranks', '100000', '--steps', '20')
    doc, share = check(big, 'host', 'node6250')
    assert doc['host']['ranks'] == list(range(50000, 50008)) and share > 0.9, doc['host']
    os.unlink(big)

    # one slow rank in an otherwise normal host: the rank, not its host
    one = os.path.join(tmp, 'straggler.h5')
    make('straggler', one, '--ranks', '64')
    check(one, 'rank', 1)
    status, out, _ = run('stragglers', one)
    assert 'Straggler: rank 1,' in out and 'host node000' not in out, out

    # only noise: nothing named, at any level
    none = os.path.join(tmp, 'none.h5')
    make('none', none, '--ranks', '64')
    check(none, 'none', None)
    status, out, _ = run('stragglers', none)
    assert 'No clear straggler' in out, out

    # a slow rack, named at rack level from a topology file (racks of 4 hosts, switches of 2)
    rack = os.path.join(tmp, 'slow-rack.h5')
    make('slow-rack', rack)
    topo = os.path.join(tmp, 'topology.txt')
    with open(topo, 'w') as f:
        f.write('# two hosts a switch, two switches a rack\nlevels switch rack\n')
        for h in range(32):
            f.write('host node%03d  sw%02d  rack%d\n' % (h, h // 2, h // 4))
    hosts = ['node%03d' % (r // 8) for r in range(256)]
    levels = [['sw%02d' % (r // 16) for r in range(256)], ['rack%d' % (r // 32) for r in range(256)]]
    doc, share = check(rack, 'host', 'rack1', '--topology', topo, '--by', 'rack', topology_levels=levels)
    assert doc['host']['level'] == 'rack' and doc['level'] == 'rack' and doc['host']['ranks'] == list(range(32, 64))
    status, out, _ = run('stragglers', rack, '--topology', topo)          # the highest level by default
    assert 'Straggler: rack rack1 (ranks 32-63)' in out, out
    # rank lines place ranks directly; a host split over two racks is refused
    with open(topo, 'w') as f:
        f.write('levels rack\nrank 0-31 r0\nrank 32-63 r1\nrank 64-255 r2\n')
    status, out, _ = run('stragglers', rack, '--topology', topo, '--by', 'rack', '--format', 'json')
    assert status == 0 and json.loads(out)['host']['host'] == 'r1', out

    # refusals: one line naming what is wrong
    def refused(expect_status, needle, *args):
        status, out, err = run(*args)
        assert status == expect_status and out == '' and err.count('\n') == 1 and needle in err, (args, status, err)

    bad = {
        'levels rack\nhost node000 r0 extra\n': ':2: 2 groups for 1 levels',
        'host node000 r0\n': ":1: 'host' before the 'levels' line",
        'levels rack\nswitch x\n': ":2: unknown line 'switch'",
        'levels rack rack\n': ":1: level 'rack' is named twice",
        'levels rack\nrank 0-300 r0\n': ":2: bad ranks '0-300'",
        'levels rack\nhost node000 r0\nhost node000 r1\n': ':3: host node000 already has a line (2)',
        'levels rack\nhost node000 r0\n': 'rank 8 (host node001) has no line',
        'levels rack\nrank 0-3 r0\nrank 4-255 r1\n': 'host node000 (rank 4) is in rack r0 and in rack r1',
        '# nothing\n': "no 'levels' line",
    }
    for text, needle in bad.items():
        with open(topo, 'w') as f:
            f.write(text)
        refused(1, topo + (needle if needle.startswith(':') else ': ' + needle), 'stragglers', rack, '--topology', topo)
    refused(1, 'No such file', 'stragglers', rack, '--topology', os.path.join(tmp, 'missing.txt'))
    refused(2, '--by "switch": not a level (rank, host;', 'stragglers', rack, '--by', 'switch')
    refused(2, '--top "0"', 'stragglers', rack, '--top', '0')
    refused(2, '--top "ten"', 'stragglers', rack, '--top', 'ten')
    refused(2, '--by "rack"', 'summary', rack, '--by', 'rack')
    refused(2, '--sort and --tree do not apply', 'summary', rack, '--by', 'host', '--sort', 'sum')
    with h5py.File(rack, 'a') as f:
        f['ranks']['hostname'][...] = np.array(['one'] * 256, dtype=object)
    status, out, _ = run('stragglers', rack)                           # one host: ranks by default
    assert status == 0 and out.splitlines()[3].startswith('Rank'), out
    with h5py.File(rack, 'a') as f:
        del f['ranks']['hostname']
    refused(1, 'no two ranks share a host name', 'stragglers', rack, '--by', 'host')
    status, out, _ = run('stragglers', rack)                           # no hosts: ranks, as before
    assert status == 0 and out.splitlines()[3].startswith('Rank'), out
print('OK')
