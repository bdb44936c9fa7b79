# check_format3_saved.py — a profile saved by libtprof-capture (every member used) read back with h5py alone by the format-3 recipe, every figure against what was recorded.
# Usage: check_format3_saved.py SAVE-FULL-PROFILE   (prints OK)
# SPDX-License-Identifier: MIT
import json
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import format3  # noqa: E402


def check(condition, message):
    if not condition:
        print("FAIL: " + message)
        sys.exit(1)


def check_close(got, want, what):
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    ok = got.shape == want.shape and np.array_equal(np.isnan(got), np.isnan(want)) \
        and np.allclose(got[~np.isnan(want)], want[~np.isnan(want)], rtol=1e-9, atol=0)
    check(ok, "%s is %r, expected %r" % (what, got, want))


def check_operation(f, k, op, world_size):
    name = op["name"]
    got = format3.read_operation(f, k)
    ranks = np.asarray(op["ranks"], dtype=np.int64)
    # the writer groups by ascending rank and keeps each rank's order
    order = np.argsort(ranks, kind="stable")
    for key, dtype in (("times", np.float64), ("ranks", np.int64), ("starts", np.float64),
                       ("threads", np.int64)):
        want = np.asarray(op[key], dtype=dtype)[order]
        check(key in got, "%s: samples/%s is missing" % (name, key))
        check(np.array_equal(np.asarray(got[key], dtype=dtype), want),
              "%s: %s are %r, recorded %r" % (name, key, got[key], want))
    s0, s1 = got["segments"]
    seg_ranks = f["segments/rank"][s0:s1]
    check(np.array_equal(seg_ranks, np.unique(ranks)),
          "%s: segment ranks %r, expected one per rank with samples %r" % (name, seg_ranks, np.unique(ranks)))

    times = np.asarray(op["times"], dtype=np.float64)
    rec = {e["rank"]: e for e in op["recorded"]}
    want_count = sum(e["recorded"] for e in rec.values()) if rec else times.size
    check(int(f["operations/count"][k]) == want_count,
          "%s: operations/count %r, expected %r" % (name, f["operations/count"][k], want_count))
    stats = format3.stats_of(times)
    if rec:
        stats["sum"] = sum(e["sum"] for e in rec.values())
        stats["mean"] = stats["sum"] / want_count
        stats["min"] = min(e["min"] for e in rec.values())
        stats["max"] = max(e["max"] for e in rec.values())
    for key in format3.STATS:
        check_close(f["operations/" + key][k], stats[key], "%s: operations/%s" % (name, key))
    for s, r in zip(range(s0, s1), seg_ranks):
        sel = times[ranks == r]
        want = (rec[r]["sum"], rec[r]["min"], rec[r]["max"]) if r in rec else (sel.sum(), sel.min(), sel.max())
        for key, value in zip(("sum", "min", "max"), want):
            check_close(f["segments/" + key][s], value, "%s: segments/%s of rank %d" % (name, key, r))
        if rec:
            check("segments/recorded" in f, "%s: segments/recorded is missing" % name)
        if "segments/recorded" in f:
            want_rec = rec[r]["recorded"] if r in rec else sel.size
            check(int(f["segments/recorded"][s]) == want_rec,
                  "%s: segments/recorded of rank %d is %r, expected %r" % (name, r, f["segments/recorded"][s],
                                                                          want_rec))


def main():
    with tempfile.TemporaryDirectory(prefix="tprof-format3-saved-") as tmp:
        path, spec_path = os.path.join(tmp, "saved.h5"), os.path.join(tmp, "spec.json")
        subprocess.run([sys.argv[1], path, spec_path], check=True)
        with open(spec_path, encoding="utf-8") as spec_file:
            spec = json.load(spec_file)
        with h5py.File(path, "r") as f:
            version = int(f.attrs["format_version"])
            check(version == 3, "format_version is %d, expected 3" % version)
            check(f.attrs["format"] in ("tprof-profile", b"tprof-profile"), "format is %r" % f.attrs["format"])
            check(int(f.attrs["world_size"]) == spec["world_size"], "world_size is %r" % f.attrs["world_size"])
            names = format3.names(f)
            check(names == [op["name"] for op in spec["operations"]],
                  "operations/name is %r, recorded %r" % (names, [op["name"] for op in spec["operations"]]))
            o = f["segments/offset"][()]
            check(o[0] == 0 and o[-1] == f["samples/times"].shape[0], "segments/offset %r does not span the samples" % o)
            segs = f["operations/segments"][()]
            check(segs[0] == 0 and segs[-1] == f["segments/rank"].shape[0], "operations/segments %r" % segs)
            for k, op in enumerate(spec["operations"]):
                check_operation(f, k, op, spec["world_size"])
            hosts = [h.decode("utf-8") if isinstance(h, bytes) else h for h in f["ranks/hostname"][()]]
            check(hosts == spec["hostnames"], "ranks/hostname is %r" % hosts)
            check(np.array_equal(f["ranks/clock_offset"][()], spec["clock_offset"]), "ranks/clock_offset differs")
            check(np.array_equal(f["ranks/clock_offset_error"][()], spec["clock_offset_error"]),
                  "ranks/clock_offset_error differs")
            origin = f.attrs["timeline_origin"]
            origin = origin.decode("utf-8") if isinstance(origin, bytes) else origin
            check(origin == spec["timeline_origin"], "timeline_origin is %r" % origin)
    print("OK")


if __name__ == "__main__":
    main()
