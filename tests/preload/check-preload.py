# check-preload.py — tprof-run and libtprof-preload.so on unmodified MPI programs: what each rank called is in the profile, and the program's own output and exit status are untouched.
# Usage: check-preload.py TPROF_RUN MPIEXEC NP THREADS_PROGRAM ABORT_PROGRAM DEMO_PROGRAM
#        check-preload.py TPROF_RUN MPIEXEC NP --hpcc   (HPC Challenge from Debian's hpcc; 77 = skipped)
# SPDX-License-Identifier: MIT
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import profile_h5  # noqa: E402  (tests/profile_h5.py)

THREADS, ROUNDS = 3, 20   # as in preload-threads.c


def run(argv, cwd, env=None, timeout=300):
    full_env = dict(os.environ)
    full_env.pop('TPROF_OUTPUT', None)
    full_env.update(env or {})
    return subprocess.run(argv, cwd=cwd, env=full_env, capture_output=True, text=True, timeout=timeout)


def operations(path):
    """name -> (times, ranks, threads, starts) as numpy arrays, read with h5py alone."""
    out = {}
    with h5py.File(path, 'r') as f:
        world = int(f.attrs['world_size'])
        for name, g in profile_h5.operations(f):
            out[name] = tuple(g[k][()] for k in ('times', 'ranks', 'threads', 'starts'))
    return world, out


def said_where(stderr, path):
    pattern = r'^tprof: profile of \d+ ranks? \(\d+ operations?\) written to ' + re.escape(os.path.realpath(path)) + '$'
    assert re.search(pattern, stderr, re.M), stderr


def no_leftovers(directory, expected=()):
    left = sorted(set(os.listdir(directory)) - set(expected))
    assert not left, left


def check_threads(tprof_run, mpiexec, np_, program, work):
    out = os.path.join(work, 'threads.h5')
    r = run([tprof_run, '-o', 'threads.h5', mpiexec, '-n', str(np_), program], work)
    if r.returncode == 77:
        print('skipped: no MPI_THREAD_MULTIPLE')
        return
    assert r.returncode == 0, (r.returncode, r.stdout, r.stderr)
    # every rank printed its line (MPICH's launcher may interleave the
    # ranks' lines and newlines)
    assert r.stdout.count('preload-threads: done') == np_, r.stdout
    assert r.stdout.replace('preload-threads: done', '').strip() == '', r.stdout
    said_where(r.stderr, out)
    world, ops = operations(out)
    assert world == np_
    expected = {
        'MPI_Init_thread': np_,
        'MPI_Comm_dup': np_ * THREADS,
        'MPI_Comm_free': np_ * THREADS,
        'MPI_Barrier': np_ * ROUNDS,
        'user/compute': np_ * ROUNDS,
        'MPI_Isend': np_ * THREADS * ROUNDS,
        'MPI_Irecv': np_ * THREADS * ROUNDS,
        'MPI_Waitall': np_ * THREADS * ROUNDS,
        'MPI_Allreduce': np_ * THREADS * ROUNDS,
    }
    assert {k: len(v[0]) for k, v in ops.items()} == expected, {k: len(v[0]) for k, v in ops.items()}
    for name, (times, ranks, threads, starts) in ops.items():
        assert np.all(np.isfinite(times)) and np.all(times >= 0), name
        per_rank = expected[name] // np_
        assert np.array_equal(np.bincount(ranks, minlength=np_), np.full(np_, per_rank)), (name, ranks)
    # every worker thread of every rank recorded its own calls; the main
    # thread (the one that called MPI_Init_thread) recorded the rest
    main_threads = {(r, t) for r, t in zip(ops['MPI_Init_thread'][1], ops['MPI_Init_thread'][2])}
    for rank in range(np_):
        _, ranks, threads, _ = ops['MPI_Allreduce']
        workers = set(threads[ranks == rank])
        assert len(workers) == THREADS, (rank, workers)
        assert not {(rank, t) for t in workers} & main_threads
        for name in ('MPI_Barrier', 'user/compute'):
            _, ranks, threads, _ = ops[name]
            assert {(rank, t) for t in threads[ranks == rank]} <= main_threads, name
    # each barrier lies inside its TPROF_SCOPE region
    ct, cr, _, cs = ops['user/compute']
    bt, br, _, bs = ops['MPI_Barrier']
    for rank in range(np_):
        c0, c1 = cs[cr == rank], cs[cr == rank] + ct[cr == rank]
        b0, b1 = bs[br == rank], bs[br == rank] + bt[br == rank]
        assert np.all(c0 <= b0 + 1e-9) and np.all(b1 <= c1 + 1e-9), rank


