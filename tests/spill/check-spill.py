# check-spill.py — the spill writer under real processes, kills and signals, checked by an independent parser.
# SPDX-License-Identifier: MIT
"""Usage: check-spill.py SPILL_CHILD [TEST...]

Runs spill-child (tests/spill/spill-child.c) in scenarios and reads what it
left with spill_journal.py, written from docs/spill-format.md alone."""

import glob
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spill_journal  # noqa: E402

CHILD = sys.argv[1]
FAILED = []


def check(cond, what):
    if not cond:
        raise AssertionError(what)


class Child:
    def __init__(self, directory, interval, threads, n, env=None):
        e = dict(os.environ)
        e.update(env or {})
        self.p = subprocess.Popen([CHILD, directory, str(interval), str(threads), str(n)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e)
        self.path = self.ready()

    def ready(self):
        line = self.p.stdout.readline()
        if not line.startswith("ready "):
            self.p.kill()
            raise AssertionError("spill-child is not ready: %r, stderr %r" % (line, self.p.stderr.read()))
        return line.split(" ", 1)[1].strip()

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, timeout=30):
        try:
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        return self.p.wait(timeout)


def expected_steps(j, n_per_thread, threads):
    """Worker t's "step" samples last (t * 1e6 + k + 1) us, k = 0, 1, ... across its batches (each batch
    may run on a new thread): put together, each worker's series hold exactly those, in order."""
    by_worker = {}
    for (name, thread), (d, s) in j.samples.items():
        if name == "step" and len(d):
            by_worker.setdefault(int(d[0]), []).append(d)
    for t, parts in by_worker.items():
        d = np.concatenate(sorted(parts, key=lambda x: x[0]))
        want = (t * 1e6 + np.arange(len(d), dtype=np.float64) + 1.0) * 1e-6
        check(np.array_equal(d, want), "step of worker %d: durations differ from what was recorded" % t)
        if n_per_thread is not None:
            check(len(d) == n_per_thread, "step of worker %d: %d samples, %d recorded" % (t, len(d), n_per_thread))
    check(n_per_thread is None or sorted(by_worker) == list(range(threads)),
          "step: workers %s, want %d" % (sorted(by_worker), threads))


def starts_sane(j):
    last = j.commits[-1]["when"] if j.commits else j.header["start"]
    for (name, thread), (d, s) in j.samples.items():
        check(np.all(np.isfinite(s)) and np.all(d >= 0), "%s thread %d: bad values" % (name, thread))
        # "step" came in as seconds: its start is placed that long before the call; a flush may take
        # samples that ended after its COMMIT's time (it reads the lengths after taking it)
        check(np.all(s >= j.header["start"] - 3.0) and np.all(s <= last + 0.5),
              "%s thread %d: starts outside the run" % (name, thread))
    whens = [c["when"] for c in j.commits]
    check(whens == sorted(whens), "COMMIT times go back")
    check([c["flush"] for c in j.commits] == list(range(1, len(j.commits) + 1)), "flush numbers not 1, 2, ...")


def the_file(d):
    files = glob.glob(os.path.join(d, "*.spill"))
    check(len(files) == 1, "want one spill file in %s, found %s" % (d, files))
    return files[0]


def test_clean_exit_removes():
    with tempfile.TemporaryDirectory() as d:
        c = Child(os.path.join(d, "a/b"), 0.05, 2, 1000)
        check(os.path.exists(c.path), "no spill file while running")
        c.send("exit")
        check(c.wait() == 0, "child failed")
        check(glob.glob(os.path.join(d, "a/b/*")) == [], "a clean exit left %s" % glob.glob(os.path.join(d, "a/b/*")))


def thread_names(pid):
    names = []
    for comm in glob.glob("/proc/%d/task/*/comm" % pid):
        try:
            names.append(open(comm).read().strip())
        except OSError:
            pass  # a thread that ended meanwhile
    return names


