# check_format3_refuse.py — format-3 files broken one way each with h5py: `tprof summary` and a full read (`tprof ranks --op`) exit 1, without a signal, naming the file and the member as MEMBER[INDEX].
# Usage: check_format3_refuse.py TPROF [--load LOAD_REFUSE] [PYTHON]   (prints OK; with PYTHON, an
# interpreter that imports tprof, tprof.ProfiledTime.load (the isolated reader) must refuse each
# file the same way; with LOAD_REFUSE (load-refuse.c), the in-process tprof_profiled_time_load
# too, with the message of an open then a read of every operation)
# SPDX-License-Identifier: MIT
import os
import re
import subprocess
import sys
import tempfile

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import format3  # noqa: E402
from format3 import replace, scale, set_value  # noqa: E402

WORLD = 4
# forward: ranks 0, 2, 3 (segments 0-2); allreduce: every rank (3-6);
# io: rank 1 (7); idle: no sample, no segment. 17 samples:
# segments/offset = [0, 3, 5, 6, 8, 10, 12, 14, 17],
# operations/segments = [0, 3, 7, 8, 8]
OPS = [("forward", [0, 0, 0, 2, 2, 3]), ("allreduce", [0, 0, 1, 1, 2, 2, 3, 3]), ("io", [1, 1, 1]),
       ("idle", [])]


def base_ops():
    ops, start = [], 0.0
    for k, (name, ranks) in enumerate(OPS):
        n = len(ranks)
        times = 1e-3 * (1 + np.arange(n) * 0.37 + k)
        starts = start + np.arange(n) * 0.01
        start += 1.0
        ops.append(format3.operation(name, times, ranks, starts, np.zeros(n, dtype=np.int64)))
    return ops


def resize(member, n):
    def mutate(f):
        column = f[member][()]
        replace(f, member, np.resize(column, n))
    return mutate


def two_d(member):
    def mutate(f):
        column = f[member][()]
        replace(f, member, column.reshape(-1, 1))
    return mutate


def delete(member):
    def mutate(f):
        del f[member]
    return mutate


def group_instead(member):
    def mutate(f):
        del f[member]
        f.create_group(member)
    return mutate


def non_utf8_name(index, name=b"all\xffreduce"):
    def mutate(f):
        names = [n.encode("utf-8") for n in format3.names(f)]
        names[index] = name
        del f["operations/name"]
        f.create_dataset("operations/name", data=np.array(names, dtype=object),
                         dtype=h5py.string_dtype("utf-8"))
    return mutate


def duplicate_name(index, copy_of):
    def mutate(f):
        names = format3.names(f)
        names[index] = names[copy_of]
        del f["operations/name"]
        f.create_dataset("operations/name", data=names, dtype=h5py.string_dtype("utf-8"))
    return mutate


def swap(member, i, j):
    def mutate(f):
        column = f[member][()]
        column[i], column[j] = column[j], column[i]
        replace(f, member, column)
    return mutate


# label: (mutation, the member the message must name, operation to read
# whole). Where two cached figures contradict each other and the reader
# cannot tell which is wrong before reading samples, either may be named.
CASES = {
    "offset-decreasing": (set_value("segments/offset", 3, 4), "segments/offset[3]", "allreduce"),
    "offset-past-end": (set_value("segments/offset", 8, 18), "segments/offset[8]", "io"),
    "offset-far-past-end": (set_value("segments/offset", 8, 1 << 40), "segments/offset[8]", "io"),
    "segments-decreasing": (set_value("operations/segments", 2, 2), "operations/segments[2]", "allreduce"),
    "segments-past-end": (set_value("operations/segments", 4, 9), "operations/segments[4]", "idle"),
    "rank-out-of-range": (set_value("segments/rank", 2, WORLD), "segments/rank[2]", "forward"),
    "rank-negative": (set_value("segments/rank", 5, -1), "segments/rank[5]", "allreduce"),
    "rank-not-ascending": (swap("segments/rank", 3, 4), "segments/rank[4]", "allreduce"),
    "rank-repeated": (set_value("segments/rank", 5, 1), "segments/rank[5]", "allreduce"),
    "duplicate-name": (duplicate_name(2, 0), "operations/name[2]", "forward"),
    "non-utf8-name": (non_utf8_name(1), "operations/name[1]", "forward"),
    # the names lie end to end in one block, checked at once: the bad one
    # is still named by its index
    "non-utf8-name-last": (non_utf8_name(3, b"id\xc3\x28e"), "operations/name[3]", "forward"),
    "truncated-utf8-name": (non_utf8_name(2, b"io\xe2\x82"), "operations/name[2]", "forward"),
    "surrogate-name": (non_utf8_name(2, b"io\xed\xa0\x80"), "operations/name[2]", "forward"),
    "empty-name": (non_utf8_name(3, b""), "operations/name[3]", "forward"),
    "starts-short": (resize("samples/starts", 16), "samples/starts", "forward"),
    "threads-long": (resize("samples/threads", 18), "samples/threads", "forward"),
    "times-short": (resize("samples/times", 16), "samples/times", "io"),
    "sum-column-short": (resize("operations/sum", 3), "operations/sum", "forward"),
    "segment-min-column-long": (resize("segments/min", 9), "segments/min", "forward"),
    "offset-column-short": (resize("segments/offset", 8), "segments/offset", "forward"),
    "segments-column-short": (resize("operations/segments", 4), "operations/segments", "forward"),
    "times-2d": (two_d("samples/times"), "samples/times", "forward"),
    "sum-missing": (delete("operations/sum"), "operations/sum", "forward"),
    "times-missing": (delete("samples/times"), "samples/times", "forward"),
    "times-a-group": (group_instead("samples/times"), "samples/times", "forward"),
    "rank-a-group": (group_instead("segments/rank"), "segments/rank", "forward"),
    "rank-2d": (two_d("segments/rank"), "segments/rank", "forward"),
    "sum-disagrees": (scale("operations/sum", 1, 1.5), ("operations/sum[1]", "operations/mean[1]"), "allreduce"),
    "median-disagrees": (scale("operations/median", 0, 1.001), "operations/median[0]", "forward"),
    "count-disagrees": (set_value("operations/count", 0, 7), "operations/count[0]", "forward"),
    "segment-sum-disagrees": (scale("segments/sum", 5, 2.0), ("segments/sum[5]", "operations/sum[1]"),
                              "allreduce"),
    "mean-inf": (set_value("operations/mean", 2, np.inf), "operations/mean[2]", "io"),
    "segment-max-inf": (set_value("segments/max", 7, np.inf), "segments/max[7]", "io"),
    "time-nan": (set_value("samples/times", 9, np.nan), "samples/times[9]", "allreduce"),
    "time-negative": (set_value("samples/times", 4, -0.5), "samples/times[4]", "forward"),
    "time-inf": (set_value("samples/times", 16, np.inf), "samples/times[16]", "io"),
    "start-inf": (set_value("samples/starts", 2, np.inf), "samples/starts[2]", "forward"),
    "thread-negative": (set_value("samples/threads", 10, -1), "samples/threads[10]", "allreduce"),
    "recorded-below-stored": (set_value("segments/recorded", 3, 1), "segments/recorded[3]", "allreduce"),
}


