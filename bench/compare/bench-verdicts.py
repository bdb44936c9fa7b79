# bench-verdicts.py — how often `tprof compare` calls identical demo runs different (A/A), and how often it finds rank 1 made 10 % slower (power), one and three runs a side.
#
# Usage: bench-verdicts.py MPIEXEC DEMO TPROF
# Runs the demo (examples/mpi-training) many times on this machine: a pool
# of unchanged runs (--straggler 1 --straggler-factor 1.0) and a pool with
# rank 1's compute 10 % heavier (--straggler-factor 1.1), interleaved so
# that a drift of the machine over the benchmark falls on both alike. Some
# runs of the unchanged pool, spread over the benchmark's time, calibrate
# the noise (--calibrate) and take part in no pair. Then, over pairs drawn from the rest:
#   A/A, one run a side: every pair of two unchanged runs, all ranks;
#   A/A, three runs a side: disjoint triples, all ranks;
#   power: unchanged against slower, --ranks 1, forward and backward slower?
# each with the verdict as it is by default and with --noise (the
# calibration). Environment: TPROF_BENCH_ITERATIONS (demo iterations, 100),
# TPROF_BENCH_RUNS_A (unchanged runs, 26), TPROF_BENCH_RUNS_B (slower runs,
# 12), TPROF_BENCH_CALIBRATION (unchanged runs that calibrate, 8),
# TPROF_BENCH_PAIRS (triples drawn, 40), TPROF_BENCH_RANKS (demo ranks, 4).
# SPDX-License-Identifier: MIT
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

MPIEXEC, DEMO, TPROF = sys.argv[1:4]
ITERATIONS = int(os.environ.get('TPROF_BENCH_ITERATIONS', '100'))
RUNS_A = int(os.environ.get('TPROF_BENCH_RUNS_A', '26'))
RUNS_B = int(os.environ.get('TPROF_BENCH_RUNS_B', '12'))
CALIBRATION = int(os.environ.get('TPROF_BENCH_CALIBRATION', '8'))
PAIRS = int(os.environ.get('TPROF_BENCH_PAIRS', '40'))
RANKS = int(os.environ.get('TPROF_BENCH_RANKS', '4'))
random.seed(20261205)
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1', LANGUAGE='', LC_ALL='C.UTF-8')


def demo(path, factor):
    subprocess.run([MPIEXEC, '-n', str(RANKS), DEMO, '--quiet', '--iterations', str(ITERATIONS),
                    '--straggler', '1', '--straggler-factor', factor, '--output', path],
                   check=True, env=env, stdout=subprocess.DEVNULL)


