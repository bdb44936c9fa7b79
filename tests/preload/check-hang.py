# check-hang.py — real jobs that hang under tprof-run --spill DIR --hang-timeout 5: `tprof hang DIR` names the rank that never came, then the job is killed, every process of it.
# SPDX-License-Identifier: MIT
"""Usage: check-hang.py TPROF_RUN MPIEXEC TPROF PRELOAD_HANG PRELOAD_HANG_GATHER PRELOAD_HANG_REGION"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

TPROF_RUN, MPIEXEC, TPROF, PRELOAD_HANG, PRELOAD_HANG_GATHER, PRELOAD_HANG_REGION = sys.argv[1:7]
TIMEOUT = 5
DEADLINE = 15


def fail(message):
    raise SystemExit("FAIL: " + message)


def processes_of(marker):
    """Processes whose command line holds @marker."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if marker.encode() in f.read():
                    with open("/proc/%s/stat" % pid) as s:
                        if s.read().split(") ")[-1].split()[0] != "Z":
                            found.append(int(pid))
        except OSError:
            pass
    return found


class Job:
    """A job started in its own session, its stderr collected."""

    def __init__(self, spill, program, skipper, marker):
        self.marker = marker
        self.stderr = []
        self.skipped = None
        self.proc = subprocess.Popen(
            [TPROF_RUN, "--spill", spill, "--hang-timeout", str(TIMEOUT), "-o", os.path.join(spill, "out.h5"),
             MPIEXEC, "-n", "4", program, str(skipper), marker],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self):
        for line in self.proc.stderr:
            self.stderr.append(line)
            if "skips" in line and self.skipped is None:
                self.skipped = time.monotonic()

    def kill(self):
        """SIGKILL to the launcher's session, then to anything of the job
        left; fails when a process survives."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=30)
        for _ in range(50):
            left = processes_of(self.marker)
            if not left:
                return
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.1)
        fail("processes of the job survived: %s" % processes_of(self.marker))


def wait_for_verdict(job, spill, check):
    """`tprof hang` until its verdict passes @check (which returns what is
    wrong, or None), within DEADLINE seconds of the skip: the ranks'
    watchdogs write their states one after the other, so an early verdict
    may rest on some of them only."""
    wrong = "no verdict"
    while True:
        if job.proc.poll() is not None:
            fail("the job ended (%d) before any verdict: %s" % (job.proc.returncode, "".join(job.stderr)))
        if job.skipped is not None:
            p = subprocess.run([TPROF, "hang", spill, "--format", "json"], capture_output=True, text=True)
            if p.returncode == 4:
                wrong = check(json.loads(p.stdout), job)
                if wrong is None:
                    return time.monotonic() - job.skipped
            elif p.returncode not in (0, 1):
                fail("tprof hang exited %d: %s" % (p.returncode, p.stderr))
            if time.monotonic() - job.skipped > DEADLINE:
                fail("no right verdict %d s after the skip; last: %d %s %s: %s\n%s" % (
                    DEADLINE, p.returncode, p.stdout, p.stderr, wrong, "".join(job.stderr)))
        time.sleep(0.5)


def run(program, skipper, check):
    marker = "tprof-hang-test-%d-%d" % (os.getpid(), time.monotonic_ns())
    with tempfile.TemporaryDirectory() as spill:
        job = Job(spill, program, skipper, marker)
        try:
            after = wait_for_verdict(job, spill, check)
            print("%s: rank %d named %.1f s after it skipped" % (os.path.basename(program), skipper, after))
        finally:
            job.kill()


def check_allreduce(v, job):
    """preload-hang: WORLD.1 is the dup of WORLD; its collective 1 is the
    split, 2 and 3 the first allreduces, 4 the one rank 2 skips."""
    expect = {"hang": True, "function": "MPI_Allreduce", "communicator": "WORLD.1", "sequence": 4,
              "waiting_ranks": [0, 1, 3], "missing_ranks": [2]}
    for key, value in expect.items():
        if v[key] != value:
            return "%s: expected %r, got %r in %s" % (key, value, v[key], v)
    two = [r for r in v["ranks"] if r["rank"] == 2][0]
    if two["doing"] != "no MPI call in flight; the last was MPI_Allreduce on WORLD.1 (collective 3 there)":
        return "rank 2 does %r" % two["doing"]
    if not (isinstance(two["since"], float) and 0 <= two["since"] < 60):
        return "rank 2 since %r" % two["since"]
    if not any("rank 0: MPI_Allreduce on WORLD.1 (collective 4 there) in flight" in l for l in job.stderr):
        return "rank 0's watchdog line is missing: %s" % "".join(job.stderr)
    hosts = {r["hostname"] for r in v["ranks"]}
    if hosts != {os.uname().nodename}:
        return "host names %r" % hosts
    return None


def check_gather(v, job):
    """preload-hang-gather: WORLD's collective 1 is the barrier, 2 tprof's
    gather, which rank 1 never calls."""
    expect = {"hang": True, "function": "tprof_time_manager_gather", "communicator": "WORLD", "sequence": 2,
              "waiting_ranks": [0, 2, 3], "missing_ranks": [1]}
    for key, value in expect.items():
        if v[key] != value:
            return "%s: expected %r, got %r in %s" % (key, value, v[key], v)
    one = [r for r in v["ranks"] if r["rank"] == 1][0]
    if one["doing"] != "no MPI call in flight; the last was MPI_Barrier on WORLD (collective 1 there)":
        return "rank 1 does %r" % one["doing"]
    return None


def check_region(v, job):
    """preload-hang-region: WORLD's collective 1 is the first barrier, 2
    the one rank 3 never enters: it sleeps in "assemble", opened inside
    "solve" a second after the others entered the barrier."""
    expect = {"hang": True, "function": "MPI_Barrier", "communicator": "WORLD", "sequence": 2,
              "waiting_ranks": [0, 1, 2], "missing_ranks": [3]}
    for key, value in expect.items():
        if v[key] != value:
            return "%s: expected %r, got %r in %s" % (key, value, v[key], v)
    ranks = {r["rank"]: r for r in v["ranks"]}
    if ranks[3]["doing"] != "in region assemble":
        return "rank 3 does %r" % ranks[3]["doing"]
    waited_since = max(ranks[r]["since"] for r in (0, 1, 2))
    if not 0.5 < ranks[3]["since"] - waited_since < 3:
        return "rank 3 in its region since %r, the others in the barrier since %r: not about 1 s later" % (
            ranks[3]["since"], waited_since)
    return None


run(PRELOAD_HANG, 2, check_allreduce)
run(PRELOAD_HANG_GATHER, 1, check_gather)
run(PRELOAD_HANG_REGION, 3, check_region)
print("check-hang: ok")