def check_sample_limit(tprof_run, mpiexec, np_, program, work):
    """TPROF_SAMPLE_LIMIT bounds what each thread keeps of each call; the
    file says how many calls each rank made (rank_recorded)."""
    d = tempfile.mkdtemp(dir=work)
    limit = 7
    r = run([tprof_run, '-o', 'limited.h5', mpiexec, '-n', str(np_), program], d,
            env={'TPROF_SAMPLE_LIMIT': str(limit)})
    if r.returncode == 77:
        return
    assert r.returncode == 0, (r.returncode, r.stdout, r.stderr)
    with h5py.File(os.path.join(d, 'limited.h5'), 'r') as f:
        groups = profile_h5.operation_dict(f)
        # 20 barriers a rank, on the main thread: 7 kept, 20 recorded
        g = groups['MPI_Barrier']
        assert list(g['rank_recorded'][()]) == [ROUNDS] * np_, g['rank_recorded'][()]
        assert list(g['rank_count'][()]) == [limit] * np_
        assert g.attrs['count'] == ROUNDS * np_
        # one Allreduce a round on each of THREADS threads: 7 kept by each
        g = groups['MPI_Allreduce']
        assert list(g['rank_recorded'][()]) == [THREADS * ROUNDS] * np_
        assert list(g['rank_count'][()]) == [THREADS * limit] * np_
        # MPI_Init_thread: once, not sampled
        assert 'rank_recorded' not in groups['MPI_Init_thread']
    # a value that is not a number is said and ignored
    r = run([tprof_run, '-o', 'bad.h5', mpiexec, '-n', str(np_), program], d,
            env={'TPROF_SAMPLE_LIMIT': 'lots'})
    assert r.returncode == 0, (r.returncode, r.stderr)
    assert 'TPROF_SAMPLE_LIMIT=lots is not a number' in r.stderr, r.stderr
    with h5py.File(os.path.join(d, 'bad.h5'), 'r') as f:
        assert all('rank_recorded' not in g for g in profile_h5.operation_dict(f).values())


def check_abort(tprof_run, mpiexec, np_, program, work):
    d = tempfile.mkdtemp(dir=work)
    r = run([tprof_run, '-o', 'abort.h5', mpiexec, '-n', str(np_), program], d, timeout=120)
    assert r.returncode != 0, (r.stdout, r.stderr)
    assert 'tprof: profile' not in r.stderr, r.stderr
    no_leftovers(d)


def check_without_mpi(tprof_run, work):
    d = tempfile.mkdtemp(dir=work)
    r = run([tprof_run, '-o', 'none.h5', 'sh', '-c', 'echo plain; echo to-stderr >&2; exit 3'], d)
    assert (r.returncode, r.stdout, r.stderr) == (3, 'plain\n', 'to-stderr\n'), r
    no_leftovers(d)


def check_demo(tprof_run, mpiexec, np_, demo, work):
    d = tempfile.mkdtemp(dir=work)
    argv = [mpiexec, '-n', str(np_), demo, '--quiet', '--iterations', '20', '--straggler', str(np_ - 1), '--output', 'own.h5']
    plain = run(argv, d)
    assert plain.returncode == 0, plain.stderr
    # TPROF_OUTPUT unset: tprof-PID.h5 in the working directory
    profiled = run([tprof_run] + argv, d)
    assert (profiled.returncode, profiled.stdout) == (plain.returncode, plain.stdout), (plain, profiled)
    written = glob.glob(os.path.join(d, 'tprof-*.h5'))
    assert len(written) == 1, os.listdir(d)
    said_where(profiled.stderr, written[0])
    world, ops = operations(written[0])
    assert world == np_
    # MPI calls and the demo's own regions, in one file
    assert {'MPI_Init', 'MPI_Allreduce', 'forward', 'backward'} <= set(ops), sorted(ops)
    assert len(ops['MPI_Init'][0]) == np_