# the Python module's load (the isolated reader, as Python programs get it):
# one line on stderr
LOAD = """import sys, tprof
try:
    tprof.ProfiledTime.load(sys.argv[1])
except Exception as e:
    print(e, file=sys.stderr)
    sys.exit(1)
"""


def run(argv):
    done = subprocess.run(argv, capture_output=True, text=True, errors="replace")
    return done.returncode, done.stderr


def check_refused(tprof, python, path, member, op, errors, load=None):
    # the member as the message must name it: no leading slash, the index
    # in brackets, not a longer member or index
    members = member if isinstance(member, tuple) else (member,)
    named = re.compile("|".join(r"(?<![\w/])" + re.escape(m) + (r"(?![\w\[/])" if "[" in m else r"(?![\w/])")
                                for m in members))
    readers = [[tprof, "summary", path], [tprof, "ranks", path, "--op", op]]
    if python is not None:
        readers.append([python, "-c", LOAD, path])
    if load is not None:
        readers.append([load, path])
    for argv in readers:
        status, stderr = run(argv)
        what = "%s (%s)" % ("ProfiledTime.load" if argv[0] == python
                            else "tprof_profiled_time_load" if argv[0] == load else " ".join(argv[1:2] + argv[3:]),
                            os.path.basename(path))
        if status < 0:
            errors.append("%s: killed by signal %d" % (what, -status))
        elif status != 1:
            errors.append("%s: exit status %d, expected 1; stderr %r" % (what, status, stderr))
        elif path not in stderr or not named.search(stderr):
            errors.append("%s: stderr does not name the file and %s: %r" % (what, " or ".join(members), stderr))
        elif stderr.count("\n") != 1:
            errors.append("%s: not one line: %r" % (what, stderr))


def main():
    args = sys.argv[1:]
    load = None
    if "--load" in args:
        at = args.index("--load")
        load = args[at + 1]
        del args[at:at + 2]
    tprof = args[0]
    python = args[1] if len(args) > 1 else None
    errors = []
    with tempfile.TemporaryDirectory(prefix="tprof-format3-refuse-") as tmp:
        good = os.path.join(tmp, "good.h5")
        format3.write(good, WORLD, base_ops(), recorded=True)
        with h5py.File(good, "r") as f:
            assert list(f["segments/offset"][()]) == [0, 3, 5, 6, 8, 10, 12, 14, 17]
            assert list(f["operations/segments"][()]) == [0, 3, 7, 8, 8]
        # the control: the same file unbroken is read
        for argv in ([tprof, "summary", good], [tprof, "ranks", good, "--op", "allreduce"])\
                + (([load, good],) if load is not None else ()):
            status, stderr = run(argv)
            if status != 0:
                errors.append("%s of the unbroken file: exit %d: %s" % (argv[1], status, stderr.strip()))
        for label, (mutate, member, op) in CASES.items():
            path = os.path.join(tmp, label + ".h5")
            format3.write(path, WORLD, base_ops(), recorded=True)
            with h5py.File(path, "r+") as f:
                mutate(f)
            check_refused(tprof, python, path, member, op, errors, load)
    if errors:
        print("FAIL:\n" + "\n".join(errors))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
