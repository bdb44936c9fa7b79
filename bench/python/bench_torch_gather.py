# bench_torch_gather.py — TimeManager.gather of 4 × 2.5e6 samples over torch.distributed (gloo) against mpi4py, same run.
# SPDX-License-Identifier: MIT
"""Usage: bench_torch_gather.py MPIEXEC [SAMPLES_PER_RANK]

Four processes each record SAMPLES_PER_RANK samples (default 2.5e6) in
four operations, then gather them to rank 0 (timeline, threads, host
names and clock offsets kept either way):

  mpi4py   mpiexec -n 4, TimeManager.gather over MPI.COMM_WORLD
           (libtprof-capture-mpi's gather on mpi4py's communicator)
  torch    torch.multiprocessing.spawn, gloo over 127.0.0.1,
           TimeManager.gather over torch.distributed

Each gather is timed on rank 0 from a barrier to the profile in hand; the
best of REPEATS. Prints both and their ratio (target: torch <= 2x mpi4py).
"""

import os
import socket
import subprocess
import sys
import time

import numpy as np

WORLD = 4
REPEATS = 3
OPERATIONS = 4


def record(n, rank):
    import tprof
    rng = np.random.default_rng(rank)
    per = n // OPERATIONS
    return tprof.TimeManager({"op{}".format(k): rng.exponential(1e-3, per).tolist() for k in range(OPERATIONS)})


def timed_gathers(tm, barrier, rank, n):
    best = float("inf")
    for _ in range(REPEATS):
        barrier()
        start = time.perf_counter()
        profile = tm.gather(dst=0)
        if rank == 0:
            best = min(best, time.perf_counter() - start)
            total = sum(profile[name].count() for name in profile)
            assert total == WORLD * (n // OPERATIONS) * OPERATIONS, total
            assert profile[next(iter(profile))].starts is not None
        del profile
    return best


def mpi_main(n):
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
    tm = record(n, comm.Get_rank())
    best = timed_gathers(tm, comm.Barrier, comm.Get_rank(), n)
    if comm.Get_rank() == 0:
        print("{:.6f}".format(best))


def torch_worker(rank, port, n, out):
    import torch.distributed as dist
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:{}".format(port), rank=rank, world_size=WORLD)
    tm = record(n, rank)
    best = timed_gathers(tm, dist.barrier, rank, n)
    if rank == 0:
        with open(out, "w") as f:
            f.write("{:.6f}\n".format(best))
    dist.destroy_process_group()
    # Debian's torch 1.13 may hang tearing a gloo process down at exit
    os._exit(0)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    if sys.argv[1] == "--mpi":
        mpi_main(int(float(sys.argv[2])))
        return
    mpiexec = sys.argv[1]
    n = int(float(sys.argv[2])) if len(sys.argv) > 2 else 2_500_000
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    proc = subprocess.run([mpiexec, "-n", str(WORLD), sys.executable, os.path.abspath(__file__), "--mpi", str(n)],
                          env=env, capture_output=True, text=True, check=True)
    mpi = float(proc.stdout.split()[-1])

    import tempfile
    import torch.multiprocessing as mp
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "torch.txt")
        mp.spawn(torch_worker, args=(free_port(), n, out), nprocs=WORLD, join=True)
        with open(out) as f:
            torch_secs = float(f.read())
    print("gather of {} x {:.3g} samples to rank 0 (best of {}):".format(WORLD, n, REPEATS))
    print("  mpi4py (libtprof-capture-mpi)   {:8.3f} s".format(mpi))
    print("  torch.distributed (gloo)        {:8.3f} s".format(torch_secs))
    print("  ratio torch / mpi4py            {:8.2f}   (target <= 2)".format(torch_secs / mpi))


if __name__ == "__main__":
    main()
