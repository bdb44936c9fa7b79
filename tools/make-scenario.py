#!/usr/bin/python3
# make-scenario.py — writes a synthetic training profile (format 2, with the time axis) in which something goes wrong in a known way, to look at in the viewer.
# Usage: make-scenario.py slow-node|slow-rack|slowdown|straggler|none OUT.h5 [--ranks N] [--steps N]
# SPDX-License-Identifier: MIT
"""Scenarios, each a training step (forward, backward, allreduce, optimizer
inside "step") on every rank, on hosts of 8 ranks:

- slow-node: the 8 ranks of one host (the middle one) compute 30 % slower,
  so every other rank waits in allreduce for them;
- slow-rack: the 32 ranks of four hosts (node004-node007, a rack when
  racks hold four hosts) compute 30 % slower;
- slowdown: every rank's compute grows by 60 % over the run (a leak, a
  throttling node);
- straggler: rank 1 computes 50 % slower;
- none: only noise.

Written with h5py alone, as any program may write a profile (docs/file-format.md): tprof computes what the file does not cache."""
import argparse

import h5py
import numpy as np

OPS = ('forward', 'backward', 'allreduce', 'optimizer')


def compute_factor(kind, ranks, steps):
    f = np.ones((ranks, steps))
    if kind == 'slow-node':
        host = (ranks // 8) // 2
        f[host * 8:host * 8 + 8, :] = 1.3
    elif kind == 'slow-rack':
        f[32:64, :] = 1.3
    elif kind == 'slowdown':
        f *= np.linspace(1.0, 1.6, steps)[None, :]
    elif kind == 'straggler':
        f[1 % ranks, :] = 1.5
    return f


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('kind', choices=('slow-node', 'slow-rack', 'slowdown', 'straggler', 'none'))
    p.add_argument('out')
    p.add_argument('--ranks', type=int, default=None)
    p.add_argument('--steps', type=int, default=200)
    a = p.parse_args()
    ranks = a.ranks or {'slow-node': 1024, 'slow-rack': 256}.get(a.kind, 16)
    steps = a.steps
    rng = np.random.default_rng(7)
    factor = compute_factor(a.kind, ranks, steps)
    fwd = 0.010 * factor * rng.lognormal(0, 0.05, (ranks, steps))
    bwd = 0.020 * factor * rng.lognormal(0, 0.05, (ranks, steps))
    opt = 0.002 * rng.lognormal(0, 0.1, (ranks, steps))
    step_start = np.zeros(steps)
    samples = {op: (np.zeros((ranks, steps)), np.zeros((ranks, steps))) for op in OPS + ('step',)}
    t = 0.0
    for k in range(steps):
        step_start[k] = t
        ready = t + fwd[:, k] + bwd[:, k] + 0.0004
        done = ready.max() + 0.003 + 0.0005 * rng.random(ranks)   # everyone waits for the last
        samples['forward'][0][:, k], samples['forward'][1][:, k] = t + 0.0002, fwd[:, k]
        samples['backward'][0][:, k] = t + 0.0003 + fwd[:, k]
        samples['backward'][1][:, k] = bwd[:, k]
        samples['allreduce'][0][:, k], samples['allreduce'][1][:, k] = ready, done - ready
        samples['optimizer'][0][:, k], samples['optimizer'][1][:, k] = done + 0.0001, opt[:, k]
        end = done + 0.0002 + opt[:, k]
        samples['step'][0][:, k], samples['step'][1][:, k] = t, end - t
        t = end.max() + 0.0005
    with h5py.File(a.out, 'w', track_order=True) as f:
        f.attrs['format'] = 'tprof-profile'
        f.attrs['format_version'] = 2
        f.attrs['world_size'] = ranks
        f.attrs['producer'] = 'tools/make-scenario.py ' + a.kind
        timings = f.create_group('timings', track_order=True)
        for op in ('step',) + OPS:
            starts, times = samples[op]
            g = timings.create_group(op)
            g.attrs['name'] = op
            g['times'] = times.reshape(-1)
            g['ranks'] = np.repeat(np.arange(ranks, dtype=np.int32), steps)
            g['starts'] = starts.reshape(-1)
            g['threads'] = np.zeros(ranks * steps, dtype=np.int32)
        r = f.create_group('ranks')
        r['hostname'] = np.array(['node%03d' % (i // 8) for i in range(ranks)], dtype=h5py.string_dtype())
    print('%s: %s, %d ranks x %d steps' % (a.out, a.kind, ranks, steps))


if __name__ == '__main__':
    main()
