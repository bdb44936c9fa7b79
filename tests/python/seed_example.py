# seed_example.py — a tprofiler.time.manage script whose only change is the import.
# SPDX-License-Identifier: MIT
import sys
import tempfile
import time

import matplotlib
matplotlib.use("Agg")
from matplotlib import pyplot as plt

# was: from tprofiler.time import TimeManager, timer, timer_wrap
#      from tprofiler.time.manage import GatheredTime, ProfiledTime
from tprof import TimeManager, GatheredTime, ProfiledTime, timer, timer_wrap


@timer_wrap()
def data_loading():
    time.sleep(0.001)


@timer_wrap('model_forward')
def forward():
    with timer('matmul'):
        time.sleep(0.0005)


tm = TimeManager()
with tm.timer('setup'):
    time.sleep(0.001)

with tm.enable_timer():
    for step in range(20):
        data_loading()
        forward()
        with timer('backward'):
            time.sleep(0.0002)

times = tm._get_time('data_loading')
assert len(times) == 20 and all(t >= 0.001 for t in times), times

profiled = tm.gather(dst=0)        # this process alone: it is the destination
everywhere = tm.gather()           # dst=None: to every rank
assert list(profiled) == list(everywhere) == [
    'setup', 'data_loading', 'matmul', 'model_forward', 'backward'], list(profiled)

fwd = profiled['model_forward']
print('model_forward: n={} mean={:.6f}s std={:.6f}s sum={:.6f}s ranks={}'.format(
    fwd.count(), fwd.mean(), fwd.std(), fwd.sum(), fwd.rank_count()))
assert fwd.count() == 20 and fwd.rank_count() == 1
assert fwd.get_rank(0).count() == 20 and not fwd.get_rank(1)
assert fwd[:5].count() == 5 and fwd[-1].count() == 1

fig, axes = plt.subplots(1, 2)
fwd.hist(bins=10, ax=axes[0])
profiled['backward'].hist(separate_ranks=True, ax=axes[1])
plt.close(fig)

with tempfile.TemporaryDirectory() as d:
    profiled.save(d + '/run.h5')
    loaded = ProfiledTime.load(d + '/run.h5')
    assert list(loaded) == list(profiled)
    assert loaded['model_forward'].sum() == fwd.sum()
    assert isinstance(loaded['backward'], GatheredTime)

tm.clear()
assert tm._get_time('setup') == []
print('the seed example ran on tprof', file=sys.stderr)
