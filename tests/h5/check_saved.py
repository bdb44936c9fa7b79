# check_saved.py — reads a profile saved by libtprof-capture with h5py alone and checks it against DESIGN.md section 2.
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


def escape(name):
    # the contract's escaping, written independently of the C code
    if name == ".":
        return "%2E"
    return name.replace("%", "%25").replace("/", "%2F")


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
    # relative tolerance 1e-9 (DESIGN.md 2b); NaN only where NaN is expected
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    same_nan = np.array_equal(np.isnan(got), np.isnan(want))
    ok = same_nan and np.allclose(got[~np.isnan(want)], want[~np.isnan(want)], rtol=1e-9, atol=0)
    check(ok, "%s is %r, numpy gives %r" % (what, got, want))


def check_cached_stats(group, link, times, ranks, world_size):
    """Format 2's cache of an operation against numpy on the saved samples."""
    n = times.size
    check_int_attr(group.attrs, "count", n)
    nan = float("nan")
    want = {
        "sum": times.sum() if n else 0.0,
        "mean": times.mean() if n else nan,
        "std": times.std(ddof=1) if n > 1 else nan,
        "min": times.min() if n else nan,
        "max": times.max() if n else nan,
        "median": np.median(times) if n else nan,
        "p95": np.percentile(times, 95, method="linear") if n else nan,
        "p99": np.percentile(times, 99, method="linear") if n else nan,
    }
    for key, value in want.items():
        check(key in group.attrs, "%s: attribute %s is missing" % (link, key))
        check(group.attrs.get_id(key).dtype == np.dtype("<f8"), "%s: attribute %s is not float64" % (link, key))
        check_close(group.attrs[key], value, "%s.%s" % (link, key))

    counts = np.bincount(ranks, minlength=world_size)
    sums = np.array([times[ranks == r].sum() for r in range(world_size)])
    mins = np.array([times[ranks == r].min() if counts[r] else nan for r in range(world_size)])
    maxs = np.array([times[ranks == r].max() if counts[r] else nan for r in range(world_size)])
    for key, dtype, value in (("rank_count", "<i8", counts), ("rank_sum", "<f8", sums),
                              ("rank_min", "<f8", mins), ("rank_max", "<f8", maxs)):
        check(key in group, "%s/%s is missing" % (link, key))
        dset = group[key]
        check(dset.dtype == np.dtype(dtype), "%s/%s has dtype %s" % (link, key, dset.dtype))
        check(dset.shape == (world_size,), "%s/%s has shape %r" % (link, key, dset.shape))
        if key == "rank_count":
            check(np.array_equal(dset[()], value), "%s/rank_count is %r, numpy gives %r" % (link, dset[()], value))
        else:
            check_close(dset[()], value, "%s/%s" % (link, key))


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
        check_int_attr(attrs, "format_version", 2)
        check_int_attr(attrs, "world_size", spec["world_size"])
        check(re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z", attrs["created"]) is not None,
              "created is not ISO 8601 UTC: %r" % attrs["created"])
        check(attrs["producer"].startswith("libtprof-capture "), "producer is %r" % attrs["producer"])
        check(attrs["clock"] == "CLOCK_MONOTONIC", "clock is %r" % attrs["clock"])

        timings = f["timings"]
        flags = timings.id.get_create_plist().get_link_creation_order()
        check(flags & h5py.h5p.CRT_ORDER_TRACKED, "/timings does not track creation order")
        check(flags & h5py.h5p.CRT_ORDER_INDEXED, "/timings does not index creation order")

        links = []
        timings.id.links.iterate(lambda name: links.append(name.decode("utf-8")),
                                 idx_type=h5py.h5.INDEX_CRT_ORDER)
        expected_links = [escape(op["name"]) for op in spec["operations"]]
        check(links == expected_links, "links in creation order %r, expected %r" % (links, expected_links))

        for op, link in zip(spec["operations"], links):
            group = timings[link]
            check_vlen_utf8(group.attrs.get_id("name").dtype, "name of " + link)
            check(group.attrs["name"] == op["name"], "name of %r is %r" % (link, group.attrs["name"]))

            times, ranks = group["times"], group["ranks"]
            check(times.dtype == np.dtype("<f8"), "%s/times has dtype %s" % (link, times.dtype))
            check(ranks.dtype == np.dtype("<i4"), "%s/ranks has dtype %s" % (link, ranks.dtype))
            check(times.ndim == 1 and ranks.ndim == 1, link + ": datasets are not 1-D")
            for dset in (times, ranks):
                check(dset.chunks is None and dset.compression is None,
                      "%s is chunked or compressed" % dset.name)

            want_times = np.array(op["times"], dtype=np.float64)
            want_ranks = np.array(op["ranks"], dtype=np.int32)
            order = np.argsort(want_ranks, kind="stable")
            got_times, got_ranks = times[()], ranks[()]
            check(got_times.shape == want_times.shape, "%s has %d samples, expected %d"
                  % (link, got_times.size, want_times.size))
            check(np.array_equal(got_times.view(np.uint64), want_times[order].view(np.uint64)),
                  "%s/times are not the stable rank-grouped input, bit for bit" % link)
            check(np.array_equal(got_ranks, want_ranks[order]), "%s/ranks are not grouped by rank" % link)
            check_cached_stats(group, link, got_times, got_ranks, spec["world_size"])

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
