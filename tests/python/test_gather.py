# test_gather.py — TimeManager.gather over mpi4py, run under mpiexec on 1, 2 and 4 ranks.
# SPDX-License-Identifier: MIT
"""Every rank records different operations (some none, in different
orders); gather to one rank and to all must hold the union, each sample
under its own rank, through the native gather and the Python fallback."""
import os
import sys

import numpy as np
from mpi4py import MPI

import tprof
from tprof import _gather

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import profile_h5  # noqa: E402  (tests/profile_h5.py)

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()


def record():
    tm = tprof.TimeManager()
    names = ["common", "rank{}".format(rank)] if rank % 2 == 0 else ["rank{}".format(rank), "common"]
    if rank == 3:
        names = []       # a rank with nothing recorded
    for name in names:
        for k in range(rank + 1):
            tm._append_time(name, 0.001 * (rank + 1) + 1e-6 * k)
    with tm.enable_timer():
        with tprof.timer("scoped"):
            pass
    return tm


def expected():
    """name -> (times, ranks) from every rank's own records, allgathered by mpi4py."""
    everything = comm.allgather(record().records)
    result = {}
    for r, records in enumerate(everything):
        for name, times in records.items():
            if name == "scoped":
                continue
            t, rk = result.setdefault(name, ([], []))
            t.extend(times)
            rk.extend([r] * len(times))
    return result


def check(profile, want, how):
    assert profile.world_size == size, (how, profile.world_size)
    assert set(profile) == set(want) | {"scoped"}, (how, list(profile))
    for name, (times, ranks) in want.items():
        gt = profile[name]
        np.testing.assert_array_equal(gt.times, times, err_msg=how + " " + name)
        np.testing.assert_array_equal(gt.ranks, ranks, err_msg=how + " " + name)
        assert gt.sum() == np.sum(np.array(times)), how
    assert profile["scoped"].rank_count() == size, how
    assert all(profile.hostname(r) for r in range(size)), how


def run(how):
    want = expected()
    for dst in range(size):
        profile = record().gather(dst=dst)
        if rank == dst:
            check(profile, want, "{} dst={}".format(how, dst))
        else:
            assert profile is None, how
    check(record().gather(), want, how + " dst=None")
    check(record().gather(dst=None, comm=comm), want, how + " comm=")


native = _gather._native_mpi()
if native is not None:
    run("native")
else:
    print("rank {}: tprof._mpi is not built or mpi4py runs another MPI: "
          "checking the Python fallback only".format(rank), file=sys.stderr)
real_native_mpi = _gather._native_mpi
_gather._native_mpi = lambda: None
run("fallback")
_gather._native_mpi = real_native_mpi

# save: gathered to rank 0, and in parallel (native only), the same file
import h5py  # noqa: E402
import tempfile  # noqa: E402

work = comm.bcast(tempfile.mkdtemp(prefix="tprof-py-save-") if rank == 0 else None, root=0)
tm = record()
want_names = set(expected()) | {"scoped"}
tm.save(work + "/gathered.h5", parallel=False)
if native is not None:
    tm.save(work + "/parallel.h5", parallel=True)
comm.Barrier()
if rank == 0:
    with h5py.File(work + "/gathered.h5", "r") as fa:
        want_ops = {name: g["times"] for name, g in profile_h5.operations(fa)}
    assert set(want_ops) == want_names, list(want_ops)
    if native is not None:
        with h5py.File(work + "/parallel.h5", "r") as fb:
            got = {name: g["times"] for name, g in profile_h5.operations(fb)}
        assert set(got) == set(want_ops)
        for name in want_ops:
            np.testing.assert_array_equal(got[name], want_ops[name], err_msg=name)
# a place rank 0 cannot write: every rank raises
for parallel in ([False, True] if native is not None else [False]):
    try:
        tm.save(work + "/no/such/dir/x.h5", parallel=parallel)
    except (OSError, tprof.Error) as e:
        assert "no/such/dir" in str(e), str(e)
    else:
        raise AssertionError("save into a missing directory did not raise (parallel={})".format(parallel))
# TPROF_SAVE chooses when the call does not
import os  # noqa: E402
os.environ["TPROF_SAVE"] = "sideways"
try:
    tm.save(work + "/env.h5")
except ValueError as e:
    assert "TPROF_SAVE" in str(e), str(e)
else:
    raise AssertionError("TPROF_SAVE=sideways was accepted")
os.environ["TPROF_SAVE"] = "parallel" if native is not None else "gather"
tm.save(work + "/env.h5")
del os.environ["TPROF_SAVE"]
comm.Barrier()
if rank == 0:
    with h5py.File(work + "/env.h5", "r") as f:
        assert {name for name, _ in profile_h5.operations(f)} == want_names
comm.Barrier()
if rank == 0:
    import shutil
    shutil.rmtree(work)

# bad dst: every rank raises the same clear error, nothing hangs
try:
    record().gather(dst=size)
except ValueError as e:
    assert "dst" in str(e)
else:
    raise AssertionError("gather(dst=size) did not raise")
comm.Barrier()
if rank == 0:
    print("gather checked on {} ranks ({})".format(size, "native and fallback" if native else "fallback"))
