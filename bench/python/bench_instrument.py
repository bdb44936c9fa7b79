# bench_instrument.py — what tprof's timing adds to a torch.distributed call, against the bare call in the same run.
# SPDX-License-Identifier: MIT
"""Usage: bench_instrument.py [CALLS]

The cost per call of the wrapper tprof.instrument_distributed() puts on
torch.distributed's functions, measured two ways, bare and wrapped
interleaved, median of REPEATS:

  stub         a function that does nothing, bare and wrapped: the
               wrapper's own cost, free of the collective's noise
  all_reduce   dist.all_reduce of one float in a gloo group of 1, the
               original function and the timed one

Prints each pair and the difference (target: <= 2 µs a call).
"""

import os
import socket
import statistics
import sys
import time

import torch
import torch.distributed as dist

import tprof
from tprof import _instrument

CALLS = int(float(sys.argv[1])) if len(sys.argv) > 1 else 20_000
REPEATS = 7


def per_call(function, *args):
    start = time.perf_counter()
    for _ in range(CALLS):
        function(*args)
    return (time.perf_counter() - start) / CALLS


def compare(label, bare, wrapped, *args):
    bare_times, wrapped_times = [], []
    for _ in range(REPEATS):
        bare_times.append(per_call(bare, *args))
        wrapped_times.append(per_call(wrapped, *args))
    b, w = statistics.median(bare_times), statistics.median(wrapped_times)
    print("  {:<11} bare {:8.3f} µs   timed {:8.3f} µs   added {:6.3f} µs   (target <= 2)".format(
        label, b * 1e6, w * 1e6, (w - b) * 1e6))


def stub(tensor, op=None, group=None, async_op=False):
    return None


def main():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:{}".format(port), rank=0, world_size=1)
    bare_all_reduce = dist.all_reduce
    tm = tprof.instrument_distributed(os.devnull)
    t = torch.zeros(1)
    print("per call, {} calls, median of {}:".format(CALLS, REPEATS))
    compare("stub", stub, _instrument._timed(stub, tm, "dist.stub"), t)
    compare("all_reduce", bare_all_reduce, dist.all_reduce, t)
    tm.clear()
    os._exit(0)   # nothing to save; Debian's torch 1.13 may hang tearing gloo down


if __name__ == "__main__":
    main()
