# ddp_train.py — a small DDP training (gloo, 4 processes by mp.spawn), rank 2 slower in forward, timed with the seed's API.
# SPDX-License-Identifier: MIT
"""A tprofiler user's torch.distributed script whose only change is the
import. Usage: ddp_train.py OUT.h5 [STEPS]. Every rank runs STEPS steps
of a small model wrapped in DistributedDataParallel; rank 2 sleeps 100 ms
more in forward; the loss of each step is summed over the ranks by an
all_reduce (to log it) before backward. The
TimeManager's samples of every rank are saved in OUT.h5 by rank 0.
The script knows nothing of `python3 -m tprof.run`, which may run it."""

import os
import socket
import sys
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.nn.parallel import DistributedDataParallel

# was: from tprofiler.time import TimeManager, timer, timer_wrap
from tprof import TimeManager, timer, timer_wrap

WORLD = 4
SLOW_RANK = 2
SLOW_SECS = 0.100


@timer_wrap("data")
def batch(step, rank):
    torch.manual_seed(1000 * step + rank)
    return torch.randn(16, 32), torch.randn(16, 4)


def worker(rank, port, out, steps):
    import faulthandler
    faulthandler.dump_traceback_later(60, exit=True)
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:{}".format(port),
                            rank=rank, world_size=WORLD)
    torch.manual_seed(0)
    model = DistributedDataParallel(nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 4)))
    optimiser = torch.optim.SGD(model.parameters(), lr=0.01)
    tm = TimeManager()
    with tm.enable_timer():
        for step in range(steps):
            x, y = batch(step, rank)
            with timer("forward"):
                if rank == SLOW_RANK:
                    time.sleep(SLOW_SECS)
                loss = nn.functional.mse_loss(model(x), y)
            with timer("loss_allreduce"):
                total = loss.detach().clone()
                dist.all_reduce(total)
            with timer("backward"):
                optimiser.zero_grad()
                loss.backward()
                optimiser.step()
        dist.barrier()
    tm.save(out)
    dist.destroy_process_group()
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
    torch.set_num_threads(1)
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    mp.spawn(worker, args=(free_port(), sys.argv[1], steps), nprocs=WORLD, join=True)
