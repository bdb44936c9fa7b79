# check-convert.py — `tprof convert IN OUT` on profiles of versions 1-3: OUT holds, read with h5py alone, the same samples per operation and rank (starts, threads, sampled counts, host names, clock offsets, a merged profile's data_until, IN's created, producer and clock too) in format 3; bad uses fail clearly and never touch IN.
# Usage: check-convert.py TPROF TESTS_SRCDIR   (prints OK)
# SPDX-License-Identifier: MIT
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

import h5py
import numpy as np

TPROF, SRCDIR = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(SRCDIR, "h5"))
import format3  # noqa: E402
import write_format2  # noqa: E402

errors = []


def text(value):
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def read_layout_2(f):
    """Versions 1 and 2: a group per operation under /timings."""
    ops = {}
    for link in f["timings"]:
        g = f["timings"][link]
        ranks = g["ranks"][()]
        op = {"world": {}}
        for r in np.unique(ranks):
            keep = ranks == r
            op["world"][int(r)] = {key: g[key][()][keep] for key in ("times", "starts", "threads") if key in g}
        if "rank_recorded" in g:
            op["recorded"] = {int(r): (int(g["rank_recorded"][r]), float(g["rank_sum"][r]), float(g["rank_min"][r]),
                                       float(g["rank_max"][r]))
                              for r in range(g["rank_recorded"].shape[0]) if g["rank_recorded"][r] > 0}
        ops[text(g.attrs["name"])] = op
    return ops


def read_layout_3(f):
    """Version 3 by the format's recipe."""
    ops = {}
    for k, name in enumerate(format3.names(f)):
        got = format3.read_operation(f, k)
        op = {"world": {}}
        for r in np.unique(got["ranks"]):
            keep = got["ranks"] == r
            op["world"][int(r)] = {key: got[key][keep] for key in ("times", "starts", "threads") if key in got}
        s0, s1 = got["segments"]
        if "segments/recorded" in f:
            rec = {int(f["segments/rank"][s]): (int(f["segments/recorded"][s]), float(f["segments/sum"][s]),
                                                float(f["segments/min"][s]), float(f["segments/max"][s]))
                   for s in range(s0, s1)}
            # a rank whose stored samples are all it recorded is no sampled rank
            if any(rec[r][0] > op["world"][r]["times"].size for r in rec):
                op["recorded"] = rec
        ops[name] = op
    return ops


def read_profile(path):
    with h5py.File(path, "r") as f:
        version = int(f.attrs["format_version"])
        profile = {"version": version, "world_size": int(f.attrs["world_size"]),
                   "ops": read_layout_3(f) if version >= 3 else read_layout_2(f)}
        if "ranks/hostname" in f:
            profile["hostname"] = [text(h) for h in f["ranks/hostname"][()]]
        for key in ("clock_offset", "clock_offset_error", "data_until"):
            if "ranks/" + key in f:
                profile[key] = [float(v) for v in f["ranks/" + key][()]]
        if "timeline_origin" in f.attrs:
            profile["timeline_origin"] = text(f.attrs["timeline_origin"])
        profile["root"] = {key: text(f.attrs[key]) for key in ("created", "producer", "clock") if key in f.attrs}
    return profile


def check_root(label, a, b):
    """The copy keeps the original's created, producer and clock; where
    the original has none, the copy has this tprof's."""
    for key in ("created", "producer", "clock"):
        if key in a["root"] and b["root"].get(key) != a["root"][key]:
            errors.append("%s: %s is %r in the copy, %r in the original" % (label, key, b["root"].get(key),
                                                                          a["root"][key]))
    if "producer" not in a["root"] and not b["root"].get("producer", "").startswith("libtprof-capture "):
        errors.append("%s: the copy's producer is %r, expected this tprof's" % (label, b["root"].get("producer")))
    if "created" not in a["root"] and re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z",
                                                    b["root"].get("created", "")) is None:
        errors.append("%s: the copy's created is %r, expected the time of the copy" % (label, b["root"].get("created")))


