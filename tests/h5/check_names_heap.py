#!/usr/bin/env python3
# check_names_heap.py — the names of a saved profile read by h5py, h5dump and by hand from the file's bytes (superblock, heap ids, global heap collections).
# SPDX-License-Identifier: MIT
"""Usage: check_names_heap.py LARGE SMALL

LARGE holds the names of expected_names(), SMALL the first of them alone
(test-h5-names-heap.c writes both). Prints OK."""
import shutil
import struct
import subprocess
import sys

import h5py
import numpy as np


def expected_names():
    names = ["a", "τ-forward", "日本語/io", "🚀 launch", "x" * 4998 + "é", "long-" + "y" * 69995]
    return names + ["op-%05d" % i for i in range(10000)]


def check_superblock(data):
    """Version 0, 8-byte addresses and lengths, its end of file the file's."""
    assert data[:8] == b"\x89HDF\r\n\x1a\n", "not an HDF5 file"
    assert data[8] == 0, "superblock version %d" % data[8]
    assert data[13] == 8 and data[14] == 8, "sizes %d, %d" % (data[13], data[14])
    base, _free, eof = struct.unpack_from("<QQQ", data, 24)
    assert base == 0, base
    assert eof == len(data), "end of file %d, file %d bytes" % (eof, len(data))


def collection_objects(data, addr):
    """Object index -> bytes of the collection at @addr, walked by hand."""
    assert data[addr:addr + 8] == b"GCOL\x01\x00\x00\x00", "no collection at %d" % addr
    (size,) = struct.unpack_from("<Q", data, addr + 8)
    # HDF5 reads 4096 bytes of a collection before its size
    assert 4096 <= size <= len(data) - addr, "collection at %d: %d bytes" % (addr, size)
    objects, at = {}, 16
    while size - at >= 16:
        index, _refs, _reserved, length = struct.unpack_from("<HHIQ", data, addr + at)
        if index == 0:  # the free space, its header included
            assert length >= 16 and length % 8 == 0 and at + length == size, (addr, at, length)
            at += length
            continue
        objects[index] = data[addr + at + 16:addr + at + 16 + length]
        at += 16 + (length + 7) // 8 * 8
    assert at <= size
    return objects


def check_by_hand(path, names):
    """Each heap id's length, collection and object give the name's bytes."""
    with h5py.File(path, "r") as f:
        dset = f["operations/name"]
        offset = dset.id.get_offset()
        assert dset.id.get_storage_size() == 16 * len(names)
    with open(path, "rb") as f:
        data = f.read()
    check_superblock(data)
    ids = np.frombuffer(data, dtype=[("length", "<u4"), ("addr", "<u8"), ("index", "<u4")],
                        count=len(names), offset=offset)
    collections = {}
    for k, name in enumerate(names):
        addr = int(ids["addr"][k])
        if addr not in collections:
            collections[addr] = collection_objects(data, addr)
        raw = name.encode("utf-8")
        assert int(ids["length"][k]) == len(raw), (k, ids["length"][k], len(raw))
        assert collections[addr][int(ids["index"][k])] == raw, "row %d" % k
    return len(collections)


def check_h5dump(path, names):
    h5dump = shutil.which("h5dump")
    if h5dump is None:
        print("h5dump not installed: left out")
        return
    out = subprocess.run([h5dump, "-d", "/operations/name", path], capture_output=True, check=True)
    text = out.stdout.decode("utf-8", "replace")
    # it shows the bytes past ASCII as octal escapes: the ASCII names,
    # and the ends of the others
    shown = ['"%s"' % names[0], '"%s"' % names[-1]]
    if len(names) > 1:
        shown += ['-forward"', ' launch"']
    for text_shown in shown:
        assert text_shown in text, "h5dump does not show %s" % text_shown
    # the whole file too: every object readable
    subprocess.run([h5dump, path], capture_output=True, check=True)


def main():
    large, small = sys.argv[1], sys.argv[2]
    names = expected_names()
    for path, want in ((large, names), (small, names[:1])):
        with h5py.File(path, "r") as f:
            read = f["operations/name"].asstr()[()]
            assert [s.encode("utf-8") for s in read] == [s.encode("utf-8") for s in want], path
            raw = f["operations/name"][()]
            assert list(raw) == [s.encode("utf-8") for s in want], path
        n_collections = check_by_hand(path, want)
        check_h5dump(path, want)
        if path == large:
            assert n_collections >= 3, "%d collections" % n_collections
    print("OK")


main()
