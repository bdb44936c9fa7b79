# test_torch_ddp.py — a DDP training timed with the seed's API, and the same script under python3 -m tprof.run.
# SPDX-License-Identifier: MIT
"""ddp_train.py (4 ranks, gloo, mp.spawn; rank 2 100 ms slower in forward)
run twice: as is, and unmodified under `python3 -m tprof.run`. Checked
against h5py and the CLI's JSON: every sample of every rank gathered with
its start and thread, clock offsets with their bounds, the straggler named
from the arrival at the loss all_reduce, a valid Chrome trace with every
rank; under tprof.run the script's collectives on every rank with the
counts the script makes, and DDP's buckets. Usage: test_torch_ddp.py TPROF."""

import json
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

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "ddp_train.py")
WORLD, SLOW_RANK, STEPS = 4, 2, 16


def run(argv, cwd):
    proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, "{} failed ({}):\n{}\n{}".format(argv, proc.returncode, proc.stdout, proc.stderr)
    return proc


def check_timeline(path):
    """The profile's operations, after checking its timeline."""
    attrs, ranks, operations = h5_profile.read(path)
    assert attrs["world_size"] == WORLD
    assert len(ranks["hostname"]) == WORLD and all(len(h) for h in ranks["hostname"]), ranks
    offsets, errors = ranks["clock_offset"], ranks["clock_offset_error"]
    assert offsets[0] == 0 and errors[0] == 0, (offsets, errors)
    # one host, one clock: the true offset is 0, within every bound
    assert np.all(np.abs(offsets) <= errors + 1e-9), (offsets, errors)
    assert np.all(errors < 0.05), errors
    assert "timeline_origin" in attrs
    starts = np.concatenate([c["starts"] for _, c in operations])
    assert starts.min() == 0.0 and np.all(np.isfinite(starts))
    return dict(operations), [name for name, _ in operations]


def per_rank(columns):
    return np.bincount(columns["ranks"], minlength=WORLD).tolist()


def check_stragglers(tprof, path, operation_name):
    out = run([tprof, "stragglers", "--format", "json", path], os.path.dirname(path)).stdout
    verdict = json.loads(out)
    assert operation_name in verdict["synchronising"], verdict
    assert verdict["straggler"] == SLOW_RANK, verdict


def check_trace(tprof, path, samples):
    trace = path + ".json"
    run([tprof, "trace", "-o", trace, path], os.path.dirname(path))
    with open(trace) as f:
        events = json.load(f)["traceEvents"]
    complete = [e for e in events if e["ph"] == "X"]
    assert len(complete) == samples, (len(complete), samples)
    assert {e["pid"] for e in complete} == set(range(WORLD))


def check_seed_file(tprof, path):
    operations, names = check_timeline(path)
    assert names == ["data", "forward", "loss_allreduce", "backward"], names
    for name, columns in operations.items():
        assert per_rank(columns) == [STEPS] * WORLD, (name, per_rank(columns))
        assert np.all(columns["threads"] == 0), name
        assert np.all(np.diff(columns["starts"][columns["ranks"] == 1]) > 0), name
    forward = operations["forward"]
    slow = forward["times"][forward["ranks"] == SLOW_RANK]
    assert slow.min() >= 0.040 and np.median(forward["times"][forward["ranks"] != SLOW_RANK]) < 0.040, forward
    samples = sum(c["times"].size for c in operations.values())
    assert samples == 4 * STEPS * WORLD
    check_stragglers(tprof, path, "loss_allreduce")
    check_trace(tprof, path, samples)


def check_run_file(tprof, path):
    operations, names = check_timeline(path)
    assert set(names) == {"dist.all_reduce", "dist.barrier", "ddp.bucket"}, names
    assert per_rank(operations["dist.all_reduce"]) == [STEPS] * WORLD
    assert per_rank(operations["dist.barrier"]) == [1] * WORLD
    # a model this small has one bucket: one reduction a step
    assert per_rank(operations["ddp.bucket"]) == [STEPS] * WORLD
    check_stragglers(tprof, path, "dist.all_reduce")
    check_trace(tprof, path, sum(c["times"].size for c in operations.values()))


def main():
    tprof = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as d:
        run([sys.executable, SCRIPT, os.path.join(d, "seed.h5"), str(STEPS)], d)
        check_seed_file(tprof, os.path.join(d, "seed.h5"))

        proc = run([sys.executable, "-m", "tprof.run", "-o", "run.h5", SCRIPT, "seed-under-run.h5", str(STEPS)], d)
        assert "tprof: wrote {}".format(os.path.join(d, "run.h5")) in proc.stderr, proc.stderr
        check_run_file(tprof, os.path.join(d, "run.h5"))
        # the script's own profile is as without tprof.run: tprof's gather is not timed
        check_seed_file(tprof, os.path.join(d, "seed-under-run.h5"))
    print("OK")


if __name__ == "__main__":
    main()
