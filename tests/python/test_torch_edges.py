# test_torch_edges.py — the torch.distributed gather and instrumentation where ranks differ: raising, silent, subset groups, skewed clocks.
# SPDX-License-Identifier: MIT
"""Four gloo ranks from mp.spawn. With the seed's API: rank 1 raises inside
a timed block (recorded, the exception goes on), rank 3 records nothing,
each rank records an operation of its own, ranks 0 and 2 gather over a
process group of their own; rank 3's clock runs 5 s ahead and the
timeline still puts the ranks' samples after a barrier together.
TimeManager.save writes the same over torch.distributed. Then
tprof.instrument_distributed(): each kind of call on the ranks that make
it, async waits, a subset group's collectives on its members only, a
call that raises recorded too, and the profile saved at
destroy_process_group. Checked against h5py and numpy."""

import os
import socket
import sys
import tempfile

try:
    import torch
    import torch.distributed as dist
    import torch.multiprocessing as mp
except ImportError:
    print("skipped: torch is not installed")
    sys.exit(77)

import numpy as np

import h5_profile

WORLD = 4
SKEW_RANK, SKEW = 3, 5.0
SAMPLED = {0: 40, 1: 3}      # samples of "sampled" each rank records


def seed_api(rank, d):
    import tprof
    from tprof import _torch

    if rank == SKEW_RANK:
        _torch._test_clock_skew = SKEW
    tm = tprof.TimeManager()
    if rank == 0:
        tm.set_sample_limit(5)      # rank 0 keeps 5 samples of each series
    with tm.enable_timer():
        if rank == 1:
            try:
                with tprof.timer("raises"):
                    raise KeyError("inside a timed block")
            except KeyError:
                pass
            else:
                raise AssertionError("the exception was swallowed")
        if rank != 3:
            for k in range(rank + 1):
                tm._append_time("only{}".format(rank), 0.001 * (k + 1))
            dist.barrier()
            with tprof.timer("after_barrier"):
                pass
        else:
            dist.barrier()
        if rank in (0, 1):
            for k in range(SAMPLED[rank]):
                tm._append_time("sampled", 0.01 * (k + 1))
    profile = tm.gather(dst=2)
    if rank != 2:
        assert profile is None
    else:
        assert profile.world_size == WORLD
        assert list(profile) == ["only0", "after_barrier", "sampled", "raises", "only1", "only2"], list(profile)
        # rank 0 kept 5 of its 40: the figures cover every sample recorded
        sampled = profile["sampled"]
        assert len(sampled) == 5 + 3 and sampled.get_rank(0).times.size == 5
        want = [(r, n, sum(0.01 * (k + 1) for k in range(n)), 0.01, 0.01 * n) for r, n in SAMPLED.items()]
        got = sampled._recorded()
        assert [g[:2] for g in got] == [w[:2] for w in want], got
        assert np.allclose([g[2:] for g in got], [w[2:] for w in want], rtol=1e-12, atol=0), got
        assert profile["raises"].ranks.tolist() == [1]
        for r in range(3):
            np.testing.assert_allclose(profile["only{}".format(r)].times, 0.001 * np.arange(1, r + 2))
            assert set(profile["only{}".format(r)].ranks.tolist()) == {r}
        assert profile["after_barrier"].ranks.tolist() == [0, 1, 2]
        assert [profile.hostname(r) for r in range(WORLD)] == [socket.gethostname()] * WORLD
        offsets, errors = profile.clock_offsets, profile.clock_offset_errors
        # rank 3 records nothing but has its clock aligned too
        truth = [0.0, 0.0, 0.0, -SKEW]
        assert all(abs(o - t) <= e + 1e-9 for o, t, e in zip(offsets, truth, errors)), (offsets, errors)
        assert max(errors) < 0.05, errors
        starts = profile["after_barrier"].starts
        assert starts is not None and np.ptp(starts) < 0.5, starts
        assert profile.timeline_origin.endswith("Z")

    # the same over a process group of ranks 0 and 2 (every rank creates it)
    pair = dist.new_group([0, 2])
    if rank in (0, 2):
        sub = tm.gather(dst=1, comm=pair)    # dst: rank 1 of the group, rank 2 of the world
        if rank == 0:
            assert sub is None
        else:
            assert sub.world_size == 2
            assert list(sub) == ["only0", "after_barrier", "sampled", "only2"], list(sub)
            assert sub["only2"].ranks.tolist() == [1, 1, 1]
            assert sub.clock_offsets[0] == 0.0

    path = os.path.join(d, "seed.h5")
    tm.save(path)
    if rank == 0:
        attrs, ranks, operations = h5_profile.read(path)
        assert [name for name, _ in operations] == ["only0", "after_barrier", "sampled", "raises", "only1", "only2"]
        assert attrs["world_size"] == WORLD
        for name, columns in operations:
            assert columns["starts"].shape == columns["threads"].shape == columns["times"].shape, name
        assert sum(c["times"].size for _, c in operations) == 1 + 3 + 8 + 1 + 2 + 3
        offsets, errors = ranks["clock_offset"], ranks["clock_offset_error"]
        assert offsets[0] == 0 and abs(offsets[SKEW_RANK] + SKEW) <= errors[SKEW_RANK] + 1e-9, offsets
    _torch._test_clock_skew = 0.0


