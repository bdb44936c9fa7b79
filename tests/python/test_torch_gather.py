# test_torch_gather.py — TimeManager.gather over torch.distributed (gloo), 3 processes on this machine; skipped (77) without torch.
# SPDX-License-Identifier: MIT
"""The seed's users gather over torch.distributed. Each process records
different operations (one records none); gather to each rank and to all
must hold the union, each sample under its own rank, as libcapture
stores it: grouped by ascending rank."""
import os
import socket
import sys

try:
    import torch.distributed as dist
    import torch.multiprocessing as mp
except ImportError:
    print("skipped: torch is not installed")
    sys.exit(77)

import numpy as np

WORLD = 3


def samples(rank):
    """What rank @rank records: name -> times."""
    if rank == 2:
        return {}
    names = ["common", "rank{}".format(rank)]
    return {name: [0.001 * (rank + 1) + 1e-6 * k for k in range(rank + 2)] for name in names}


def expected():
    want = {}
    for rank in range(WORLD):
        for name, times in samples(rank).items():
            t, r = want.setdefault(name, ([], []))
            t.extend(times)
            r.extend([rank] * len(times))
    return want


def worker(rank, port):
    import tprof

    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:{}".format(port), rank=rank, world_size=WORLD)
    from tprof import _gather
    assert _gather._torch_distributed() is not None, "gather would not go through torch.distributed"
    tm = tprof.TimeManager()
    for name, times in samples(rank).items():
        for t in times:
            tm._append_time(name, t)
    want = expected()
    for dst in list(range(WORLD)) + [None]:
        profile = tm.gather(dst=dst)
        if dst is not None and rank != dst:
            assert profile is None, (rank, dst)
            continue
        assert profile.world_size == WORLD
        assert set(profile) == set(want), list(profile)
        for name, (times, ranks) in want.items():
            np.testing.assert_array_equal(profile[name].times, times, err_msg=name)
            np.testing.assert_array_equal(profile[name].ranks, ranks, err_msg=name)
            # the timeline too: every sample's start and thread
            assert profile[name].starts.shape == profile[name].threads.shape == (len(times),), name
        assert len(profile.clock_offsets) == WORLD and profile.clock_offsets[0] == 0.0
        assert profile["common"].rank_count() == 2
        assert profile["common"].get_rank(1).sum() == sum(samples(1)["common"])
    dist.destroy_process_group()
    # Debian's torch 1.13 now and then hangs tearing gloo down at exit
    sys.stdout.flush()
    os._exit(0)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


if __name__ == "__main__":
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    mp.spawn(worker, args=(free_port(),), nprocs=WORLD, join=True)
    print("OK")
