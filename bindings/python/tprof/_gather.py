# _gather.py — TimeManager.gather, .save and .set_spill: over libtprof-capture-mpi, mpi4py or torch.distributed.
# SPDX-License-Identifier: MIT
"""Choosing the transport of TimeManager.gather.

With an mpi4py communicator, the C gather of libtprof-capture-mpi runs on
the communicator's handle (tprof._mpi, built when mpi4py and tprof use the
same MPI): one fixed set of collectives, the samples' timeline and host
names kept. Over torch.distributed (the default group, or a process group
given as ``comm``) tprof/_torch.py keeps the same: timeline, threads, host
names, clock offsets. Over mpi4py on another MPI each rank's samples
travel as Python objects and the destination builds the profile: same
operations and samples, host names, no timeline.
"""

import os
import socket
import sys

from . import _capture

# environment variables that MPI launchers set in the processes they start
_LAUNCHER_VARIABLES = ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS")


def gather(tm, dst, comm):
    group = _torch_group(comm)
    if group is not None:
        dist, group = group
        return _gather_torch(tm, dst, dist, group)
    if comm is not None:
        return _gather_mpi(tm, dst, comm)
    dist = _torch_distributed()
    if dist is not None:
        return _gather_torch(tm, dst, dist, None)
    mpi = _mpi4py()
    if mpi is not None:
        return _gather_mpi(tm, dst, mpi.COMM_WORLD)
    _check_dst(dst, 1)
    return tm._gather_local()


def _torch_distributed():
    # never import torch for this: a program using torch.distributed has
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    dist = getattr(torch, "distributed", None)
    if dist is not None and dist.is_available() and dist.is_initialized():
        return dist
    return None


def _torch_group(comm):
    """(torch.distributed, @comm) when @comm is a torch.distributed process group."""
    dist = _torch_distributed()
    if comm is None or dist is None:
        return None
    return (dist, comm) if isinstance(comm, dist.ProcessGroup) else None


def _mpi4py():
    if "mpi4py.MPI" in sys.modules:
        return sys.modules["mpi4py.MPI"]
    if not any(v in os.environ for v in _LAUNCHER_VARIABLES):
        return None
    try:
        from mpi4py import MPI
    except ImportError as e:
        raise RuntimeError("tprof: this process was started by an MPI launcher but mpi4py "
                           "cannot be imported ({}); install mpi4py (Debian: python3-mpi4py) "
                           "to gather over MPI".format(e)) from None
    return MPI


def save(tm, path, comm, parallel):
    if parallel is None:
        wanted = os.environ.get("TPROF_SAVE", "gather")
        if wanted not in ("gather", "parallel"):
            raise ValueError("TPROF_SAVE={!r} is neither 'gather' nor 'parallel'".format(wanted))
        parallel = wanted == "parallel"
    if parallel and (_torch_group(comm) is not None or (comm is None and _torch_distributed() is not None)):
        raise RuntimeError("save: a parallel save needs an mpi4py communicator, not torch.distributed")
    mpi = _mpi4py() if comm is None and _torch_distributed() is None else None
    if parallel and (comm is not None or mpi is not None):
        comm = mpi.COMM_WORLD if comm is None else comm
        native = _native_mpi()
        if native is None:
            raise RuntimeError("save: a parallel save needs tprof._mpi built for the MPI that mpi4py runs")
        native.save_parallel(tm, comm, os.fspath(path))
        return
    # one process alone, or gathered to rank 0
    profile = gather(tm, 0, comm)
    error = None
    if profile is not None:
        try:
            profile.save(path)
        except Exception as e:
            error = e
    message = _share_from_rank0(None if error is None else str(error), comm)
    if error is not None:
        raise error
    if message is not None:
        raise OSError("save: rank 0 could not write {}: {}".format(os.fspath(path), message))


