# bench_timer.py — the cost of tprof's Python timers against an empty context manager, same run.
# SPDX-License-Identifier: MIT
"""Prints, per timed block, the cost of

  with tm.timer("x"):            TimeManager.timer
  with timer("x"):               the module-level timer, manager enabled
  with timer("x"):               the module-level timer, nothing enabled
  with seed_timer("x"):          a @contextmanager timer like the seed's

against two baselines timed in the same run: an empty
``with contextlib.nullcontext():`` and two ``time.perf_counter()`` calls.
Loop overhead (an empty ``pass`` body) is subtracted from every figure.
Median of the repeats; machines here are noisy, so no threshold is checked.
"""
import contextlib
import resource
import statistics
import sys
import time
import timeit

import tprof

N = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
REPEATS = 7

tm = tprof.TimeManager()
records = {}


@contextlib.contextmanager
def seed_timer(name):
    start = time.time()
    yield
    records.setdefault(name, []).append(time.time() - start)


CASES = [
    ("loop overhead (pass)", "pass"),
    ("with contextlib.nullcontext()", "with nullcontext():\n    pass"),
    ("2 x time.perf_counter()", "perf_counter(); perf_counter()"),
    ('with tm.timer("x")', 'with tm.timer("x"):\n    pass'),
    ('with timer("x"), enabled', 'with timer("x"):\n    pass'),
    ('with timer("x"), nothing enabled', 'with timer("x"):\n    pass'),
    ('with seed_timer("x") (@contextmanager)', 'with seed_timer("x"):\n    pass'),
]


def measure(stmt, enabled):
    namespace = {"nullcontext": contextlib.nullcontext, "perf_counter": time.perf_counter,
                 "tm": tm, "timer": tprof.timer, "seed_timer": seed_timer}
    runs = []
    for _ in range(REPEATS):
        tm.clear()
        records.clear()
        if enabled:
            with tm.enable_timer():
                runs.append(timeit.timeit(stmt, number=N, globals=namespace))
        else:
            runs.append(timeit.timeit(stmt, number=N, globals=namespace))
    return statistics.median(runs) / N * 1e9


def main():
    results = {}
    for label, stmt in CASES:
        results[label] = measure(stmt, enabled=label.endswith(", enabled"))
    loop = results.pop("loop overhead (pass)")
    cost = {label: ns - loop for label, ns in results.items()}
    null = cost["with contextlib.nullcontext()"]
    clocks = cost["2 x time.perf_counter()"]
    print("bench-python-timer: {} blocks x {} repeats, median, loop overhead ({:.1f} ns) subtracted"
          .format(N, REPEATS, loop))
    print("{:42s} {:>9s} {:>12s} {:>14s}".format("", "ns/block", "/ nullcontext", "/ 2 perf_counter"))
    for label, ns in cost.items():
        print("{:42s} {:9.1f} {:12.2f}x {:14.2f}x".format(label, ns, ns / null, ns / clocks))
    print("peak RSS: {:.1f} MiB".format(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))


if __name__ == "__main__":
    main()
