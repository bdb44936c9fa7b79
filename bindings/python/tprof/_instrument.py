# _instrument.py — tprof.instrument_distributed(): times torch.distributed's calls and DDP's buckets, saves one profile.
# SPDX-License-Identifier: MIT
"""Zero-code timing of a torch.distributed program.

Every collective and point-to-point function of ``torch.distributed`` is
replaced, in that module's namespace, by a wrapper timing each call under
``dist.<function>``; the ``wait()`` of the work an asynchronous call
returns is timed as ``dist.<function>.wait``. DDP's gradient buckets are
timed from the moment the reducer hands a bucket to its communication
hook until the bucket's reduction completes, as ``ddp.bucket``. The
samples go into one TimeManager of the process, saved (gathered over
the default group) when the default group is destroyed or the process
exits. These are CPU-side times: see the README for what they mean for
NCCL.
"""

import atexit
import functools
import importlib.abc
import importlib.machinery
import os
import sys
import time

# the functions timed, where this torch has them
FUNCTIONS = (
    "all_reduce", "broadcast", "barrier", "all_gather", "all_gather_into_tensor",
    "reduce_scatter", "reduce_scatter_tensor", "all_to_all", "all_to_all_single",
    "reduce", "gather", "scatter", "send", "recv", "isend", "irecv",
    "batch_isend_irecv", "monitored_barrier", "all_reduce_coalesced",
    "all_gather_coalesced", "all_gather_object", "broadcast_object_list",
    "gather_object", "scatter_object_list", "_all_gather_base", "_reduce_scatter_base",
)
BUCKET = "ddp.bucket"


class _State:
    def __init__(self, dist, tm):
        self.dist = dist
        self.tm = tm
        self.output = None
        self.saving = False


_state = None


def install(output=None):
    """Instruments this process (once); returns its TimeManager."""
    global _state
    if _state is None:
        import torch.distributed as dist
        from . import TimeManager
        if not dist.is_available():
            raise RuntimeError("tprof.instrument_distributed: this torch was built without torch.distributed")
        _state = _State(dist, TimeManager())
        _patch_functions(dist, _state.tm)
        _patch_lifecycle(dist)
        if dist.is_initialized():
            _patch_ddp()
        atexit.register(save)
    if output is not None:
        _state.output = os.fspath(output)
    return _state.tm


def _timed(function, tm, name):
    Work = _work_type()
    timer = tm.timer
    wait_name = name + ".wait"

    @functools.wraps(function)
    def timed(*args, **kwargs):
        with timer(name):
            result = function(*args, **kwargs)
        if result is None:
            return result
        if isinstance(result, Work):
            return _TimedWork(result, timer, wait_name)
        if type(result) is list and result and isinstance(result[0], Work):
            return [_TimedWork(w, timer, wait_name) for w in result]
        return result
    timed.__tprof_original__ = function
    return timed


def _work_type():
    from torch._C._distributed_c10d import Work
    return Work


class _TimedWork:
    """The work of an asynchronous call, its wait() timed; the rest as is."""

    __slots__ = ("_work", "_timer", "_name")

    def __init__(self, work, timer, name):
        self._work = work
        self._timer = timer
        self._name = name

    def wait(self, *args, **kwargs):
        with self._timer(self._name):
            return self._work.wait(*args, **kwargs)

    def __getattr__(self, attribute):
        return getattr(self._work, attribute)


def _patch_functions(dist, tm):
    for name in FUNCTIONS:
        function = getattr(dist, name, None)
        if function is None or hasattr(function, "__tprof_original__"):
            continue
        setattr(dist, name, _timed(function, tm, "dist." + name))


