# sitecustomize.py — put on PYTHONPATH by python3 -m tprof.run: every Python process beneath it times torch.distributed.
# SPDX-License-Identifier: MIT
"""Python imports ``sitecustomize`` at start-up from the first directory of
its path that has one. ``python3 -m tprof.run`` puts this directory first
on PYTHONPATH and sets TPROF_DISTRIBUTED=1, so that the processes the
program starts itself (torch.multiprocessing.spawn, subprocess, torchrun's
workers) are instrumented as it is. The sitecustomize this one hides
runs afterwards."""

import os
import sys


def _instrument():
    if os.environ.get("TPROF_DISTRIBUTED") != "1":
        return
    try:
        from tprof import _instrument
        _instrument.install_on_import()
    except Exception as e:  # never stop the program for its profiler
        print("tprof: torch.distributed is not timed in process {}: {}".format(os.getpid(), e), file=sys.stderr)


def _chain():
    import importlib.machinery
    import importlib.util
    here = os.path.dirname(os.path.abspath(__file__))
    path = [p for p in sys.path if os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)


_instrument()
_chain()