def set_spill(tm, directory, interval, comm):
    """Spills as a rank of @comm (or of mpi4py's world, when in use), else
    as this process alone."""
    if _torch_group(comm) is not None:
        raise TypeError("set_spill: comm must be an mpi4py communicator, not a torch.distributed group")
    implicit = comm is None
    if implicit and _torch_distributed() is None:
        mpi = _mpi4py()
        comm = mpi.COMM_WORLD if mpi is not None else None
    if comm is not None and not all(hasattr(comm, a) for a in ("Get_rank", "Get_size", "allgather")):
        raise TypeError("set_spill: comm must be an mpi4py communicator, not {}".format(type(comm).__name__))
    native = _native_mpi() if comm is not None else None
    if comm is not None and native is None:
        message = "set_spill: spilling over MPI needs tprof._mpi built for the MPI that mpi4py runs"
        if not implicit:
            raise RuntimeError(message)
        import warnings
        warnings.warn(message + "; this rank spills as rank 0 of 1", RuntimeWarning, stacklevel=3)
        comm = None
    if comm is None:
        _capture.TimeManager.set_spill(tm, directory, interval)
        return
    native.set_spill(tm, comm, os.fspath(directory), float(interval))


def _share_from_rank0(value, comm):
    """@value as rank 0 has it, on every rank of gather()'s world."""
    group = _torch_group(comm)
    if group is not None or (comm is None and _torch_distributed() is not None):
        from . import _torch
        dist = _torch_distributed()
        return _torch.Group(dist, None if group is None else group[1]).broadcast_object(value)
    if comm is not None:
        return comm.bcast(value, root=0)
    mpi = _mpi4py()
    return mpi.COMM_WORLD.bcast(value, root=0) if mpi is not None else value


def _check_dst(dst, size):
    if dst is None:
        return
    if isinstance(dst, bool) or not isinstance(dst, int):
        raise TypeError("gather: dst must be an int rank or None, not {}".format(type(dst).__name__))
    if not 0 <= dst < size:
        raise ValueError("gather: dst {} is not a rank of a world of {}".format(dst, size))


def _gather_mpi(tm, dst, comm):
    if not all(hasattr(comm, a) for a in ("Get_rank", "Get_size", "allgather")):
        raise TypeError("gather: comm must be an mpi4py communicator, not {}".format(type(comm).__name__))
    _check_dst(dst, comm.Get_size())
    native = _native_mpi()
    if native is not None:
        return native.gather(tm, comm, -1 if dst is None else dst)
    local = _local_records(tm)
    if dst is None:
        parts = comm.allgather(local)
    else:
        parts = comm.gather(local, root=dst)
    return None if parts is None else _assemble(parts)


def _native_mpi():
    """tprof._mpi when built and mpi4py runs on the MPI it was built for."""
    try:
        from . import _mpi
    except ImportError:
        return None
    from mpi4py import MPI
    return _mpi if MPI.Get_library_version().startswith(_mpi.MPI_LIBRARY_PREFIX) else None


def _gather_torch(tm, dst, dist, group):
    from . import _torch
    _check_dst(dst, dist.get_world_size(group))
    return _torch.gather(tm, dst, dist, group)


def _local_records(tm):
    return socket.gethostname(), [(name, tm._get_time_bytes(name)) for name in tm._names()]


def _assemble(parts):
    """The profile of every rank's (host, [(name, float64 bytes)]), names in
    the order first seen in rank order, each operation's samples grouped by
    ascending rank as libcapture's gather stores them."""
    import numpy as np
    from . import GatheredTime, ProfiledTime

    by_name = {}
    for rank, (_, records) in enumerate(parts):
        for name, data in records:
            times = np.frombuffer(data, dtype=np.float64)
            by_name.setdefault(name, []).append((times, np.full(times.size, rank, dtype=np.int32)))
    operations = {}
    for name, pieces in by_name.items():
        operations[name] = GatheredTime(np.concatenate([t for t, _ in pieces]),
                                        np.concatenate([r for _, r in pieces]))
    profile = ProfiledTime(operations, world_size=len(parts))
    profile._set_hostnames([host for host, _ in parts])
    return profile
