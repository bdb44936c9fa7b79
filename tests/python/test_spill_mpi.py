# test_spill_mpi.py — TimeManager.set_spill over an mpi4py communicator, on real ranks: each writes its own file of the one job, with its rank, the world's size and its clock offset; tprof merge's reader agrees.
# SPDX-License-Identifier: MIT
"""Run with mpiexec -n 2 (or more); the tprof package on PYTHONPATH."""
import glob
import os
import sys
import tempfile
import time

from mpi4py import MPI

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "spill"))
import spill_journal  # noqa: E402
import tprof  # noqa: E402

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
errors = []

# one directory for the job, made by rank 0
directory = comm.bcast(tempfile.mkdtemp(prefix="tprof-spill-mpi-") if rank == 0 else None, root=0)
os.environ["TPROF_KEEP_SPILL"] = "1"
tm = tprof.TimeManager()
tm.set_spill(directory, interval=0.2, comm=comm)
for k in range(100 * (rank + 1)):
    tm._append_time("py.step", (k + 1) * 1e-6)
time.sleep(0.6)
tm.end_spill(None)
del tm
comm.Barrier()

if rank == 0:
    files = sorted(glob.glob(os.path.join(directory, "tprof-*.spill")))
    if len(files) != size:
        errors.append("%d spill files, expected one per rank (%d): %s" % (len(files), size, files))
    headers = {}
    for path in files:
        j = spill_journal.read(path)
        h = j.header
        headers[h["rank"]] = h
        expected_name = "tprof-%016x-%d.spill" % (h["token"], h["rank"])
        if os.path.basename(path) != expected_name:
            errors.append("%s: its header says %s" % (path, expected_name))
        if h["world_size"] != size:
            errors.append("%s: world size %d, expected %d" % (path, h["world_size"], size))
        counts = {name: d.size for (name, _), (d, _) in j.samples.items()}
        if counts != {"py.step": 100 * (h["rank"] + 1)}:
            errors.append("%s: samples %r, expected %d of py.step" % (path, counts, 100 * (h["rank"] + 1)))
        if j.end is None:
            errors.append("%s: no end record" % path)
    if sorted(headers) != list(range(size)):
        errors.append("ranks %r in the headers, expected 0..%d" % (sorted(headers), size - 1))
    if len({h["token"] for h in headers.values()}) != 1:
        errors.append("job tokens differ: %r" % [hex(h["token"]) for h in headers.values()])
    # rank 0's clock is the reference; the others' offsets are measured,
    # on one host a few milliseconds at most
    if headers.get(0, {}).get("clock_offset") != 0.0:
        errors.append("rank 0's clock offset is %r, expected 0" % headers.get(0, {}).get("clock_offset"))
    for r, h in headers.items():
        if r > 0 and not abs(h["clock_offset"]) < 0.1:
            errors.append("rank %d's clock offset is %r s" % (r, h["clock_offset"]))
    for path in files:
        os.unlink(path)
    os.rmdir(directory)
errors = comm.bcast(errors, root=0)
if errors:
    print("FAIL (rank %d):\n%s" % (rank, "\n".join(errors)), flush=True)
    sys.exit(1)
if rank == 0:
    print("test_spill_mpi: ok on %d ranks" % size)
