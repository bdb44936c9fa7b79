# test_stragglers.py — tprof.stragglers(): the host, rank or nothing that kept the ranks waiting, against numpy and scipy on make-scenario.py profiles.
# Usage: test_stragglers.py MAKE_SCENARIO REFERENCE_DIR   (prints OK)
# SPDX-License-Identifier: MIT
import os
import subprocess
import sys
import tempfile

import numpy as np

import tprof

MAKE_SCENARIO, REFERENCE_DIR = sys.argv[1], sys.argv[2]
sys.path.insert(0, REFERENCE_DIR)
from stragglers_reference import arrival, verdict  # noqa: E402


def make(kind, path, *extra):
    subprocess.run([sys.executable, MAKE_SCENARIO, kind, path, *extra], check=True, capture_output=True)


with tempfile.TemporaryDirectory() as tmp:
    node = os.path.join(tmp, 'slow-node.h5')
    make('slow-node', node, '--ranks', '256', '--steps', '60')
    hosts, late, wait, expected, n = arrival(node)
    level, name, glate, gwait, rank = verdict([None, hosts], late, wait, expected, n)
    assert level == 1 and name == 'node016', (level, name)
    result = tprof.stragglers(node)                       # a path
    assert result['verdict'] == 'host' and result['level'] == 'host' and result['straggler'] == rank
    host = result['host']
    assert host['host'] == 'node016' and host['ranks'] == list(range(128, 136)), host
    assert host['late_count'] == glate and host['occurrences'] == n == result['occurrences'], host
    assert abs(host['wait_caused'] - gwait) <= 1e-9 * gwait, (host, gwait)
    assert result['synchronising'] == ['allreduce'], result['synchronising']
    assert result['late_count'].dtype == np.uint64 and np.array_equal(result['late_count'], late)
    assert np.allclose(result['wait_caused'], wait, rtol=1e-9, atol=0)
    # a loaded profile too, and by rank alone
    by_rank = tprof.stragglers(tprof.ProfiledTime.load(node), by='rank')
    assert by_rank['verdict'] == 'rank' and by_rank['host'] is None and by_rank['straggler'] == rank, by_rank

    # a rack of a topology file
    topo = os.path.join(tmp, 'topology.txt')
    with open(topo, 'w') as f:
        f.write('levels rack\n' + ''.join('host node%03d rack%d\n' % (h, h // 4) for h in range(32)))
    result = tprof.stragglers(node, topology=topo)
    assert result['level'] == 'rack' and result['verdict'] == 'host', result['verdict']
    assert result['host']['host'] == 'node016' and result['host']['level'] == 'host', result['host']

    # one slow rank in a normal host: the rank
    one = os.path.join(tmp, 'straggler.h5')
    make('straggler', one)
    result = tprof.stragglers(one)
    assert result['verdict'] == 'rank' and result['straggler'] == 1 and result['host'] is None, result

    # refusals
    for kwargs, error in (({'by': 'rack'}, ValueError), ({'topology': os.path.join(tmp, 'none.txt')}, tprof.FileError)):
        try:
            tprof.stragglers(one, **kwargs)
        except error as e:
            assert str(e), e
        else:
            raise AssertionError(kwargs)
    with open(topo, 'w') as f:
        f.write('levels rack\nhost node000 r0 extra\n')
    try:
        tprof.stragglers(one, topology=topo)
    except tprof.FormatError as e:
        assert ':2: 2 groups for 1 levels' in str(e), e
    else:
        raise AssertionError('bad topology accepted')
print('OK')
