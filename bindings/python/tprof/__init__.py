# tprof — the seed's Python API (tprofiler.time.manage) over libtprof-capture.
# SPDX-License-Identifier: MIT
"""Time named regions of a (distributed) Python program with libtprof-capture.

A user of ``tprofiler.time.manage`` changes only the import::

    from tprof import TimeManager, GatheredTime, ProfiledTime, timer, timer_wrap

Every statistic comes from the C library's engine (numpy-exact sums,
numpy's quantiles, sample standard deviation); profiles are the HDF5 files
that ``tprof`` and ``tprof-viewer`` open.
"""

import functools
from collections.abc import Mapping

try:
    from . import _capture
except ImportError as e:
    if "static TLS" not in str(e):
        raise
    # glibc keeps little room for the initial-exec thread-local storage of
    # libraries loaded by dlopen, as an extension module's are
    raise ImportError(
        "tprof: libtprof-capture could not be loaded into this Python ({}); "
        "start Python with GLIBC_TUNABLES=glibc.rtld.optional_static_tls=16384 "
        "or with libtprof-capture.so.0 in LD_PRELOAD".format(e)) from None
from ._capture import Error, FileError, FormatError, timer
from ._stragglers import stragglers

__all__ = [
    "TimeManager", "GatheredTime", "ProfiledTime", "timer", "timer_wrap",
    "instrument_distributed", "Error", "FileError", "FormatError", "stragglers",
]
__version__ = _capture.version


class TimeManager(_capture.TimeManager):
    """Named time samples of this process (the seed's TimeManager).

    ``timer(name)`` times a block; ``enable_timer()`` lets the module-level
    ``timer`` and ``@timer_wrap`` record into this manager; ``gather(dst)``
    collects every rank's samples into a :class:`ProfiledTime`.
    """

    __slots__ = ()

    @property
    def records(self):
        """A snapshot dict name -> list of seconds, in the order first recorded."""
        return {name: self._get_time(name) for name in self._names()}

    def gather(self, dst=None, comm=None):
        """Collects every rank's samples; collective.

        Over ``comm`` (an mpi4py communicator) when given; else over
        ``torch.distributed`` when it is initialised; else over mpi4py's
        ``MPI.COMM_WORLD`` when mpi4py is in use or an MPI launcher started
        this process; else this process alone (rank 0 of 1). Returns the
        :class:`ProfiledTime` on ``dst`` (on every rank when ``dst`` is
        None), None elsewhere.
        """
        from . import _gather
        return _gather.gather(self, dst, comm)

    def save(self, path, comm=None, parallel=None):
        """Saves every rank's samples into the one HDF5 file ``path``; collective.

        With ``parallel`` (by default when the environment has
        ``TPROF_SAVE=parallel``) every rank writes its own samples into the
        file (``tprof_time_manager_save_parallel``: no rank holds the whole
        profile; needs mpi4py, the MPI tprof was built for, and a path every
        rank reaches). Otherwise the samples are gathered to rank 0, as by
        ``gather(dst=0, comm=comm)``, which writes the file. Every rank
        returns, or raises the same error.
        """
        from . import _gather
        _gather.save(self, path, comm, parallel)

    def set_spill(self, directory, interval=10.0, comm=None):
        """Every ``interval`` seconds a thread appends the samples recorded
        since to ``directory/tprof-JOB-RANK.spill``, so that a killed or
        crashed process leaves them (SIGTERM, SIGINT and SIGUSR1 flush too);
        ``tprof merge directory`` makes a profile of a job's files.

        Over ``comm`` (an mpi4py communicator) when given, else over mpi4py's
        ``MPI.COMM_WORLD`` when mpi4py is in use or an MPI launcher started
        this process: collective, each rank writes its own file of the one
        job, with its rank, the world's size and its clock's offset to rank
        0 (needs tprof._mpi, built for the MPI mpi4py runs). Else this
        process alone, as rank 0 of 1. Ends at ``end_spill()`` or when the
        manager is freed, which removes the file unless TPROF_KEEP_SPILL=1.
        """
        from . import _gather
        _gather.set_spill(self, directory, interval, comm)

    def __repr__(self):
        return "TimeManager(records={!r})".format(self.records)


