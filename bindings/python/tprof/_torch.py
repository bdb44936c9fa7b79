# _torch.py — TimeManager.gather over torch.distributed: clocks aligned by point-to-point, samples as tensors.
# SPDX-License-Identifier: MIT
"""The gather over a torch.distributed process group keeps what the MPI
gather keeps: every sample with its start and thread, the host names, and
each rank's clock mapped onto the clock of the group's rank 0 with a bound
on the error. The alignment is libcapture's (tprof._capture.clock_*): the
same tree of round trips as over MPI, run with send/recv of one small
tensor. The names and per-operation counts travel as small pickled
objects; the samples travel as one float64 tensor per rank (durations,
starts and threads side by side), sent point to point to the destination
(to every rank: the backend's all_gather).
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
    every sample has its start, the operations' selections)."""
    snapshot = tm._snapshot()
    names = list(snapshot)
    selections = [snapshot[name] for name in names]
    counts = [len(gt) for gt in selections]
    recorded = [[entry[1:] for entry in gt._recorded()] for gt in selections]
    timeline = all(gt._starts_buffer() is not None and gt._threads_buffer() is not None
                   for gt in selections if len(gt))
    return names, counts, recorded, timeline, selections


def _pack(selections, width, shift):
    """Durations, starts shifted by @shift and threads of @selections side
    by side: a (3, @width) float64 array, zero past the samples."""
    import numpy as np

    packed = np.zeros((3, width), dtype=np.float64)
    at = 0
    for gt in selections:
        n = len(gt)
        if n == 0:
            continue
        packed[0, at:at + n] = gt.times
        starts, threads = gt._starts_buffer(), gt._threads_buffer()
        if starts is not None and threads is not None:
            np.add(np.asarray(starts), shift, out=packed[1, at:at + n])
            packed[2, at:at + n] = np.asarray(threads)
        at += n
    return packed


def gather(tm, dst, dist, group=None):
    """TimeManager.gather over torch.distributed; @dst a rank of @group
    (None: to every rank). The profile on @dst, None elsewhere."""
    import torch

    g = Group(dist, group)
    names, counts, recorded, timeline, selections = _local_part(tm)
    wall_minus_mono = time.time() - _now()
    meta = (socket.gethostname(), names, counts, recorded, timeline, wall_minus_mono)
    metas = g.all_gather_object(meta)
    timeline = all(m[4] for m in metas)
    offset, error = sync_clocks(g) if timeline else (0.0, 0.0)
    clocks = g.all_gather_object((offset, error))

    sizes = [sum(m[2]) for m in metas]
    receiving = dst is None or dst == g.rank
    rows = None
    if max(sizes) > 0:
        # durations, starts on rank 0's clock, threads: one tensor a rank;
        # to dst point to point (gloo's gather is several times slower and
        # pads every rank to the largest), the receives posted first
        k = sizes[g.rank]
        shift = _test_clock_skew + offset
        if dst is None:
            mine = torch.from_numpy(_pack(selections, max(sizes), shift))
            rows = [torch.empty_like(mine) for _ in range(g.size)]
            _raw(dist.all_gather)(rows, mine, group=group)
        elif receiving:
            rows, works = _post_receives(g, sizes)
            rows[g.rank] = torch.from_numpy(_pack(selections, k, shift))
            for work in works:
                work.wait()
        elif k > 0:
            g.send(torch.from_numpy(_pack(selections, k, shift)), dst)
        rows = None if rows is None else [r.numpy() for r in rows]
    if not receiving:
        return None
    return _assemble(metas, rows, clocks if timeline else None)


def _post_receives(g, sizes):
    """On the destination: a tensor for each other rank's samples, its
    receive posted, and the works to wait for; None in this rank's place."""
    import torch

    rows, works = [], []
    for rank, size in enumerate(sizes):
        rows.append(None if rank == g.rank else torch.empty((3, size), dtype=torch.float64))
        if rank != g.rank and size > 0:
            works.append(_raw(g.dist.irecv)(rows[-1], g.global_rank(rank), group=g.group))
    return rows, works


def _assemble(metas, rows, clocks):
    """The profile of every rank's part: names in the order first seen in
    rank order, each operation's samples grouped by ascending rank, in
    each rank's order, as libcapture's gather stores them."""
    from . import ProfiledTime

    pieces = {}
    for rank, (_, names, counts, recorded, _, _) in enumerate(metas):
        at = 0
        for name, count, rec in zip(names, counts, recorded):
            pieces.setdefault(name, []).append((rank, at, at + count, rec))
            at += count
    origin = math.inf
    if clocks is not None and rows is not None:
        for rank, meta in enumerate(metas):
            n = sum(meta[2])
            if n:
                origin = min(origin, float(rows[rank][1, :n].min()))
    profile = ProfiledTime({}, world_size=len(metas))
    timeline = None if clocks is None else (origin if math.isfinite(origin) else 0.0)
    for name, parts in pieces.items():
        views = [(r, rows[r][0, lo:hi], rows[r][1, lo:hi], rows[r][2, lo:hi]) for r, lo, hi, _ in parts
                 if hi > lo]
        profile._add_pieces(name, views, timeline)
        if any(rec for _, _, _, rec in parts):
            gt = profile[name]
            gt._set_recorded(_recorded(gt, parts))
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