def test_spill_thread_named():
    # one thread per spilling manager, named so that its CPU time can be
    # told apart (top -H, perf, bench-timer); it names itself once it runs
    with tempfile.TemporaryDirectory() as d:
        c = Child(d, 0.05, 1, 100)
        deadline = time.time() + 10
        while thread_names(c.p.pid).count("tprof-spill") != 1 and time.time() < deadline:
            time.sleep(0.01)
        names = thread_names(c.p.pid)
        c.send("exit")
        check(c.wait() == 0, "child failed")
        check(names.count("tprof-spill") == 1, "threads %r: not one named tprof-spill" % names)


def keep_and_compare(clock):
    with tempfile.TemporaryDirectory() as d:
        env = {"TPROF_KEEP_SPILL": "1"}
        if clock:
            env["TPROF_CLOCK"] = clock
        c = Child(d, 0.02, 3, 20000, env)
        time.sleep(0.1)
        c.send("more 70000")  # past one scratch's worth in a flush
        c.ready()
        c.send("dump " + os.path.join(d, "scoped.f64"))
        c.send("end /somewhere/run.h5")
        check(c.wait() == 0, "child failed: " + c.p.stderr.read())
        j = spill_journal.read(the_file(d))
        check(j.tail is None, "tail: %r" % (j.tail,))
        check(j.end is not None and j.end[1] == "/somewhere/run.h5", "END: %r" % (j.end,))
        check(j.records[-1][0] == spill_journal.END, "END is not last")
        check(j.header["rank"] == 0 and j.header["world_size"] == 1 and j.header["pid"] == c.p.pid, "header")
        check(j.header["interval"] == 0.02, "header interval")
        check(len(j.commits) >= 2, "%d flushes" % len(j.commits))
        expected_steps(j, 90000, 3)
        starts_sane(j)
        dumped = np.fromfile(os.path.join(d, "scoped.f64"))
        scoped = [j.samples[k] for k in sorted(k for k in j.samples if k[0] == "scoped")]
        spilled = np.concatenate([x[0] for x in scoped])
        check(len(spilled) == len(dumped) == 270000, "scoped: %d spilled, %d recorded" % (len(spilled), len(dumped)))
        if clock == "monotonic":
            check(np.array_equal(spilled, dumped), "scoped durations differ from get_time's")
        else:
            np.testing.assert_allclose(spilled, dumped, rtol=1e-5, atol=1e-12)
        check(j.encodings == {0}, "the thread wrote encodings %s" % j.encodings)


def test_keep_spill_exact():
    keep_and_compare("monotonic")


def test_keep_spill_tsc():
    keep_and_compare(None)


def test_kill9_loop():
    """kill -9 at random instants: every complete flush stays readable."""
    rng = random.Random(int(os.environ.get("SPILL_SEED", "26")))
    with_data = 0
    for i in range(20):
        with tempfile.TemporaryDirectory() as d:
            c = Child(d, 0.01, 1, 10)
            c.send("loop")
            time.sleep(rng.uniform(0.02, 0.3))
            c.p.kill()
            c.p.wait()
            j = spill_journal.read(the_file(d))
            check(j.header is not None and j.end is None, "run %d: header %r end %r" % (i, j.header, j.end))
            expected_steps(j, None, 1)
            starts_sane(j)
            if j.tail is not None:
                check(j.tail[1].startswith("incomplete"), "run %d: damaged tail %r" % (i, j.tail))
            with_data += j.total() > 10
    check(with_data >= 15, "only %d of 20 killed runs had flushes past the first samples" % with_data)


def term_like(signo):
    with tempfile.TemporaryDirectory() as d:
        c = Child(d, 100, 2, 5000)
        c.p.send_signal(signo)
        rc = c.p.wait(30)
        check(rc == -signo, "the child ended with %d, not killed by signal %d" % (rc, signo))
        j = spill_journal.read(the_file(d))
        check(j.tail is None and j.end is None, "tail %r end %r" % (j.tail, j.end))
        check([s for s, _ in j.signals] == [signo], "SIGNAL records %r" % j.signals)
        sig_at = [r[1] for r in j.records if r[0] == spill_journal.SIGNAL][0]
        check(j.commits and j.commits[-1]["offset_end"] > sig_at, "no flush after the SIGNAL")
        check(j.total() == 20000, "%d samples flushed, 20000 recorded" % j.total())
        expected_steps(j, 5000, 2)
        starts_sane(j)


