# check-spill-python.py — TimeManager.set_spill from Python: clean end, kept end, SIGTERM, SIGINT, bad directory.
# SPDX-License-Identifier: MIT
"""Run with the built tprof package on PYTHONPATH."""

import glob
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import spill_journal  # noqa: E402

CHILD = r'''
import sys, tprof
tm = tprof.TimeManager()
tm.set_spill(sys.argv[1], interval=float(sys.argv[2]))
for k in range(2000):
    tm._append_time("py.step", (k + 1) * 1e-6)
try:
    # "ready" inside the try: SIGINT may come as soon as it is read
    print("ready", flush=True)
    cmd = sys.stdin.readline().strip()
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(7)
if cmd.startswith("end "):
    tm.end_spill(cmd[4:])
del tm
'''


def child(d, interval, env=None):
    p = subprocess.Popen([sys.executable, "-c", CHILD, d, str(interval)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ, **(env or {})))
    line = p.stdout.readline()
    if line.strip() != "ready":
        p.kill()
        raise AssertionError("python child not ready: %r %r" % (line, p.stderr.read()))
    return p


def steps(j):
    d, s = j.series("py.step", 0)
    want = (np.arange(2000, dtype=np.float64) + 1.0) * 1e-6
    assert np.array_equal(d, want), "py.step durations differ from what was recorded"


def test_clean_end_removes():
    with tempfile.TemporaryDirectory() as d:
        p = child(d, 0.05)
        time.sleep(0.2)
        assert len(glob.glob(d + "/*.spill")) == 1
        out, err = p.communicate("exit\n", timeout=30)
        assert p.returncode == 0, err
        assert os.listdir(d) == [], os.listdir(d)


def test_keep_end():
    with tempfile.TemporaryDirectory() as d:
        p = child(d, 100, {"TPROF_KEEP_SPILL": "1"})
        out, err = p.communicate("end run.h5\n", timeout=30)
        assert p.returncode == 0, err
        j = spill_journal.read(glob.glob(d + "/*.spill")[0])
        assert j.end is not None and j.end[1] == "run.h5" and j.tail is None, (j.end, j.tail)
        assert j.header["rank"] == 0 and j.header["world_size"] == 1 and j.header["interval"] == 100
        steps(j)


def test_sigterm():
    with tempfile.TemporaryDirectory() as d:
        p = child(d, 100)
        p.send_signal(signal.SIGTERM)
        p.wait(30)
        assert p.returncode == -signal.SIGTERM, p.returncode
        j = spill_journal.read(glob.glob(d + "/*.spill")[0])
        assert [s for s, _ in j.signals] == [signal.SIGTERM] and j.end is None, (j.signals, j.end)
        steps(j)


def test_sigint_reaches_python():
    with tempfile.TemporaryDirectory() as d:
        p = child(d, 100)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
        assert p.returncode == 7 and "interrupted" in out, (p.returncode, out, err)
        # KeyboardInterrupt handled, then a clean end: the file is gone; what SIGINT flushed is checked
        # by the C tests (check-spill.py)


def test_bad_directory():
    import tprof
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "file")
        open(f, "w").close()
        tm = tprof.TimeManager()
        for args, exc, words in [((os.path.join(f, "x"),), OSError, "not a directory"),
                                 ((d, 0.0), ValueError, "interval 0 s"),
                                 ((d, float("nan")), ValueError, "interval nan s")]:
            try:
                tm.set_spill(*args)
            except exc as e:
                assert words in str(e) and "spill" in str(e), str(e)
            else:
                raise AssertionError("set_spill%r was accepted" % (args,))
        tm.set_spill(d, 100)
        try:
            tm.set_spill(d, 100)
        except ValueError as e:
            assert "already spilling" in str(e), str(e)
        else:
            raise AssertionError("a second set_spill was accepted")
        tm.end_spill()
        assert os.listdir(d) == ["file"], os.listdir(d)


for name in [n for n in list(globals()) if n.startswith("test_")]:
    t0 = time.time()
    globals()[name]()
    print("ok   %s (%.1f s)" % (name, time.time() - t0))
