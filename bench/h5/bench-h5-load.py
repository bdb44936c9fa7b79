# bench-h5-load.py — tprof_profiled_time_load() of bench-cli's 10^7-sample, 64-rank profile, each in a fresh process, against plain H5Dread.
#
# Usage: bench-h5-load.py BENCH-H5-LOAD [BASELINE-LIBDIR]. With BASELINE-LIBDIR
# (a directory holding another build's libtprof-capture.so.0), that
# library's load is timed too, in the same run, for before/after figures.
# SPDX-License-Identifier: MIT
import os
import statistics
import subprocess
import sys
import tempfile

import h5py
import numpy as np

N_SAMPLES = 10_000_000
WORLD = 64
REPS = int(os.environ.get('TPROF_BENCH_REPS', '7'))


def make_profile(path):
    # as bench/cli/bench-cli.py writes it: what `tprof hist` is measured on
    rng = np.random.default_rng(7)
    ranks = np.repeat(np.arange(WORLD, dtype=np.int32), N_SAMPLES // WORLD)
    times = rng.gamma(4.0, 2.5e-4, size=ranks.size) * (1 + 0.01 * ranks)
    with h5py.File(path, 'w', track_order=True) as f:
        f.attrs['format'] = 'tprof-profile'
        f.attrs['format_version'] = 1
        f.attrs['world_size'] = WORLD
        step = f.create_group('timings', track_order=True).create_group('step')
        step.attrs['name'] = 'step'
        step['times'] = times
        step['ranks'] = ranks


def run_ms(argv, env=None):
    os.sync()   # no write-back of an earlier run during this one
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if done.returncode != 0:
        sys.exit('%s failed (%d): %s' % (argv[0], done.returncode, done.stderr))
    return float(done.stdout)


def main():
    tool = sys.argv[1]
    baseline_env = None
    if len(sys.argv) > 2:
        baseline_env = dict(os.environ, LD_LIBRARY_PATH=sys.argv[2])
    with tempfile.TemporaryDirectory(prefix='tprof-bench-load-') as tmp:
        profile = os.path.join(tmp, 'bench.h5')
        make_profile(profile)
        run_ms([tool, profile])   # the file into the page cache
        ours, plain, baseline = [], [], []
        # alternating, so that the machine's noise hits every side alike
        for _ in range(REPS):
            ours.append(run_ms([tool, profile]))
            plain.append(run_ms([tool, profile, '--plain']))
            if baseline_env is not None:
                baseline.append(run_ms([tool, profile], baseline_env))
    o, p = statistics.median(ours), statistics.median(plain)
    print('load of %d samples, %d ranks, fresh process, medians of %d runs' % (N_SAMPLES, WORLD, REPS))
    print('  tprof_profiled_time_load %7.1f ms (range %.1f-%.1f)' % (o, min(ours), max(ours)))
    print('  plain H5Dread, unchecked %7.1f ms (range %.1f-%.1f) -> load is %.2fx faster'
          % (p, min(plain), max(plain), p / o))
    if baseline:
        b = statistics.median(baseline)
        print('  baseline library load    %7.1f ms (range %.1f-%.1f) -> %.2fx faster now'
              % (b, min(baseline), max(baseline), b / o))
    return 0


if __name__ == '__main__':
    sys.exit(main())
