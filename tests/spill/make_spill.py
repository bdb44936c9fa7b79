# make_spill.py — an independent writer of spill journals, from docs/spill-format.md alone: good files and deliberately bad ones for the tests.
# SPDX-License-Identifier: MIT
"""Writes spill files record by record, each appended at once.

    w = SpillWriter(dir, job=0x0123456789abcdef, rank=1, world_size=4,
                    clock_offset=0.25, clock_offset_error=1e-6)
    w.names(["forward", "allreduce"])
    w.samples(0, thread=0, starts=[1.0, 2.0], durations=[0.5, 0.25])
    w.commit(when=3.0)
"""
import os
import struct

MAGIC = 0x52505354
HEADER, NAMES, SAMPLES, CLOCK, COMMIT, STATE, SIGNAL, END = range(1, 9)


# what a check script found wrong, each printed as it is found: the
# script goes on and says how many at its end
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def _crc32c_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _crc32c_table()


def crc32c(data, crc=0):
    crc ^= 0xFFFFFFFF
    for b in data:
        crc = (crc >> 8) ^ _TABLE[(crc ^ b) & 0xFF]
    return crc ^ 0xFFFFFFFF


assert crc32c(b"123456789") == 0xE3069283


def string(text):
    raw = text.encode("utf-8")
    return struct.pack("<H", len(raw)) + raw


def record(rtype, payload, flags=0):
    """One framed record: header, payload, zero padding to 8."""
    head = struct.pack("<IHHI", MAGIC, rtype, flags, len(payload))
    crc = crc32c(payload, crc32c(head))
    pad = b"\0" * (-len(payload) % 8)
    return head + struct.pack("<I", crc) + payload + pad


def spill_name(job, rank):
    return "tprof-%016x-%d.spill" % (job, rank)


class SpillWriter:
    def __init__(self, directory, job, rank, world_size, clock_offset=0.0,
                 clock_offset_error=0.0, interval=1.0, started=100.0,
                 started_wall=1.8e9, host="node0", label="test job", pid=4242,
                 name=None, version=1):
        self.path = os.path.join(directory, name or spill_name(job, rank))
        self.n_names = 0
        self.flush = 0
        self.total = 0
        open(self.path, "wb").close()
        payload = struct.pack("<IiiiQddddd", version, rank, world_size, pid, job,
                              clock_offset, clock_offset_error, interval,
                              started, started_wall)
        self.append(record(HEADER, payload + string(host) + string(label)))

    def append(self, data):
        with open(self.path, "ab") as f:
            f.write(data)
        return len(data)

    def size(self):
        return os.path.getsize(self.path)

    def names(self, names):
        payload = struct.pack("<II", self.n_names, len(names))
        payload += b"".join(string(n) for n in names)
        self.n_names += len(names)
        return self.append(record(NAMES, payload))

    def samples(self, op, thread, starts, durations):
        """Encoding 0: seconds."""
        n = len(starts)
        payload = struct.pack("<IiII", op, thread, n, 0)
        payload += struct.pack("<%dd" % n, *starts) + struct.pack("<%dd" % n, *durations)
        self.total += n
        return self.append(record(SAMPLES, payload))

    def raw_samples(self, op, thread, start_ticks, durations):
        """Encoding 1: starts in ticks; a duration is an int (ticks) or a
        float (seconds)."""
        n = len(start_ticks)
        payload = struct.pack("<IiII", op, thread, n, 1)
        payload += struct.pack("<%dQ" % n, *start_ticks)
        for d in durations:
            if isinstance(d, int):
                payload += struct.pack("<Q", d | (1 << 63))
            else:
                payload += struct.pack("<d", d)
        self.total += n
        return self.append(record(SAMPLES, payload))

    def clock(self, ref_ticks, ref_seconds, seconds_per_tick):
        return self.append(record(CLOCK, struct.pack("<qdd", ref_ticks, ref_seconds, seconds_per_tick)))

    def commit(self, when):
        self.flush += 1
        return self.append(record(COMMIT, struct.pack("<QdQ", self.flush, when, self.total)))

    def state(self, payload):
        return self.append(record(STATE, payload))

    def signal(self, signum, when):
        return self.append(record(SIGNAL, struct.pack("<iid", signum, 0, when)))

    def end(self, when, path):
        return self.append(record(END, struct.pack("<d", when) + string(path)))


def write_seeds(directory):
    """A few good files of several shapes (the spill fuzzer's seeds)."""
    w = SpillWriter(directory, 0x0123456789ABCDEF, 0, 2, name="seed-seconds.spill")
    w.names(["forward", "io/checkpoint"])
    w.samples(0, 0, [1.0, 2.0], [0.5, 0.25])
    w.samples(1, 1, [1.5], [0.125])
    w.commit(3.0)
    w.samples(0, 0, [3.5], [0.5])
    w = SpillWriter(directory, 0x0123456789ABCDEF, 1, 2, name="seed-raw.spill")
    w.names(["step"])
    w.clock(1000, 50.0, 1e-3)
    w.raw_samples(0, 0, [1000, 3000], [250, 0.125])
    w.commit(60.0)
    w.signal(15, 61.0)
    w.state(b"\0" * 24)
    w.end(62.0, "/tmp/run.h5")
    # records larger than the merge's 64 KiB window, in seconds and raw
    w = SpillWriter(directory, 0x0123456789ABCDEF, 0, 1, name="seed-large.spill")
    w.names(["forward", "backward"])
    w.samples(0, 0, [i * 1e-3 for i in range(4200)], [1e-4] * 4200)
    w.samples(1, 1, [i * 1e-3 for i in range(300)], [2e-4] * 300)
    w.commit(10.0)
    w.clock(0, 10.0, 1e-6)
    w.raw_samples(1, 0, list(range(4200)), [3] * 4200)
    w.commit(11.0)


if __name__ == "__main__":
    import sys
    write_seeds(sys.argv[1])
