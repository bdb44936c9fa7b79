# test_torch_run.py — python3 -m tprof.run: a child started by subprocess covered, the sitecustomize it hides still run, bad usage.
# SPDX-License-Identifier: MIT
"""A script that starts, with subprocess, a Python process making three
all_reduce calls in a gloo world of one: run under tprof.run, the child
is timed (the profile holds its three calls) and a sitecustomize of the
user's, further down PYTHONPATH, still ran in it. Bad command lines are
refused with one message and exit status 1 or 2, the program never run."""

import os
import subprocess
import sys
import tempfile

try:
    import torch  # noqa: F401
except ImportError:
    print("skipped: torch is not installed")
    sys.exit(77)

import numpy as np

import h5_profile

CHILD = r'''
import builtins, os, socket, sys
import torch, torch.distributed as dist
assert getattr(builtins, "user_sitecustomize_ran", False), "the user's sitecustomize did not run"
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:{}".format(port), rank=0, world_size=1)
t = torch.ones(3)
for _ in range(3):
    dist.all_reduce(t)
dist.destroy_process_group()
sys.stdout.flush()
os._exit(0)
'''

PARENT = r'''
import subprocess, sys
sys.exit(subprocess.run([sys.executable, "-c", {child!r}]).returncode + int(sys.argv[1]))
'''


def main():
    with tempfile.TemporaryDirectory() as d:
        user_site = os.path.join(d, "site")
        os.mkdir(user_site)
        with open(os.path.join(user_site, "sitecustomize.py"), "w") as f:
            f.write("import builtins\nbuiltins.user_sitecustomize_ran = True\n")
        parent = os.path.join(d, "parent.py")
        with open(parent, "w") as f:
            f.write(PARENT.format(child=CHILD))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.environ.get("PYTHONPATH", ""), user_site]),
                   GLOO_SOCKET_IFNAME="lo")
        env.pop("TPROF_OUTPUT", None)

        proc = subprocess.run([sys.executable, "-m", "tprof.run", "-o", "child.h5", parent, "0"],
                              cwd=d, env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        attrs, _, operations = h5_profile.read(os.path.join(d, "child.h5"))
        assert attrs["world_size"] == 1
        assert [name for name, _ in operations] == ["dist.all_reduce"], operations
        columns = operations[0][1]
        assert columns["times"].size == 3 and np.all(columns["ranks"] == 0)
        assert np.all(np.diff(columns["starts"]) > 0)

        # the program's exit status is its own
        proc = subprocess.run([sys.executable, "-m", "tprof.run", "-o", "again.h5", parent, "3"],
                              cwd=d, env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 3, (proc.returncode, proc.stderr)

        for argv, message in (([], "no script to run"),
                              (["-o"], "option -o needs a file name"),
                              (["--bogus", parent], "unknown option '--bogus'"),
                              (["missing.py"], "cannot run 'missing.py': no such file"),
                              (["-m"], "option -m needs a module name")):
            proc = subprocess.run([sys.executable, "-m", "tprof.run"] + argv, cwd=d, env=env,
                                  capture_output=True, text=True, timeout=60)
            assert proc.returncode != 0 and message in proc.stderr, (argv, proc.returncode, proc.stderr)
            assert proc.stderr.startswith("tprof.run: "), proc.stderr
    print("OK")


if __name__ == "__main__":
    main()