def compare(*args):
    p = subprocess.run([TPROF, 'compare', '--format', 'json', *args], capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit('tprof compare %s: %s' % (' '.join(args), p.stderr.strip()))
    return {o['name']: o['verdict'] for o in json.loads(p.stdout)['operations']}


def sides(base, new):
    if len(base) == 1 and len(new) == 1:
        return [base[0], new[0]]
    return [x for p in base for x in ('--base', p)] + [x for p in new for x in ('--new', p)]


def rate(label, pairs, judge, target=None):
    hits, culprits = 0, {}
    for base, new, extra in pairs:
        verdicts = compare(*sides(base, new), *extra)
        hit, names = judge(verdicts)
        hits += hit
        for name in names:
            culprits[name] = culprits.get(name, 0) + 1
    share = 100.0 * hits / len(pairs)
    detail = ', '.join('%s %d' % kv for kv in sorted(culprits.items(), key=lambda kv: -kv[1]))
    print('%-58s %3d of %3d pairs = %5.1f %%%s%s' % (label, hits, len(pairs), share,
                                                   '' if target is None else '  (target %s)' % target,
                                                   '  [%s]' % detail if detail else ''))
    sys.stdout.flush()


def not_same(verdicts):
    names = [n for n, v in verdicts.items() if v != 'same']
    return bool(names), names


def both_slower(verdicts):
    ok = verdicts.get('forward') == 'slower' and verdicts.get('backward') == 'slower'
    return ok, [n for n in ('forward', 'backward') if verdicts.get(n) == 'slower']


def triples(pool, count):
    """count pairs of disjoint triples drawn from pool (runs reused across pairs)."""
    out = []
    for _ in range(count):
        six = random.sample(pool, 6)
        out.append((six[:3], six[3:]))
    return out


def main():
    work = tempfile.mkdtemp(prefix='tprof-bench-verdicts-')
    try:
        started = time.monotonic()
        a, b = [], []
        for i in range(max(RUNS_A, RUNS_B)):
            for pool, factor, count, tag in ((a, '1.0', RUNS_A, 'a'), (b, '1.1', RUNS_B, 'b')):
                if i < count:
                    path = os.path.join(work, '%s%02d.h5' % (tag, i))
                    demo(path, factor)
                    pool.append(path)
        print('%d unchanged and %d slower demo runs (%d ranks, %d iterations) in %.0f s'
              % (len(a), len(b), RANKS, ITERATIONS, time.monotonic() - started))
        # calibrating runs spread over the benchmark's time, as the pairs' runs are
        step = max(1, len(a) // CALIBRATION)
        calibration = a[::step][:CALIBRATION]
        rest = [x for x in a if x not in calibration]
        noise_all, noise_rank1 = os.path.join(work, 'noise.csv'), os.path.join(work, 'noise-rank1.csv')
        for path, extra in ((noise_all, []), (noise_rank1, ['--ranks', '1'])):
            p = subprocess.run([TPROF, 'compare', '--calibrate', *calibration, '--format', 'csv', *extra],
                               capture_output=True, text=True, env=env, check=True)
            with open(path, 'w') as f:
                f.write(p.stdout)
        print('calibrated on %d unchanged runs; pairs drawn from the other %d' % (len(calibration), len(rest)))
        print(subprocess.run([TPROF, 'compare', '--calibrate', *calibration], capture_output=True, text=True,
                             env=env).stdout)

        aa_one = [([x], [y], []) for x, y in itertools.combinations(rest, 2)]
        aa_three = [(x, y, []) for x, y in triples(rest, PAIRS)]
        power_one = [([random.choice(rest)], [random.choice(b)], ['--ranks', '1'])
                     for _ in range(max(PAIRS, 40))]
        power_three = [(random.sample(rest, 3), random.sample(b, 3), ['--ranks', '1']) for _ in range(PAIRS)]

        def with_noise(pairs, path):
            return [(x, y, extra + ['--noise', path]) for x, y, extra in pairs]

        print('A/A: pairs of unchanged runs with any verdict other than "same" (all ranks)')
        rate('  one run a side (the run, its spread bounded from inside)', aa_one, not_same)
        rate('  one run a side, --noise (calibrated spread)', with_noise(aa_one, noise_all), not_same, '<= 5 %')
        rate('  three runs a side (run medians)', aa_three, not_same, '<= 5 %')
        rate('  three runs a side, --noise', with_noise(aa_three, noise_all), not_same, '<= 5 %')
        print('Power: rank 1 10 % slower, --ranks 1: forward and backward both "slower"')
        rate('  one run a side (the run, its spread bounded from inside)', power_one, both_slower)
        rate('  one run a side, --noise (calibrated spread)', with_noise(power_one, noise_rank1), both_slower)
        rate('  three runs a side (run medians)', power_three, both_slower, '>= 90 %')
        rate('  three runs a side, --noise', with_noise(power_three, noise_rank1), both_slower, '>= 90 %')
        print('A/A with --ranks 1 (the power pairs\' ranks), one and three runs a side')
        rate('  one run a side', [(x, y, ['--ranks', '1']) for x, y, _ in aa_one], not_same)
        rate('  one run a side, --noise', with_noise([(x, y, ['--ranks', '1']) for x, y, _ in aa_one], noise_rank1),
             not_same)
        rate('  three runs a side', [(x, y, ['--ranks', '1']) for x, y, _ in aa_three], not_same)
        print('total %.0f s' % (time.monotonic() - started))
    finally:
        shutil.rmtree(work)


main()