def check_parallel_save(tprof_run, mpiexec, np_, demo, work):
    """TPROF_SAVE=parallel: every rank writes into tprof-PID.h5 (rank 0's
    PID), which holds what the gathered save holds; an unknown value is
    named and the profile gathered."""
    d = tempfile.mkdtemp(dir=work)
    argv = [tprof_run, mpiexec, '-n', str(np_), demo, '--quiet', '--iterations', '20', '--output', 'own.h5']
    gathered = run(argv, d, env={'TPROF_OUTPUT': 'gathered.h5'})
    assert gathered.returncode == 0, gathered.stderr
    parallel = run(argv, d, env={'TPROF_SAVE': 'parallel'})
    assert parallel.returncode == 0, parallel.stderr
    written = glob.glob(os.path.join(d, 'tprof-*.h5'))
    assert len(written) == 1, os.listdir(d)
    pattern = r'^tprof: profile of %d ranks? written in parallel to %s$' % (np_, re.escape(os.path.realpath(written[0])))
    assert re.search(pattern, parallel.stderr, re.M), parallel.stderr
    _, ops_g = operations(os.path.join(d, 'gathered.h5'))
    world, ops_p = operations(written[0])
    assert world == np_
    # two runs: polling calls (MPI_Test) vary in number, durations differ;
    # the demo's regions and its collectives do not
    assert {'MPI_Init', 'MPI_Allreduce', 'forward', 'backward'} <= set(ops_p), sorted(ops_p)
    for name in ('MPI_Init', 'MPI_Allreduce', 'forward', 'backward'):
        assert np.array_equal(ops_p[name][1], ops_g[name][1]), name
    no_leftovers(d, ['own.h5', 'gathered.h5', os.path.basename(written[0])])
    odd = run(argv, d, env={'TPROF_SAVE': 'sideways', 'TPROF_OUTPUT': 'odd.h5'})
    assert odd.returncode == 0, odd.stderr
    assert "TPROF_SAVE=sideways is neither 'gather' nor 'parallel'" in odd.stderr, odd.stderr
    said_where(odd.stderr, os.path.join(d, 'odd.h5'))


def check_command_line(tprof_run, work):
    for argv, message in (([tprof_run, '--bogus', 'true'], "unknown option '--bogus'"),
                          ([tprof_run], 'no command to run'),
                          ([tprof_run, '-o'], "option '-o' needs a file name"),
                          ([tprof_run, '--output=', 'true'], "option '--output' needs a file name")):
        r = run(argv, work)
        assert r.returncode == 2 and message in r.stderr, (argv, r)
    r = run([tprof_run, '--help'], work)
    assert r.returncode == 0 and r.stdout.startswith('Usage: tprof-run'), r


def check_unwritable(tprof_run, mpiexec, program, work):
    r = run([tprof_run, '-o', os.path.join(work, 'missing', 'dir', 'x.h5'), mpiexec, '-n', '1', program], work)
    if r.returncode == 77:
        return
    # the program's own result stands; the profile's failure is said
    assert r.returncode == 0, r
    assert re.search(r'^tprof: no profile written: .*missing/dir', r.stderr, re.M), r.stderr


def check_hpcc(tprof_run, mpiexec, np_, work):
    hpcc = shutil.which('hpcc')
    if hpcc is None or not os.path.exists('/usr/share/doc/hpcc/examples/_hpccinf.txt'):
        print('skipped: Debian\'s hpcc is not installed')
        sys.exit(77)
    shutil.copy('/usr/share/doc/hpcc/examples/_hpccinf.txt', os.path.join(work, 'hpccinf.txt'))
    r = run([tprof_run, '-o', 'hpcc.h5', mpiexec, '-n', str(np_), hpcc], work, timeout=900)
    assert r.returncode == 0, (r.stdout, r.stderr)
    with open(os.path.join(work, 'hpccoutf.txt')) as f:
        assert 'End of HPC Challenge tests.' in f.read()
    said_where(r.stderr, os.path.join(work, 'hpcc.h5'))
    world, ops = operations(os.path.join(work, 'hpcc.h5'))
    assert world == np_
    for name in ('MPI_Init', 'MPI_Allreduce', 'MPI_Bcast', 'MPI_Sendrecv', 'MPI_Alltoall', 'MPI_Barrier'):
        assert name in ops and set(ops[name][1]) == set(range(np_)), (name, sorted(ops))
    print('\n'.join('%-16s %9d calls %10.3f s' % (n, len(v[0]), v[0].sum()) for n, v in sorted(ops.items())))


def main():
    tprof_run, mpiexec, np_ = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), int(sys.argv[3])
    work = tempfile.mkdtemp(prefix='tprof-preload-')
    try:
        if sys.argv[4] == '--hpcc':
            check_hpcc(tprof_run, mpiexec, np_, work)
            return
        # meson passes the programs relative to the build directory
        threads, abort, demo = (os.path.abspath(p) for p in sys.argv[4:7])
        check_command_line(tprof_run, work)
        check_without_mpi(tprof_run, work)
        check_threads(tprof_run, mpiexec, np_, threads, work)
        check_sample_limit(tprof_run, mpiexec, np_, threads, work)
        check_abort(tprof_run, mpiexec, np_, abort, work)
        check_demo(tprof_run, mpiexec, np_, demo, work)
        check_parallel_save(tprof_run, mpiexec, np_, demo, work)
        check_unwritable(tprof_run, mpiexec, threads, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
