# spill_journal.py — an independent reader of spill files, written from docs/spill-format.md, for the tests.
# SPDX-License-Identifier: MIT
"""Reads a spill file (docs/spill-format.md) with struct and numpy alone.

read(path) returns a Journal: the header, every record in order (type,
offset, payload), the committed flushes, and per (operation name, thread)
the committed samples as float64 numpy arrays of durations and starts in
seconds. A damaged or incomplete tail stops the reading, as the format
says, and is reported in .tail."""

import struct
import numpy as np

MAGIC = 0x52505354
HEADER, NAMES, SAMPLES, CLOCK, COMMIT, STATE, SIGNAL, END = range(1, 9)
TOP = np.uint64(1 << 63)


def crc32c(data, crc=0):
    """CRC-32C, bit by bit (slow, but written apart from the C code)."""
    table = _table()
    crc ^= 0xFFFFFFFF
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


_TABLE = []


def _table():
    if not _TABLE:
        for i in range(256):
            c = i
            for _ in range(8):
                c = (c >> 1) ^ (0x82F63B78 if c & 1 else 0)
            _TABLE.append(c)
    return _TABLE


class Reader:
    def __init__(self, payload):
        self.b = payload
        self.at = 0

    def take(self, fmt):
        v = struct.unpack_from("<" + fmt, self.b, self.at)
        self.at += struct.calcsize("<" + fmt)
        return v if len(v) > 1 else v[0]

    def str(self):
        n = self.take("H")
        s = self.b[self.at:self.at + n].decode("utf-8")
        self.at += n
        return s


class Journal:
    def __init__(self):
        self.header = None
        self.records = []      # (type, offset, payload bytes)
        self.commits = []      # dicts: flush, when, total, offset_end
        self.signals = []      # (signo, when)
        self.end = None        # (when, path)
        self.names = []        # committed names, by file id
        self.samples = {}      # (name, thread) -> [durations, starts] (numpy, committed)
        self.encodings = set()  # encodings seen in committed SAMPLES
        self.tail = None       # (offset, why) of a damaged or incomplete tail
        self.size = 0

    def total(self):
        return sum(len(d) for d, _ in self.samples.values())

    def series(self, name, thread=0):
        d, s = self.samples.get((name, thread), (np.zeros(0), np.zeros(0)))
        return d, s


def _samples(payload, clock):
    r = Reader(payload)
    op, thread, n, enc = r.take("IiII")
    if len(payload) != 16 + 16 * n:
        raise ValueError("SAMPLES of %d samples has %d bytes" % (n, len(payload)))
    start_bits = np.frombuffer(payload, dtype="<u8", count=n, offset=16)           # 8 x n starts
    dur_bits = np.frombuffer(payload, dtype="<u8", count=n, offset=16 + 8 * n)   # then 8 x n durations
    if enc == 0:
        return op, thread, dur_bits.view("<f8").copy(), start_bits.view("<f8").copy(), enc
    if enc != 1:
        raise ValueError("unknown encoding %d" % enc)
    if clock is None:
        raise ValueError("raw SAMPLES with no CLOCK before them")
    ref_ticks, ref_secs, spt = clock
    starts = ref_secs + (start_bits.view("<i8").astype(np.float64) - ref_ticks) * spt
    ticks = (dur_bits & TOP) != 0
    durations = np.where(ticks, ((dur_bits & ~TOP).astype(np.float64)) * spt, dur_bits.view("<f8"))
    durations = np.where(ticks & ((dur_bits & ~TOP) == 0), 0.0, durations)
    return op, thread, durations, starts, enc


def read(path):
    data = open(path, "rb").read()
    j = Journal()
    j.size = len(data)
    at = 0
    pending = []          # records of the flush under way
    clock = None
    names = []
    while at < len(data):
        if at + 16 > len(data):
            j.tail = (at, "incomplete record header")
            break
        magic, rtype, flags, length, crc = struct.unpack_from("<IHHII", data, at)
        if magic != MAGIC:
            j.tail = (at, "bad magic")
            break
        padded = (length + 7) // 8 * 8
        if at + 16 + padded > len(data):
            j.tail = (at, "incomplete record")
            break
        payload = data[at + 16:at + 16 + length]
        if crc32c(data[at:at + 12] + payload) != crc:
            j.tail = (at, "bad checksum")
            break
        if any(data[at + 16 + length:at + 16 + padded]):
            j.tail = (at, "padding not zero")
            break
        j.records.append((rtype, at, payload))
        at += 16 + padded
        if rtype == HEADER:
            r = Reader(payload)
            h = dict(zip(("version", "rank", "world_size", "pid", "token", "clock_offset", "clock_offset_error",
                          "interval", "start", "start_wall"), r.take("IiiiQddddd")))
            h["host"] = r.str()
            h["label"] = r.str()
            if h["version"] != 1:
                raise ValueError("spill version %d" % h["version"])
            j.header = h
        elif rtype == SIGNAL:
            signo, zero, when = struct.unpack("<iid", payload)
            j.signals.append((signo, when))
        elif rtype == END:
            r = Reader(payload)
            j.end = (r.take("d"), r.str())
        elif rtype in (NAMES, SAMPLES, CLOCK):
            pending.append((rtype, payload))
        elif rtype == COMMIT:
            flush, when, total = struct.unpack("<QdQ", payload)
            for ptype, p in pending:
                if ptype == NAMES:
                    r = Reader(p)
                    first, n = r.take("II")
                    if first != len(names):
                        raise ValueError("NAMES from %d, %d defined" % (first, len(names)))
                    names += [r.str() for _ in range(n)]
                elif ptype == CLOCK:
                    clock = struct.unpack("<qdd", p)
                else:
                    op, thread, d, s, enc = _samples(p, clock)
                    j.encodings.add(enc)
                    key = (names[op], thread)
                    old = j.samples.get(key)
                    j.samples[key] = (d, s) if old is None else (np.concatenate([old[0], d]),
                                                                  np.concatenate([old[1], s]))
            pending = []
            j.commits.append(dict(flush=flush, when=when, total=total, offset_end=at))
            if total != j.total():
                raise ValueError("COMMIT %d says %d samples, the file has %d" % (flush, total, j.total()))
    j.names = names
    return j