class GatheredTime(_capture.GatheredTime):
    """The samples of one operation over ranks: ``times`` (seconds) and ``ranks``.

    Statistics (``mean``, ``std``, ``sum``, ``count``, ``rank_count``, ``min``,
    ``max``, ``quantile``, ``median``) are the C engine's. Indexing and slicing
    give new selections; ``get_rank(*ranks)`` keeps some ranks; an empty one
    is false.
    """

    __slots__ = ()

    def __new__(cls, times=(), ranks=()):
        import numpy as np
        times = np.ascontiguousarray(_to_numpy(times), dtype=np.float64).reshape(-1)
        ranks = np.ascontiguousarray(_to_numpy(ranks), dtype=np.int64).reshape(-1)
        if ranks.size and (ranks.min() < 0 or ranks.max() > 2**31 - 1):
            raise ValueError("ranks must be in [0, 2**31)")
        return super().__new__(cls, times, ranks.astype(np.int32))

    @property
    def times(self):
        """The samples in seconds: a read-only float64 numpy array, no copy."""
        import numpy as np
        return np.asarray(self._times_buffer())

    @property
    def ranks(self):
        """The rank of each sample: a read-only int32 numpy array, no copy."""
        import numpy as np
        return np.asarray(self._ranks_buffer())

    @property
    def starts(self):
        """The start of each sample in seconds on the profile's timeline (a
        read-only float64 numpy array, no copy), or None without a timeline."""
        import numpy as np
        buffer = self._starts_buffer()
        return None if buffer is None else np.asarray(buffer)

    @property
    def threads(self):
        """The thread of each sample within its rank (0 the rank's first
        thread to record; a read-only int32 numpy array), or None."""
        import numpy as np
        buffer = self._threads_buffer()
        return None if buffer is None else np.asarray(buffer)

    def hist(self, bins=None, separate_ranks=False, alpha=0.7, title=None, ax=None, **kwargs):
        """Draws the histogram with matplotlib on ``ax`` (default: the current axes).

        ``bins``: a bin count, or None for numpy's 'auto' rule (capped at
        1000). With ``separate_ranks`` every rank is drawn on the same edges,
        so that ranks compare. Extra keyword arguments go to ``ax.hist``.
        """
        from ._plot import draw_hist
        return draw_hist(self, bins, separate_ranks, alpha, title, ax, kwargs)

    def __repr__(self):
        return "GatheredTime(count={}, rank_count={}, mean={:.6g}s)".format(
            self.count(), self.rank_count(), self.mean())


class ProfiledTime(_capture.ProfiledTime, Mapping):
    """A whole profile: a mapping operation name -> :class:`GatheredTime`.

    ``ProfiledTime.load(path)`` reads, ``save(path)`` writes the HDF5 file
    that ``tprof`` and ``tprof-viewer`` open. Like them, ``load`` parses
    the file in a helper process: a damaged file raises FormatError.
    """

    __slots__ = ()

    @property
    def clock_offsets(self):
        """Per rank, the seconds added to its clock to read rank 0's (a list;
        None when the profile has no timeline)."""
        return self._timeline()[0]

    @property
    def clock_offset_errors(self):
        """Per rank, the bound on its clock offset's error in seconds, or None."""
        return self._timeline()[1]

    @property
    def timeline_origin(self):
        """ISO 8601 UTC wall time of timeline 0, or None."""
        return self._timeline()[2]

    def __repr__(self):
        return "ProfiledTime(world_size={}, operations={!r})".format(self.world_size, list(self))


def _to_numpy(values):
    # the seed's GatheredTime took torch tensors
    if hasattr(values, "detach") and hasattr(values, "cpu"):
        return values.detach().cpu().numpy()
    return values


def _decorate(timer_object, func):
    """@func timed at each call by a fresh copy of @timer_object: what
    ``@timer(name)`` and ``@tm.timer(name)`` give, as ``@contextmanager``
    functions do."""
    @functools.wraps(func)
    def timed(*args, **kwargs):
        with timer_object._recreate():
            return func(*args, **kwargs)
    return timed


class _NamedByFunction:
    """``timer_wrap()`` without a name: a decorator naming the operation
    after the function."""

    __slots__ = ()

    def __call__(self, func):
        if not callable(func):
            raise TypeError("timer_wrap(): decorates a function, not {}".format(type(func).__name__))
        return timer(func.__name__)(func)

    def __enter__(self):
        raise TypeError("timer_wrap() as a context manager needs a name: with timer_wrap('name'): ...")

    def __exit__(self, *exc):
        return False


def timer_wrap(name=None):
    """Times each call of a function under ``name`` (default: the
    function's name) into every manager enabled on this thread, like the
    module-level :func:`timer`; ``@timer_wrap`` works without parentheses
    too. With a name it is :func:`timer` itself, so ``with
    timer_wrap(name):`` times a block.
    """
    if callable(name):
        return timer_wrap(None)(name)
    if name is None:
        return _NamedByFunction()
    if not isinstance(name, str):
        raise TypeError("timer_wrap: name must be a str or None, not {}".format(type(name).__name__))
    return timer(name)


def instrument_distributed(output=None):
    """Times every torch.distributed collective and point-to-point call of
    this process (``dist.all_reduce``, ``dist.send``, ...; the ``wait()`` of
    an asynchronous one as ``dist.all_reduce.wait``) and DDP's gradient
    buckets (``ddp.bucket``), and saves one profile of every rank of the
    default group when it is destroyed or the process exits: to ``output``,
    else ``$TPROF_OUTPUT``, else ``tprof-<pid of rank 0>.h5``. Returns the
    :class:`TimeManager` that records. Calling it again changes nothing but
    the output.
    """
    from . import _instrument
    return _instrument.install(output)


_capture._set_classes(GatheredTime, ProfiledTime)
_capture._set_decorator(_decorate)
