# check_saved.py — reads a profile saved by libtprof-capture with h5py alone and checks it against docs/file-format.md (format 3).
# SPDX-License-Identifier: MIT
import json
import re
import sys

import h5py
import numpy as np


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def check_vlen_utf8(dtype, what):
    info = h5py.check_string_dtype(dtype)
    check(info is not None, what + " is not a string")
    check(info.encoding == "utf-8", what + " is not UTF-8: " + repr(info.encoding))
    check(info.length is None, what + " is not variable-length")


def check_int_attr(attrs, key, expected):
    value = attrs[key]
    check(np.issubdtype(np.asarray(value).dtype, np.integer), key + " is not an integer")
    check(int(value) == expected, "%s is %r, expected %r" % (key, value, expected))


def check_close(got, want, what):
    # relative tolerance 1e-9; NaN only where NaN is expected
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    same_nan = np.array_equal(np.isnan(got), np.isnan(want))
    ok = same_nan and np.allclose(got[~np.isnan(want)], want[~np.isnan(want)], rtol=1e-9, atol=0)
    check(ok, "%s is %r, numpy gives %r" % (what, got, want))


def crc32c(data):
    """CRC-32C (Castagnoli, reflected 0x82F63B78), bit by bit: independent of the C code."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def check_crc(dset, data):
    check("crc32c" in dset.attrs, "%s has no crc32c attribute" % dset.name)
    want = crc32c(data)
    check(int(dset.attrs["crc32c"]) == want, "%s: crc32c is %r, the bytes give %r"
          % (dset.name, int(dset.attrs["crc32c"]), want))


def check_column(f, path, dtype, length):
    check(path in f, "/%s is missing" % path)
    dset = f[path]
    check(dset.dtype == np.dtype(dtype), "/%s has dtype %s, expected %s" % (path, dset.dtype, dtype))
    check(dset.shape == (length,), "/%s has shape %r, expected (%d,)" % (path, dset.shape, length))
    check(dset.chunks is None and dset.compression is None, "/%s is chunked or compressed" % path)
    values = dset[()]
    check_crc(dset, values.astype(dtype).tobytes())
    return values


STATISTICS = ("sum", "mean", "std", "min", "max", "median", "p95", "p99")


def want_statistics(times):
    n, nan = times.size, float("nan")
    return {
        "sum": times.sum() if n else 0.0,
        "mean": times.mean() if n else nan,
        "std": times.std(ddof=1) if n > 1 else nan,
        "min": times.min() if n else nan,
        "max": times.max() if n else nan,
        "median": np.median(times) if n else nan,
        "p95": np.percentile(times, 95, method="linear") if n else nan,
        "p99": np.percentile(times, 99, method="linear") if n else nan,
    }


def check_columns(f, spec):
    """Format 3's columns against numpy on the spec's samples."""
    ops, world_size = spec["operations"], spec["world_size"]
    k = len(ops)
    names = f["operations/name"]
    check_vlen_utf8(names.dtype, "/operations/name")
    got_names = [n.decode("utf-8") for n in names[()]]
    check(got_names == [op["name"] for op in ops], "names %r, expected %r" % (got_names, [op["name"] for op in ops]))
    check_crc(names, b"".join(n.encode("utf-8") + b"\0" for n in got_names))

    # what each operation should store: samples grouped by rank, stable
    grouped = []
    for op in ops:
        t = np.array(op["times"], dtype=np.float64)
        r = np.array(op["ranks"], dtype=np.int32)
        order = np.argsort(r, kind="stable")
        grouped.append((t[order], r[order]))
    seg_ranks = [np.unique(r) for _, r in grouped]
    s = sum(u.size for u in seg_ranks)
    n = sum(t.size for t, _ in grouped)

    segments = check_column(f, "operations/segments", "<i8", k + 1)
    want_segments = np.concatenate([[0], np.cumsum([u.size for u in seg_ranks])]).astype(np.int64)
    check(np.array_equal(segments, want_segments), "operations/segments is %r, expected %r" % (segments, want_segments))
    rank = check_column(f, "segments/rank", "<i4", s)
    check(np.array_equal(rank, np.concatenate(seg_ranks + [np.array([], np.int32)]).astype(np.int32)),
          "segments/rank is %r" % rank)
    offset = check_column(f, "segments/offset", "<i8", s + 1)
    counts = [np.bincount(r, minlength=world_size)[u] for (_, r), u in zip(grouped, seg_ranks)]
    want_offset = np.concatenate([[0], np.cumsum(np.concatenate(counts + [np.array([], np.int64)]))]).astype(np.int64)
    check(np.array_equal(offset, want_offset), "segments/offset is %r, expected %r" % (offset, want_offset))
    times = check_column(f, "samples/times", "<f8", n)
    want_times = np.concatenate([t for t, _ in grouped] + [np.array([], np.float64)])
    check(np.array_equal(times.view(np.uint64), want_times.view(np.uint64)),
          "samples/times are not the stable rank-grouped input, bit for bit")

    count = check_column(f, "operations/count", "<i8", k)
    check(np.array_equal(count, [t.size for t, _ in grouped]), "operations/count is %r" % count)
    for key in STATISTICS:
        got = check_column(f, "operations/" + key, "<f8", k)
        check_close(got, [want_statistics(t)[key] for t, _ in grouped], "operations/" + key)
    seg = {key: check_column(f, "segments/" + key, "<f8", s) for key in ("sum", "min", "max")}
    for kk, ((t, r), u) in enumerate(zip(grouped, seg_ranks)):
        s0, s1 = segments[kk], segments[kk + 1]
        # the recipe of docs/file-format.md
        t_op = times[offset[s0]:offset[s1]]
        r_op = np.repeat(rank[s0:s1], np.diff(offset[s0:s1 + 1]))
        check(np.array_equal(t_op, t) and np.array_equal(r_op, r), "operation %d read back differs" % kk)
        check_close(seg["sum"][s0:s1], [t[r == x].sum() for x in u], "segments/sum of operation %d" % kk)
        check_close(seg["min"][s0:s1], [t[r == x].min() for x in u], "segments/min of operation %d" % kk)
        check_close(seg["max"][s0:s1], [t[r == x].max() for x in u], "segments/max of operation %d" % kk)
    check("segments/recorded" not in f, "segments/recorded written without sampling")
    check("samples/starts" not in f and "samples/threads" not in f, "a timeline written without one")


def main():
    path, spec_path = sys.argv[1], sys.argv[2]
    with open(spec_path, encoding="utf-8") as spec_file:
        spec = json.load(spec_file)

    with h5py.File(path, "r") as f:
        attrs = f.attrs
        for key in ("format", "created", "producer", "clock"):
            check(key in attrs, "root attribute %s is missing" % key)
            check_vlen_utf8(attrs.get_id(key).dtype, "root attribute " + key)
            check(isinstance(attrs[key], str), "root attribute %s is not read as str" % key)
        check(attrs["format"] == "tprof-profile", "format is %r" % attrs["format"])
        check_int_attr(attrs, "format_version", 3)
        check_int_attr(attrs, "world_size", spec["world_size"])
        check(re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z", attrs["created"]) is not None,
              "created is not ISO 8601 UTC: %r" % attrs["created"])
        check(attrs["producer"].startswith("libtprof-capture "), "producer is %r" % attrs["producer"])
        check(attrs["clock"] == "CLOCK_MONOTONIC", "clock is %r" % attrs["clock"])

        check_columns(f, spec)

        if spec.get("hostnames") is not None:
            hostnames = f["ranks/hostname"]
            check_vlen_utf8(hostnames.dtype, "/ranks/hostname")
            check(hostnames.shape == (spec["world_size"],), "/ranks/hostname has shape %r" % (hostnames.shape,))
            got = [h.decode("utf-8") for h in hostnames[()]]
            check(got == spec["hostnames"], "host names %r, expected %r" % (got, spec["hostnames"]))
        else:
            check("ranks" not in f, "/ranks written without host names")

    print("OK")


main()