def instrumented(rank, d):
    import tprof

    out = os.path.join(d, "run.h5")
    tm = tprof.instrument_distributed(out)
    t = torch.ones(8)
    for _ in range(3):
        dist.all_reduce(t)
    dist.broadcast(t, src=1)
    gathered = [torch.zeros(8) for _ in range(WORLD)]
    dist.all_gather(gathered, t)
    work = dist.all_reduce(t, async_op=True)
    work.wait()
    if rank == 1:
        dist.send(torch.ones(4), dst=3)
        req = dist.isend(torch.ones(4), dst=3)
        req.wait()
    elif rank == 3:
        dist.recv(torch.zeros(4), src=1)
        req = dist.irecv(torch.zeros(4), src=1)
        req.wait()
    pair = dist.new_group([0, 2])
    if rank in (0, 2):
        dist.all_reduce(t, group=pair)
        dist.all_reduce(t, group=pair)
    if rank == 0:
        try:
            dist.broadcast(t, src=WORLD + 5)     # no such rank: raises
        except (RuntimeError, ValueError):
            pass
        else:
            raise AssertionError("broadcast from rank {} did not raise".format(WORLD + 5))
    dist.barrier()
    assert set(tm.records) >= {"dist.all_reduce", "dist.barrier"}, list(tm.records)
    dist.destroy_process_group()     # saves
    assert not tm.records, "the samples saved are kept"

    if rank == 0:
        _, _, operations = h5_profile.read(out)
        counts = {}
        for name, columns in operations:
            ranks, n = np.unique(columns["ranks"], return_counts=True)
            counts[name] = dict(zip(ranks.tolist(), n.tolist()))
        every = {r: 1 for r in range(WORLD)}
        want = {
            "dist.all_reduce": {0: 3 + 1 + 2, 1: 3 + 1, 2: 3 + 1 + 2, 3: 3 + 1},
            "dist.broadcast": {0: 2, 1: 1, 2: 1, 3: 1},
            "dist.all_gather": every,
            "dist.all_reduce.wait": every,
            "dist.send": {1: 1}, "dist.isend": {1: 1}, "dist.isend.wait": {1: 1},
            "dist.recv": {3: 1}, "dist.irecv": {3: 1}, "dist.irecv.wait": {3: 1},
            "dist.barrier": every,
        }
        assert counts == want, counts


def worker(rank, port, d):
    import faulthandler
    faulthandler.dump_traceback_later(90, exit=True)
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:{}".format(port), rank=rank, world_size=WORLD)
    seed_api(rank, d)
    instrumented(rank, d)
    # Debian's torch 1.13 now and then hangs tearing gloo down at exit
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


if __name__ == "__main__":
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    with tempfile.TemporaryDirectory() as d:
        mp.spawn(worker, args=(free_port(), d), nprocs=WORLD, join=True)
    print("OK")
