# _torch.py — TimeManager.gather over torch.distributed: clocks aligned by point-to-point, samples as tensors.
# SPDX-License-Identifier: MIT
"""The gather over a torch.distributed process group keeps what the MPI
gather keeps: every sample with its start and thread, the host names, and
each rank's clock mapped onto the clock of the group's rank 0 with a bound
on the error. The alignment is libcapture's (tprof._capture.clock_*): the
same tree of round trips as over MPI, run with send/recv of one small
tensor. The names and per-operation counts travel as small pickled
objects; the samples travel as one float64 tensor per rank (durations,
starts and threads side by side), gathered by the backend's own gather.
"""

import math
import socket
import time

# tests: this rank's clock (the starts it recorded and the alignment's
# readings) runs this many seconds ahead, as another host's clock would
_test_clock_skew = 0.0


def _now():
    return time.clock_gettime(time.CLOCK_MONOTONIC) + _test_clock_skew


def _raw(function):
    """@function without tprof's timing, so that the gather times nothing."""
    return getattr(function, "__tprof_original__", function)


class Group:
    """A process group (None: the default one) and its ranks."""

    def __init__(self, dist, group):
        self.dist = dist
        self.group = group
        self.size = dist.get_world_size(group)
        self.rank = dist.get_rank(group)
        if self.rank < 0:
            raise ValueError("gather: this process is not a member of the process group it gathers over")

    def global_rank(self, rank):
        """The default group's rank of @rank of this group."""
        if self.group is None:
            return rank
        c10d = self.dist.distributed_c10d
        to_global = getattr(c10d, "get_global_rank", None) or getattr(c10d, "_get_global_rank")
        return to_global(self.group, rank)

    def send(self, tensor, rank):
        _raw(self.dist.send)(tensor, self.global_rank(rank), group=self.group)

    def recv(self, tensor, rank):
        _raw(self.dist.recv)(tensor, self.global_rank(rank), group=self.group)

    def all_gather_object(self, value):
        parts = [None] * self.size
        _raw(self.dist.all_gather_object)(parts, value, group=self.group)
        return parts

    def broadcast_object(self, value, src=0):
        box = [value]
        _raw(self.dist.broadcast_object_list)(box, src=self.global_rank(src), group=self.group)
        return box[0]


def sync_clocks(g):
    """(offset, error): seconds added to this rank's clock to read the
    group's rank 0's, and its bound; (0, 0) on rank 0. Collective."""
    import torch
    from . import _capture as C

    buf = torch.zeros(2, dtype=torch.float64)
    view = buf.numpy()
    to_parent = (0.0, 0.0)
    step = 1
    while step < g.size:
        role, peer = C.clock_sync_role(g.rank, g.size, step)
        if role == C.CLOCK_SYNC_PARENT:
            for _ in range(C.CLOCK_SYNC_PINGS):
                g.recv(buf, peer)
                view[0] = _now()
                g.send(buf, peer)
        elif role == C.CLOCK_SYNC_CHILD:
            sent, theirs, received = [], [], []
            for _ in range(C.CLOCK_SYNC_PINGS):
                t0 = _now()
                g.send(buf, peer)
                g.recv(buf, peer)
                t1 = _now()
                sent.append(t0)
                theirs.append(float(view[0]))
                received.append(t1)
            to_parent = C.clock_offset_estimate(sent, theirs, received)
        step <<= 1
    to_root = (0.0, 0.0)
    while step > 1:
        step >>= 1
        role, peer = C.clock_sync_role(g.rank, g.size, step)
        if role == C.CLOCK_SYNC_PARENT:
            view[0], view[1] = to_root
            g.send(buf, peer)
        elif role == C.CLOCK_SYNC_CHILD:
            g.recv(buf, peer)
            to_root = C.clock_offset_compose(to_parent, (float(view[0]), float(view[1])))
    return to_root


def _local_part(tm):
    """This rank's snapshot: (names, counts, recorded per name, whether
    every sample has its start, times, starts, threads as numpy arrays)."""
    import numpy as np

    snapshot = tm._snapshot()
    names, counts, recorded, times, starts, threads = [], [], [], [], [], []
    timeline = True
    for name in snapshot:
        gt = snapshot[name]
        names.append(name)
        counts.append(len(gt))
        recorded.append([entry[1:] for entry in gt._recorded()])
        times.append(gt.times)
        s, t = gt._starts_buffer(), gt._threads_buffer()
        if len(gt) and (s is None or t is None):
            timeline = False
        starts.append(np.asarray(s) if s is not None else np.zeros(len(gt)))
        threads.append(np.asarray(t) if t is not None else np.zeros(len(gt), dtype=np.int32))
    join = (lambda a, dtype: np.concatenate(a) if a else np.zeros(0, dtype=dtype))
    return (names, counts, recorded, timeline,
            join(times, np.float64), join(starts, np.float64), join(threads, np.int32))


