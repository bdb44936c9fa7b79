# make_bad.py — writes one broken profile of format 1 or 2 per rule of docs/file-format.md into a directory, for the refusal tests.
# SPDX-License-Identifier: MIT
import os
import struct
import sys

import h5py
import numpy as np

from write_format2 import cache_of


def good(f, world_size=4):
    """A valid profile; each case below breaks one thing in it."""
    f.attrs["format"] = "tprof-profile"
    f.attrs["format_version"] = 1
    f.attrs["world_size"] = world_size
    timings = f.create_group("timings", track_order=True)
    for name in ("forward", "backward"):
        group = timings.create_group(name)
        group.attrs["name"] = name
        group["times"] = np.array([0.5, 0.25, 0.125, 1.0])
        group["ranks"] = np.array([0, 1, 2, 3], dtype=np.int32)
    return timings


def replace(group, key, value):
    del group[key]
    group[key] = value


def good2(f):
    """good() in format 2, with the cached statistics numpy gives."""
    timings = good(f)
    f.attrs["format_version"] = 2
    for name in ("forward", "backward"):
        group = timings[name]
        datasets, attrs = cache_of(group["times"][()], group["ranks"][()], 4)
        for key, value in datasets.items():
            group[key] = value
        group.attrs.update(attrs)
    return timings


def patch(group, key, index, value):
    data = group[key][()]
    data[index] = value
    replace(group, key, data)


def rank_count_short(f):
    """rank 0 loses its sample in every per-rank member: 3 of 4 counted."""
    backward = good2(f)["backward"]
    patch(backward, "rank_count", 0, 0)
    patch(backward, "rank_sum", 0, 0.0)
    patch(backward, "rank_min", 0, np.nan)
    patch(backward, "rank_max", 0, np.nan)


def rank_sum_off(f):
    """rank 2's total 1e-6 off, the total attribute agreeing: only the samples tell."""
    backward = good2(f)["backward"]
    patch(backward, "rank_sum", 2, 0.125 + 1e-6)
    backward.attrs["sum"] = backward["rank_sum"][()].sum()
    backward.attrs["mean"] = backward.attrs["sum"] / 4


def ranks_3_bytes(f):
    """`ranks` of a 3-byte integer type, which HDF5 allows and no writer of ours makes."""
    backward = good(f)["backward"]
    del backward["ranks"]
    odd = h5py.h5t.STD_I32LE.copy()
    odd.set_size(3)
    space = h5py.h5s.create_simple((4,))
    dset = h5py.h5d.create(backward.id, b"ranks", odd, space)
    dset.write(h5py.h5s.ALL, h5py.h5s.ALL, np.array([0, 1, 2, 3], dtype=np.int32), mtype=h5py.h5t.NATIVE_INT32)


def shrink_layout(path, op, name):
    """Rewrites the size field of a contiguous dataset's layout message in
    the file's bytes to one value less than its extent needs, the damage a
    flipped layout field does."""
    with h5py.File(path, "r") as f:
        dset = f["timings"][op][name]
        offset, size = dset.id.get_offset(), dset.id.get_storage_size()
    with open(path, "rb") as f:
        data = bytearray(f.read())
    field = struct.pack("<QQ", offset, size)
    assert data.count(field) == 1, "the layout message must be found exactly once"
    at = data.index(field) + 8
    data[at:at + 8] = struct.pack("<Q", size - dset_item_size(path, op, name))
    with open(path, "wb") as f:
        f.write(data)


def dset_item_size(path, op, name):
    with h5py.File(path, "r") as f:
        return f["timings"][op][name].dtype.itemsize