def test_sigterm():
    term_like(signal.SIGTERM)


def test_sigint():
    term_like(signal.SIGINT)


def test_sigusr1():
    with tempfile.TemporaryDirectory() as d:
        c = Child(d, 100, 1, 3000, {"TPROF_KEEP_SPILL": "1"})
        c.p.send_signal(signal.SIGUSR1)
        deadline = time.time() + 10
        while time.time() < deadline and not spill_journal.read(c.path).commits:
            time.sleep(0.01)
        j = spill_journal.read(c.path)
        check(len(j.commits) == 1 and j.total() == 6000, "after SIGUSR1: %d flushes, %d samples"
              % (len(j.commits), j.total()))
        check(c.p.poll() is None, "SIGUSR1 ended the child")
        c.send("more 500")
        c.ready()
        c.send("exit")
        check(c.wait() == 0, "child failed after SIGUSR1")
        j = spill_journal.read(c.path)
        check([s for s, _ in j.signals] == [signal.SIGUSR1], "SIGNAL records %r" % j.signals)
        check(j.end is not None and j.end[1] == "", "END %r" % (j.end,))
        expected_steps(j, 3500, 1)


def crash_like(command, signo):
    # under a sanitizer, leave SIGSEGV and SIGABRT to the spill's own
    # handlers (the ones under test) instead of the sanitizer's report and exit
    env = {}
    for name in ("ASAN_OPTIONS", "TSAN_OPTIONS"):
        given = os.environ.get(name, "")
        env[name] = (given + ":" if given else "") + "handle_segv=0:handle_sigbus=0:handle_abort=0"
    with tempfile.TemporaryDirectory() as d:
        c = Child(d, 100, 2, 4000, env)
        c.send(command)
        rc = c.wait()
        check(rc == -signo, "the child ended with %d, not killed by signal %d" % (rc, signo))
        j = spill_journal.read(the_file(d))
        check(j.tail is None and j.end is None, "tail %r end %r" % (j.tail, j.end))
        check([s for s, _ in j.signals] == [signo], "SIGNAL records %r" % j.signals)
        check(1 in j.encodings, "no raw samples after a crash: %s" % j.encodings)
        check(any(r[0] == spill_journal.CLOCK for r in j.records), "no CLOCK record")
        check(j.total() == 16000, "%d samples flushed, 16000 recorded" % j.total())
        expected_steps(j, 4000, 2)
        starts_sane(j)
        for (name, thread), (dur, s) in j.samples.items():
            if name == "scoped":
                check(np.all(dur < 0.01), "scoped durations from raw ticks: max %g s" % dur.max())


def test_sigsegv():
    crash_like("segv", signal.SIGSEGV)


def test_sigabrt():
    crash_like("abort", signal.SIGABRT)


def test_sample_limit():
    """A bounded series spills what it stores, at most its limit, each a sample that was recorded."""
    with tempfile.TemporaryDirectory() as d:
        c = Child(d, 0.01, 2, 5000, {"TPROF_KEEP_SPILL": "1", "SPILL_CHILD_LIMIT": "1000"})
        time.sleep(0.1)
        c.send("exit")
        check(c.wait() == 0, "child failed")
        j = spill_journal.read(the_file(d))
        check(j.tail is None and j.end is not None, "tail %r end %r" % (j.tail, j.end))
        for (name, thread), (dur, s) in j.samples.items():
            check(len(dur) == 1000, "%s thread %d: %d samples spilled, limit 1000" % (name, thread, len(dur)))
            if name == "step":
                t = int(dur.min())
                k = np.rint((dur - t) * 1e6) - 1
                check(np.all((k >= 0) & (k < 5000)) and len(np.unique(k)) == 1000,
                      "step thread %d: samples that were not recorded" % thread)
                check(np.array_equal(dur, (t * 1e6 + k + 1.0) * 1e-6), "step thread %d: values off" % thread)