def command_json(command, path):
    done = subprocess.run([TPROF, command, path, "--format", "json"], capture_output=True, text=True)
    if done.returncode != 0:
        errors.append("%s %s: %s" % (command, path, done.stderr.strip()))
        return None
    got = json.loads(done.stdout)
    del got["file"]
    return got


def same_json(a, b):
    """Equal, numbers within a relative 1e-12 (a statistic may be summed
    in another order)."""
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= 1e-12 * max(abs(a), abs(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    return a == b


def check_commands(label, src, out, timeline):
    """What a user sees of the copy is what the original shows."""
    for command in ("summary", "stragglers") if timeline else ("summary",):
        a, b = command_json(command, src), command_json(command, out)
        if a is not None and b is not None and not same_json(a, b):
            errors.append("%s: tprof %s of the copy differs:\n  %r\n  %r" % (label, command, b, a))


def compare(label, src, out):
    a, b = read_profile(src), read_profile(out)
    if b["version"] != 3:
        errors.append("%s: the copy has format_version %d, expected 3" % (label, b["version"]))
    check_root(label, a, b)
    for key in ("world_size", "hostname", "clock_offset", "clock_offset_error", "timeline_origin"):
        if a.get(key) != b.get(key):
            errors.append("%s: %s is %r in the copy, %r in the original" % (label, key, b.get(key), a.get(key)))
    # NaN (a rank without data) equals NaN here
    if ("data_until" in a) != ("data_until" in b) or (
            "data_until" in a and not np.array_equal(a["data_until"], b["data_until"], equal_nan=True)):
        errors.append("%s: data_until is %r in the copy, %r in the original" % (label, b.get("data_until"),
                                                                               a.get("data_until")))
    check_commands(label, src, out, any("starts" in w for op in a["ops"].values() for w in op["world"].values()))
    if set(a["ops"]) != set(b["ops"]):
        errors.append("%s: operations %r, expected %r" % (label, sorted(b["ops"]), sorted(a["ops"])))
        return
    for name, op in a["ops"].items():
        copy = b["ops"][name]
        if sorted(op["world"]) != sorted(copy["world"]):
            errors.append("%s: %s: ranks %r, expected %r" % (label, name, sorted(copy["world"]), sorted(op["world"])))
            continue
        for r, samples in op["world"].items():
            for key, values in samples.items():
                got = copy["world"][r].get(key)
                if got is None or not np.array_equal(np.asarray(got, dtype=np.float64),
                                                     np.asarray(values, dtype=np.float64)):
                    errors.append("%s: %s: rank %d: %s %r, expected %r" % (label, name, r, key, got, values))
        if op.get("recorded") != copy.get("recorded"):
            errors.append("%s: %s: recorded %r, expected %r" % (label, name, copy.get("recorded"), op.get("recorded")))


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def check_bad_uses(tmp, good):
    before = digest(good)
    link = os.path.join(tmp, "link.h5")
    os.symlink(good, link)
    hard = os.path.join(tmp, "hard.h5")
    os.link(good, hard)
    cases = [
        ([good, good], 2, "is the input file itself"),
        ([good, link], 2, "is the input file itself"),
        ([good, hard], 2, "is the input file itself"),
        ([good], 2, "missing OUT"),
        ([], 2, "missing IN"),
        ([good, os.path.join(tmp, "a.h5"), os.path.join(tmp, "b.h5")], 2, "unexpected argument"),
        ([os.path.join(tmp, "absent.h5"), os.path.join(tmp, "x.h5")], 1, "tprof: %s: " % os.path.join(tmp, "absent.h5")),
        ([good, os.path.join(tmp, "no-such-dir", "x.h5")], 1, "tprof: %s: " % os.path.join(tmp, "no-such-dir", "x.h5")),
    ]
    for args, status, message in cases:
        done = subprocess.run([TPROF, "convert"] + args, capture_output=True, text=True)
        if done.returncode != status or message not in done.stderr or done.stderr.count("\n") != 1:
            errors.append("convert %r: exit %d, stderr %r; expected exit %d and %r"
                          % (args, done.returncode, done.stderr, status, message))
    # a profile that cannot be read leaves no copy
    damaged = os.path.join(tmp, "damaged.h5")
    write_format2.write(damaged, 6, write_format2.sample_ops(np.random.default_rng(3), 6, [50, 40]))
    write_format2.damage_times(damaged, "io%2Fstep%251")
    out = os.path.join(tmp, "damaged-copy.h5")
    done = subprocess.run([TPROF, "convert", damaged, out], capture_output=True, text=True)
    if done.returncode != 1 or not done.stderr.startswith("tprof: %s: " % damaged) or os.path.exists(out):
        errors.append("convert of a damaged profile: exit %d, stderr %r, copy written: %s"
                      % (done.returncode, done.stderr, os.path.exists(out)))
    if digest(good) != before:
        errors.append("the input profile changed")


def check_bad_data_until(tmp, merged):
    """A data_until that is infinite is named, and nothing is written."""
    bad = os.path.join(tmp, "bad-until.h5")
    with open(merged, "rb") as f, open(bad, "wb") as g:
        g.write(f.read())
    with h5py.File(bad, "a") as f:
        f["ranks/data_until"][1] = np.inf
    out = os.path.join(tmp, "bad-until-copy.h5")
    done = subprocess.run([TPROF, "convert", bad, out], capture_output=True, text=True)
    if done.returncode != 1 or "/ranks/data_until[1] is inf" not in done.stderr or os.path.exists(out):
        errors.append("convert of an infinite data_until: exit %d, stderr %r, copy written: %s"
                      % (done.returncode, done.stderr, os.path.exists(out)))


def main():
    rng = np.random.default_rng(11)
    with tempfile.TemporaryDirectory(prefix="tprof-convert-") as tmp:
        inputs = {"v2 by libtprof (timeline, sampled, hosts, clock offsets)":
                  os.path.join(SRCDIR, "fixtures", "full-v2.h5")}
        # versions 1 and 2 as h5py writes them: ranks interleaved, no cache in 1
        v1, v2 = os.path.join(tmp, "v1.h5"), os.path.join(tmp, "v2.h5")
        write_format2.write(v1, 6, write_format2.sample_ops(rng, 6, [300, 2000, 1, 0], grouped=False),
                            cache=False, version=1)
        write_format2.write(v2, 6, write_format2.sample_ops(rng, 6, [400, 1, 0, 50], grouped=False))
        inputs["v1 by h5py"] = v1
        inputs["v2 by h5py"] = v2
        # and version 3 itself
        v3 = os.path.join(tmp, "v3.h5")
        ops = [format3.operation("a", [1e-3, 2e-3, 3e-3], [1, 0, 1], [0.0, 0.5, 0.25], [0, 1, 0]),
               format3.operation("b", [], [], [], [])]
        format3.write(v3, 2, ops, hostnames=["h0", "h1"], clock_offsets=([0.0, 1e-3], [0.0, 1e-6]),
                      timeline_origin="2026-12-05T03:00:00Z")
        inputs["v3 by h5py"] = v3
        # a profile merged from spill files: until when each rank has data
        merged = os.path.join(tmp, "merged.h5")
        format3.write(merged, 2, ops, hostnames=["h0", "h1"], clock_offsets=([0.0, 1e-3], [0.0, 1e-6]),
                      timeline_origin="2026-12-05T03:00:00Z")
        with h5py.File(merged, "a") as f:
            f["ranks/data_until"] = np.array([0.75, np.nan])
        inputs["v3 merged from spill files, by h5py"] = merged
        # the root attributes are kept from one that has them all
        with h5py.File(v3, "r") as f:
            if not all(key in f.attrs for key in ("created", "producer", "clock")):
                errors.append("the version 3 input lacks created, producer or clock: nothing to keep")
        for k, (label, src) in enumerate(inputs.items()):
            out = os.path.join(tmp, "copy%d.h5" % k)
            done = subprocess.run([TPROF, "convert", src, out], capture_output=True, text=True)
            if done.returncode != 0 or done.stdout or done.stderr:
                errors.append("%s: convert exit %d, output %r %r" % (label, done.returncode, done.stdout, done.stderr))
                continue
            compare(label, src, out)
        check_bad_uses(tmp, v2)
        check_bad_data_until(tmp, merged)
    if errors:
        print("FAIL:\n" + "\n".join(errors))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
