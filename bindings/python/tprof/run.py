# run.py — python3 -m tprof.run [-o OUT] SCRIPT ARGS...: a torch.distributed program's collectives timed, unmodified.
# SPDX-License-Identifier: MIT
"""Usage: python3 -m tprof.run [-o OUT] SCRIPT [ARGS...]
       python3 -m tprof.run [-o OUT] -m MODULE [ARGS...]

Runs SCRIPT (or MODULE) as Python would, with every torch.distributed
collective and point-to-point call timed as dist.<function> and DDP's
gradient buckets as ddp.bucket, in this process and in every Python
process it starts (torch.multiprocessing.spawn, subprocess, torchrun). Each
process group's world saves one profile of all its ranks when its
default group is destroyed or its processes exit: to OUT (default
$TPROF_OUTPUT, else tprof-<pid of rank 0>.h5 in rank 0's working
directory), which `tprof` and `tprof-viewer` open. The program's output
and exit status are otherwise its own.
"""

import os
import runpy
import sys

USAGE = "usage: python3 -m tprof.run [-o OUT] SCRIPT [ARGS...] | [-o OUT] -m MODULE [ARGS...]"


def parse(argv):
    """(output, module, target, args) from the command line; exits with a
    message on a bad one."""
    output, i = None, 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-h", "--help"):
            print(__doc__.strip())
            sys.exit(0)
        if arg in ("-o", "--output"):
            if i + 1 >= len(argv):
                sys.exit("tprof.run: option {} needs a file name\n{}".format(arg, USAGE))
            output, i = argv[i + 1], i + 2
        elif arg.startswith("--output="):
            output, i = arg[len("--output="):], i + 1
        elif arg == "-m":
            if i + 1 >= len(argv):
                sys.exit("tprof.run: option -m needs a module name\n{}".format(USAGE))
            return output, True, argv[i + 1], argv[i + 2:]
        elif arg.startswith("-") and arg != "-":
            sys.exit("tprof.run: unknown option '{}'\n{}".format(arg, USAGE))
        else:
            return output, False, arg, argv[i + 1:]
    sys.exit("tprof.run: no script to run\n" + USAGE)


def environ_for_children(output):
    """What the processes the program starts inherit: this sitecustomize
    first on PYTHONPATH, tprof importable, timing switched on."""
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    autorun = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_autorun")
    path = [autorun, package_parent] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    os.environ["PYTHONPATH"] = os.pathsep.join(path)
    os.environ["TPROF_DISTRIBUTED"] = "1"
    if output is not None:
        os.environ["TPROF_OUTPUT"] = os.path.abspath(output)


def main(argv=None):
    output, as_module, target, args = parse(sys.argv[1:] if argv is None else argv)
    if not as_module and not os.path.isfile(target):
        sys.exit("tprof.run: cannot run '{}': no such file".format(target))
    environ_for_children(output)
    from . import _instrument
    _instrument.install_on_import()
    if as_module:
        sys.argv = [target] + args
        runpy.run_module(target, run_name="__main__", alter_sys=True)
    else:
        sys.argv = [target] + args
        sys.path[0] = os.path.dirname(os.path.abspath(target))
        runpy.run_path(target, run_name="__main__")


if __name__ == "__main__":
    main()