def test_clear_keeps_what_was_spilled():
    # The spill thread's own flushes, not SIGUSR1: under ThreadSanitizer a
    # signal waits for the child's next intercepted call, which may be the
    # clear itself, and what it flushed would then be what clear left.
    with tempfile.TemporaryDirectory() as d:
        c = Child(d, 0.05, 1, 1000, {"TPROF_KEEP_SPILL": "1"})
        deadline = time.time() + 20
        while time.time() < deadline and spill_journal.read(c.path).total() < 2000:
            time.sleep(0.01)
        check(spill_journal.read(c.path).total() == 2000, "the first 2000 samples were not spilled within 20 s")
        c.send("clear")
        c.send("more 500")
        c.ready()
        c.send("exit")
        check(c.wait() == 0, "child failed")
        j = spill_journal.read(the_file(d))
        check(j.total() == 3000 and j.end is not None, "after clear: %d samples, end %r" % (j.total(), j.end))
        expected_steps(j, 1500, 1)


def test_forked_child_leaves_file_alone():
    with tempfile.TemporaryDirectory() as d:
        c = Child(d, 0.02, 1, 1000, {"TPROF_KEEP_SPILL": "1"})
        c.send("fork")
        line = c.p.stdout.readline()
        check(line.strip() == "forked %d" % signal.SIGABRT, "fork: %r" % line)
        c.send("end x.h5")
        check(c.wait() == 0, "child failed after its fork")
        j = spill_journal.read(the_file(d))
        check(j.tail is None and j.signals == [] and j.end == (j.end[0], "x.h5"),
              "tail %r signals %r end %r" % (j.tail, j.signals, j.end))
        expected_steps(j, 1000, 1)


def test_bad_directory():
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "file")
        open(f, "w").close()
        p = subprocess.run([CHILD, os.path.join(f, "sub"), "1", "1", "1"], capture_output=True, text=True,
                           stdin=subprocess.DEVNULL)
        check(p.returncode == 1 and "spill directory" in p.stderr and "file" in p.stderr,
              "a directory under a file: %r" % p.stderr)
        p = subprocess.run([CHILD, d, "0", "1", "1"], capture_output=True, text=True, stdin=subprocess.DEVNULL)
        check(p.returncode == 1 and "interval 0 s" in p.stderr, "interval 0: %r" % p.stderr)
        check(os.listdir(d) == ["file"], "a refused spill left %s" % os.listdir(d))


# ThreadSanitizer defers an asynchronous signal until the thread makes a
# call it intercepts, which changes the very timing the signal tests check
# (a handler that waits for the spill thread's flush then waits forever).
# They run in the plain and AddressSanitizer builds.
SIGNAL_TESTS = {"test_sigterm", "test_sigint", "test_sigusr1", "test_sigsegv", "test_sigabrt"}


def under_thread_sanitizer():
    p = subprocess.run(["ldd", CHILD], capture_output=True, text=True)
    return "libtsan" in p.stdout


def main():
    names = sys.argv[2:] or [n for n in globals() if n.startswith("test_")]
    tsan = under_thread_sanitizer()
    for name in names:
        if tsan and name in SIGNAL_TESTS:
            print("skip %s: ThreadSanitizer defers asynchronous signals" % name)
            continue
        t0 = time.time()
        try:
            globals()[name]()
            print("ok   %s (%.1f s)" % (name, time.time() - t0))
        except Exception as e:  # noqa: BLE001 - report every failure, then fail
            FAILED.append(name)
            print("FAIL %s: %s: %s" % (name, type(e).__name__, e))
    sys.exit(1 if FAILED else 0)


main()
