# check-spill-demo.py — the training demo under tprof-run --spill on 4 ranks: kept, removed, killed -9, stopped by SIGTERM.
# SPDX-License-Identifier: MIT
"""Usage: check-spill-demo.py TPROF_RUN MPIEXEC DEMO"""

import glob
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.dirname(here))
import profile_h5  # noqa: E402
import spill_journal  # noqa: E402

TPROF_RUN, MPIEXEC, DEMO = (os.path.abspath(a) for a in sys.argv[1:4])
NP = 4


def start(d, spill, iterations, keep, interval="0.3"):
    env = dict(os.environ, TPROF_SPILL_INTERVAL=interval, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    cmd = [TPROF_RUN, "--spill", spill] + (["--keep-spill"] if keep else []) + \
          ["-o", os.path.join(d, "run.h5"), MPIEXEC, "-n", str(NP), DEMO, "--quiet", "-i", str(iterations),
           "--output", os.path.join(d, "demo.h5")]
    return subprocess.Popen(cmd, cwd=d, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def check_ended_note(spill, profile):
    """A clean end removes the spill files and leaves only the note naming
    the profile it wrote."""
    left = os.listdir(spill)
    assert len(left) == 1 and re.fullmatch(r"tprof-[0-9a-f]{16}\.ended", left[0]), left
    with open(os.path.join(spill, left[0])) as f:
        note = f.read()
    assert note == profile + "\n", (note, profile)


def journals(spill):
    files = sorted(glob.glob(os.path.join(spill, "*.spill")))
    js = [spill_journal.read(f) for f in files]
    assert len(js) == NP, "want %d spill files, found %s" % (NP, files)
    assert len({j.header["token"] for j in js}) == 1, "files of several jobs"
    assert sorted(j.header["rank"] for j in js) == list(range(NP)), [j.header["rank"] for j in js]
    for j, f in zip(js, files):
        h = j.header
        assert f.endswith("tprof-%016x-%d.spill" % (h["token"], h["rank"])), f
        assert h["world_size"] == NP and h["host"] and h["interval"] == 0.3, h
        assert (h["clock_offset_error"] == 0) == (h["rank"] == 0), h
        # one host, one clock: the true offset is 0, and it lies within the
        # error bound (half the best round trip), however busy the machine
        # made that round trip (11 ms seen under MPICH at load 8)
        assert abs(h["clock_offset"]) <= h["clock_offset_error"] + 1e-6 and h["clock_offset_error"] < 1.0, h
    return sorted(js, key=lambda j: j.header["rank"])


def wait_for_flushes(p, spill, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if p.poll() is not None:
            raise AssertionError("the job ended before every rank flushed: %d, %s" % (p.returncode, p.stderr.read()))
        files = glob.glob(os.path.join(spill, "*.spill"))
        if len(files) == NP and all(spill_journal.read(f).commits for f in files):
            return
        time.sleep(0.2)
    raise AssertionError("no flush on every rank within %g s" % seconds)


def test_kept_equals_profile():
    with tempfile.TemporaryDirectory() as d:
        spill = os.path.join(d, "spill")
        p = start(d, spill, 60, keep=True)
        out, err = p.communicate(timeout=240)
        assert p.returncode == 0, (p.returncode, err)
        js = journals(spill)
        with h5py.File(os.path.join(d, "run.h5"), "r") as f:
            ops = profile_h5.operation_dict(f)
        for j in js:
            rank = j.header["rank"]
            assert j.end is not None and j.tail is None, (rank, j.end, j.tail)
            want_path = os.path.realpath(os.path.join(d, "run.h5")) if rank == 0 else ""
            assert j.end[1] == want_path, (rank, j.end)
            names = {name for name, _ in j.samples}
            for name, op in ops.items():
                mine = np.sort(op["times"][()][op["ranks"][()] == rank])
                spilled = np.sort(np.concatenate([j.samples[k][0] for k in j.samples if k[0] == name])
                                  if name in names else np.zeros(0))
                assert len(mine) == len(spilled), (rank, name, len(mine), len(spilled))
                np.testing.assert_allclose(spilled, mine, rtol=1e-5, atol=1e-9, err_msg="%s rank %d" % (name, rank))
            assert names <= set(ops), names - set(ops)


def test_clean_end_removes():
    with tempfile.TemporaryDirectory() as d:
        spill = os.path.join(d, "spill")
        p = start(d, spill, 20, keep=False)
        out, err = p.communicate(timeout=240)
        assert p.returncode == 0, (p.returncode, err)
        check_ended_note(spill, os.path.join(d, "run.h5"))


def kill_ranks(spill, signo):
    for j in journals(spill):
        try:
            os.kill(j.header["pid"], signo)
        except ProcessLookupError:
            pass


def test_kill9_every_rank():
    for attempt in range(3):
        with tempfile.TemporaryDirectory() as d:
            spill = os.path.join(d, "spill")
            p = start(d, spill, 100000, keep=False)
            wait_for_flushes(p, spill, 60)
            time.sleep(1.0)
            kill_ranks(spill, signal.SIGKILL)
            p.communicate(timeout=60)
            for j in journals(spill):
                assert j.end is None and j.commits and j.total() > 0, (j.header["rank"], j.total())
                assert j.tail is None or j.tail[1].startswith("incomplete"), j.tail
                assert any(name == "MPI_Allreduce" for name, _ in j.samples), sorted(j.samples)


def process_tree():
    """{pid: (parent pid, state letter)} of every process now."""
    procs = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open("/proc/%s/stat" % name) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            procs[int(name)] = (int(fields[1]), fields[0])
    return procs


def launcher_processes(root, ranks):
    """The processes below @root (itself included) that are not ranks:
    the launcher and its helpers."""
    procs, found, todo = process_tree(), [], [root]
    while todo:
        pid = todo.pop()
        if pid not in ranks:
            found.append(pid)
        todo.extend(child for child, (parent, _) in procs.items() if parent == pid)
    return found


def wait_ranks_gone(ranks, seconds):
    """Waits until every rank has ended (gone, or a zombie of a stopped parent)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        procs = process_tree()
        if all(pid not in procs or procs[pid][1] == "Z" for pid in ranks):
            return
        time.sleep(0.1)
    raise AssertionError("ranks still running %g s after SIGTERM" % seconds)


def test_sigterm_flushes():
    with tempfile.TemporaryDirectory() as d:
        spill = os.path.join(d, "spill")
        p = start(d, spill, 100000, keep=False, interval="0.3")
        wait_for_flushes(p, spill, 60)
        # Once a rank has died of a signal, the launcher stops the others:
        # Open MPI's mpirun with a SIGTERM of its own, MPICH's with SIGKILL,
        # which can land before a rank busy in a collective has run its
        # handler on a loaded machine. What is tested is each rank's answer
        # to our SIGTERM, so the launcher is held stopped until every rank
        # has ended, as a batch system's SIGTERM to every task would leave
        # them time to.
        ranks = {j.header["pid"] for j in journals(spill)}
        launcher = launcher_processes(p.pid, ranks)
        for pid in launcher:
            os.kill(pid, signal.SIGSTOP)
        try:
            kill_ranks(spill, signal.SIGTERM)
            wait_ranks_gone(ranks, 60)
        finally:
            for pid in launcher:
                try:
                    os.kill(pid, signal.SIGCONT)
                except ProcessLookupError:
                    pass
        p.communicate(timeout=60)
        assert p.returncode != 0, "the job went on after SIGTERM"
        for j in journals(spill):
            # a launcher's own SIGTERM, should one still come, is a second
            # SIGTERM; the flush must follow the first
            got = [s for s, _ in j.signals]
            assert got and set(got) == {signal.SIGTERM}, (j.header["rank"], j.signals)
            at = [r[1] for r in j.records if r[0] == spill_journal.SIGNAL][0]
            assert j.commits[-1]["offset_end"] > at, "rank %d: no flush after SIGTERM" % j.header["rank"]
            assert j.end is None


def test_bad_options():
    """tprof-run refuses what cannot work, naming it; the preload alone says a bad interval and goes on."""
    for args, env, words in [(["--keep-spill", "true"], {}, "'--keep-spill' needs '--spill DIR'"),
                             (["--spill"], {}, "'--spill' needs a directory"),
                             (["--spill=", "true"], {}, "'--spill' needs a directory"),
                             (["--spill", "d", "true"], {"TPROF_SPILL_INTERVAL": "abc"},
                              "TPROF_SPILL_INTERVAL=abc is not a number of seconds > 0"),
                             (["--spill", "d", "true"], {"TPROF_SPILL_INTERVAL": "-1"},
                              "TPROF_SPILL_INTERVAL=-1 is not a number of seconds > 0")]:
        p = subprocess.run([TPROF_RUN] + args, capture_output=True, text=True, env=dict(os.environ, **env))
        assert p.returncode == 2 and words in p.stderr, (args, p.returncode, p.stderr)
    with tempfile.TemporaryDirectory() as d:
        library = os.path.join(os.path.dirname(TPROF_RUN), "libtprof-preload.so")
        env = dict(os.environ, LD_PRELOAD=library, TPROF_SPILL_DIR=os.path.join(d, "spill"),
                   TPROF_SPILL_INTERVAL="soon", TPROF_OUTPUT=os.path.join(d, "run.h5"))
        p = subprocess.run([MPIEXEC, "-n", "1", DEMO, "--quiet", "-i", "5", "--output", os.path.join(d, "demo.h5")],
                           cwd=d, capture_output=True, text=True, env=env)
        assert p.returncode == 0, p.stderr
        assert "tprof: TPROF_SPILL_INTERVAL=soon is not a number of seconds > 0; spilling every 10 s" in p.stderr, \
            p.stderr
        check_ended_note(os.path.join(d, "spill"), os.path.join(d, "run.h5"))


for name in [n for n in list(globals()) if n.startswith("test_")]:
    t0 = time.time()
    globals()[name]()
    print("ok   %s (%.1f s)" % (name, time.time() - t0))