def _patch_lifecycle(dist):
    """A profile is saved before the default group goes; DDP is patched
    once a group exists (torch is whole by then)."""
    init, destroy = dist.init_process_group, dist.destroy_process_group

    @functools.wraps(init)
    def init_process_group(*args, **kwargs):
        result = init(*args, **kwargs)
        _patch_ddp()
        return result

    @functools.wraps(destroy)
    def destroy_process_group(group=None):
        if group is None or group is dist.GroupMember.WORLD:
            save()
        return destroy(group)

    init_process_group.__tprof_original__ = init
    destroy_process_group.__tprof_original__ = destroy
    dist.init_process_group = init_process_group
    dist.destroy_process_group = destroy_process_group


def _patch_ddp():
    from torch.nn.parallel import DistributedDataParallel as DDP
    if getattr(DDP, "_tprof_patched", False):
        return
    init, register = DDP.__init__, DDP.register_comm_hook
    register_builtin = DDP._register_builtin_comm_hook

    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        init(self, *args, **kwargs)
        self._tprof_user_hook = None
        register(self, self.process_group, _bucket_hook(self))

    @functools.wraps(register)
    def register_comm_hook(self, state, hook):
        # the reducer takes one hook, ours: it runs the user's inside
        self._check_comm_hook(hook)
        self._tprof_user_hook = (state, hook)

    @functools.wraps(register_builtin)
    def _register_builtin_comm_hook(self, comm_hook_type):
        from torch.distributed.algorithms.ddp_comm_hooks import default_hooks
        import torch.distributed as dist
        hooks = {dist.BuiltinCommHookType.ALLREDUCE: default_hooks.allreduce_hook,
                 dist.BuiltinCommHookType.FP16_COMPRESS: default_hooks.fp16_compress_hook}
        self._tprof_user_hook = (self.process_group, hooks[comm_hook_type])

    DDP.__init__ = __init__
    DDP.register_comm_hook = register_comm_hook
    DDP._register_builtin_comm_hook = _register_builtin_comm_hook
    DDP._tprof_patched = True


def _allreduce(dist, process_group, bucket):
    """What DDP does without a hook: the bucket averaged over the group
    (through the untimed all_reduce: the bucket is timed as a whole)."""
    group = process_group if process_group is not None else dist.group.WORLD
    tensor = bucket.buffer()
    tensor.div_(group.size())
    work = dist.all_reduce.__tprof_original__(tensor, group=group, async_op=True)
    return work.get_future().then(lambda done: done.value()[0])


def _bucket_hook(ddp):
    dist = _state.dist
    record = _state.tm._append_time

    def tprof_bucket_hook(state, bucket):
        start = time.perf_counter()
        user = ddp._tprof_user_hook
        future = user[1](user[0], bucket) if user is not None else _allreduce(dist, state, bucket)

        def reduced(done):
            record(BUCKET, time.perf_counter() - start)
            return done.value()
        return future.then(reduced)
    return tprof_bucket_hook


def _output_path():
    if _state.output is not None:
        return _state.output
    return os.environ.get("TPROF_OUTPUT") or "tprof-{}.h5".format(os.getpid())


def save():
    """Gathers and saves what this process and the others of the default
    group timed (collective: every rank calls it, at destroy_process_group
    or exit); forgets it then. Nothing when no group is initialised."""
    state = _state
    if state is None or state.saving or not state.dist.is_initialized():
        return
    state.saving = True
    try:
        path = _output_path()
        state.tm.save(path)
        if state.dist.get_rank() == 0:
            print("tprof: wrote {} ({} ranks)".format(path, state.dist.get_world_size()), file=sys.stderr)
    finally:
        state.tm.clear()
        state.saving = False


class _AfterImport(importlib.abc.MetaPathFinder):
    """Instruments torch.distributed as soon as it is imported."""

    def find_spec(self, fullname, path, target=None):
        if fullname != "torch.distributed":
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        execute = spec.loader.exec_module

        def exec_module(module):
            execute(module)
            install()
        spec.loader.exec_module = exec_module
        return spec


def install_on_import():
    """Instruments now if torch.distributed is imported, else once it is."""
    if "torch.distributed" in sys.modules:
        install()
    elif not any(isinstance(f, _AfterImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterImport())