CASES = {
    "no-format": lambda f: (good(f), f.attrs.__delitem__("format")),
    "wrong-format": lambda f: (good(f), f.attrs.__setitem__("format", "caliper-profile")),
    "format-not-string": lambda f: (good(f), f.attrs.__setitem__("format", 7)),
    "no-format-version": lambda f: (good(f), f.attrs.__delitem__("format_version")),
    "format-version-4": lambda f: (good(f), f.attrs.__setitem__("format_version", 4)),
    "no-world-size": lambda f: (good(f), f.attrs.__delitem__("world_size")),
    "world-size-0": lambda f: (good(f), f.attrs.__setitem__("world_size", 0)),
    "world-size-float": lambda f: (good(f), f.attrs.__setitem__("world_size", 4.0)),
    "no-timings": lambda f: (good(f), f.__delitem__("timings")),
    "times-2d": lambda f: replace(good(f)["backward"], "times", np.ones((2, 2))),
    "times-string": lambda f: replace(good(f)["backward"], "times",
                                      np.array([b"1", b"2", b"3", b"4"])),
    "ranks-float": lambda f: replace(good(f)["backward"], "ranks", np.array([0.0, 1.0, 2.0, 3.0])),
    "no-ranks": lambda f: good(f)["backward"].__delitem__("ranks"),
    "length-mismatch": lambda f: replace(good(f)["backward"], "ranks", np.array([0, 1, 2], dtype=np.int32)),
    "nan-time": lambda f: replace(good(f)["backward"], "times", np.array([0.5, 0.25, np.nan, 1.0])),
    "inf-time": lambda f: replace(good(f)["backward"], "times", np.array([0.5, 0.25, 0.5, np.inf])),
    "negative-time": lambda f: replace(good(f)["backward"], "times", np.array([0.5, -0.25, 0.5, 1.0])),
    "rank-out-of-range": lambda f: replace(good(f)["backward"], "ranks", np.array([0, 1, 2, 4], dtype=np.int64)),
    "negative-rank": lambda f: replace(good(f)["backward"], "ranks", np.array([0, -1, 2, 3], dtype=np.int16)),
    "duplicate-name": lambda f: good(f)["backward"].attrs.__setitem__("name", "forward"),
    "empty-name": lambda f: good(f)["backward"].attrs.__setitem__("name", ""),
    "bad-utf8-name": lambda f: good(f)["backward"].attrs.__setitem__("name", np.bytes_(b"back\xffward")),
    "soft-link": lambda f: good(f).__setitem__("alias", h5py.SoftLink("/timings/forward")),
    "not-a-group": lambda f: good(f).__setitem__("stray", np.arange(3)),
    "hostname-length": lambda f: (good(f), f.create_group("ranks").__setitem__(
        "hostname", np.array([b"a", b"b"]))),
    # format 2: the cached statistics
    "cache-rank-sum-length": lambda f: replace(good2(f)["backward"], "rank_sum", np.zeros(3)),
    "cache-rank-count-float": lambda f: replace(good2(f)["backward"], "rank_count", np.ones(4)),
    "cache-negative-count": lambda f: patch(good2(f)["backward"], "rank_count", 1, -1),
    "cache-count-mismatch": lambda f: good2(f)["backward"].attrs.__setitem__("count", np.int64(5)),
    "cache-rank-count-short": rank_count_short,
    "cache-nan-min": lambda f: patch(good2(f)["backward"], "rank_min", 2, np.nan),
    "cache-min-above-max": lambda f: patch(good2(f)["backward"], "rank_min", 2, 2.0),
    "cache-p95-string": lambda f: good2(f)["backward"].attrs.__setitem__("p95", "fast"),
    "cache-median-above-p95": lambda f: good2(f)["backward"].attrs.__setitem__("median", 0.99),
    "cache-sum-vs-samples": rank_sum_off,
    "cache-p99-vs-samples": lambda f: good2(f)["backward"].attrs.__setitem__("p99", 0.95),
    "ranks-3-bytes": ranks_3_bytes,
    "starts-length": lambda f: good2(f)["backward"].__setitem__("starts", np.zeros(3)),
    "starts-nan": lambda f: good2(f)["backward"].__setitem__("starts", np.array([0.0, 1.0, np.nan, 2.0])),
    "threads-negative": lambda f: (good2(f)["backward"].__setitem__("starts", np.zeros(4)),
                                   f["timings"]["backward"].__setitem__("threads", np.array([0, -1, 0, 0], dtype=np.int32))),
    "clock-offset-length": lambda f: (good2(f), f.create_group("ranks").__setitem__("clock_offset", np.zeros(3)),
                                      f["ranks"].__setitem__("clock_offset_error", np.zeros(3))),
    "clock-offset-error-negative": lambda f: (good2(f), f.create_group("ranks").__setitem__("clock_offset", np.zeros(4)),
                                              f["ranks"].__setitem__("clock_offset_error", np.array([0.0, 1e-6, -1e-6, 0.0]))),
}


def main():
    directory = sys.argv[1]
    for case, make in CASES.items():
        with h5py.File(os.path.join(directory, case + ".h5"), "w") as f:
            make(f)
    # a valid file whose `backward` group lost its name: readers use the link name
    with h5py.File(os.path.join(directory, "no-name-attribute.h5"), "w") as f:
        timings = good(f)
        del timings["backward"].attrs["name"]
        timings.move("backward", "io%2Fcheck%25")
    with open(os.path.join(directory, "not-hdf5.h5"), "w") as f:
        f.write("forward,0.5\nbackward,0.25\n")
    open(os.path.join(directory, "empty.h5"), "wb").close()
    with h5py.File(os.path.join(directory, "valid.h5"), "w") as f:
        good(f)
    with h5py.File(os.path.join(directory, "valid2.h5"), "w") as f:
        good2(f)
    # a user block shifts every address: the heap right after the samples
    # must still be scanned
    with h5py.File(os.path.join(directory, "large-userblock.h5"), "w", userblock_size=4096) as f:
        f.attrs["format"] = "tprof-profile"
        f.attrs["format_version"] = 1
        f.attrs["world_size"] = 4
        big = f.create_group("timings").create_group("big")
        big["times"] = np.linspace(0.0, 1.0, 400000)
        big["ranks"] = np.repeat(np.arange(4, dtype=np.int32), 100000)
        f.create_group("ranks")["hostname"] = [chr(ord("a") + r) * 3000 for r in range(4)]
    with h5py.File(os.path.join(directory, "short-storage.h5"), "w") as f:
        good(f)
    shrink_layout(os.path.join(directory, "short-storage.h5"), "backward", "times")
    with open(os.path.join(directory, "valid.h5"), "rb") as f:
        data = f.read()
    with open(os.path.join(directory, "truncated.h5"), "wb") as f:
        f.write(data[: len(data) // 2])
    print("OK")


main()