def gather(tm, dst, dist, group=None):
    """TimeManager.gather over torch.distributed; @dst a rank of @group
    (None: to every rank). The profile on @dst, None elsewhere."""
    import numpy as np
    import torch

    g = Group(dist, group)
    names, counts, recorded, timeline, times, starts, threads = _local_part(tm)
    wall_minus_mono = time.time() - _now()
    meta = (socket.gethostname(), names, counts, recorded, timeline, wall_minus_mono)
    metas = g.all_gather_object(meta)
    timeline = all(m[4] for m in metas)
    offset, error = sync_clocks(g) if timeline else (0.0, 0.0)
    clocks = g.all_gather_object((offset, error))

    n = max(sum(m[2]) for m in metas)
    receiving = dst is None or dst == g.rank
    rows = None
    if n > 0:
        # durations, starts on rank 0's clock, threads: one tensor, padded
        mine = np.zeros((3, n), dtype=np.float64)
        k = times.size
        mine[0, :k] = times
        mine[1, :k] = starts + (_test_clock_skew + offset)
        mine[2, :k] = threads
        mine = torch.from_numpy(mine)
        if dst is None:
            rows = [torch.empty_like(mine) for _ in range(g.size)]
            _raw(dist.all_gather)(rows, mine, group=group)
        else:
            rows = [torch.empty_like(mine) for _ in range(g.size)] if receiving else None
            _raw(dist.gather)(mine, rows, dst=g.global_rank(dst), group=group)
        rows = None if rows is None else [r.numpy() for r in rows]
    if not receiving:
        return None
    return _assemble(metas, rows, clocks if timeline else None)


def _assemble(metas, rows, clocks):
    """The profile of every rank's part: names in the order first seen in
    rank order, each operation's samples grouped by ascending rank, in
    each rank's order, as libcapture's gather stores them."""
    import numpy as np
    from . import GatheredTime, ProfiledTime

    pieces = {}
    for rank, (_, names, counts, recorded, _, _) in enumerate(metas):
        at = 0
        for name, count, rec in zip(names, counts, recorded):
            pieces.setdefault(name, []).append((rank, at, at + count, rec))
            at += count
    columns = {}
    origin = math.inf
    for name, parts in pieces.items():
        def column(row, dtype):
            if rows is None:
                return np.zeros(0, dtype=dtype)
            return np.concatenate([rows[r][row, lo:hi] for r, lo, hi, _ in parts]).astype(dtype, copy=False)
        ranks = np.concatenate([np.full(hi - lo, r, dtype=np.int32) for r, lo, hi, _ in parts])
        columns[name] = (column(0, np.float64), ranks, column(1, np.float64), column(2, np.int32), parts)
        if clocks is not None and columns[name][2].size:
            origin = min(origin, float(columns[name][2].min()))
    operations = {}
    for name, (times, ranks, starts, threads, parts) in columns.items():
        gt = GatheredTime(times, ranks)
        if clocks is not None:
            gt._set_timeline(np.ascontiguousarray(starts - origin) if times.size else starts, threads)
        if any(rec for _, _, _, rec in parts):
            gt._set_recorded(_recorded(gt, parts))
        operations[name] = gt
    profile = ProfiledTime(operations, world_size=len(metas))
    profile._set_hostnames([m[0] for m in metas])
    if clocks is not None:
        origin_text = _iso_utc(origin + metas[0][5]) if math.isfinite(origin) else None
        profile._set_timeline([c[0] for c in clocks], [c[1] for c in clocks], origin_text)
    return profile


def _recorded(gt, parts):
    """What each rank recorded of a sampled operation: a sampled rank's
    own figures, the figures of all its samples (the engine's) for the
    others."""
    stored = {s[0]: s for s in gt._rank_summaries()}
    entries = []
    for rank, _, _, rec in parts:
        if rec:
            entries.append((rank,) + tuple(rec[0]))
        elif rank in stored:
            _, count, total, _, _, low, high = stored[rank]
            entries.append((rank, count, total, low, high))
    return entries


def _iso_utc(wall):
    """ISO 8601 UTC of @wall seconds since the epoch, to the microsecond."""
    secs = math.floor(wall)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(secs)) + ".{:06d}Z".format(int((wall - secs) * 1e6))
