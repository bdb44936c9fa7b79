# test_decorators.py — timer(name), tm.timer(name) and timer_wrap as decorators and as context managers, as in the seed.
# SPDX-License-Identifier: MIT
"""In the seed both timers are @contextmanager functions, which Python
also lets a user put on a function. Each use must record one sample per
call or block, into the managers the seed's rules say, keep the
function's name and result, and let exceptions through (recorded)."""

import time

import tprof
from tprof import TimeManager, timer, timer_wrap

tm = TimeManager()
other = TimeManager()


@timer("module_decorated")
def add(a, b=1):
    """adds"""
    time.sleep(0.002)
    return a + b


@tm.timer("manager_decorated")
def manager_only():
    return "m"


@timer_wrap
def bare():
    pass


@timer_wrap()
def empty_parentheses():
    pass


@timer_wrap("named")
def with_name():
    raise ValueError("boom")


assert add.__name__ == "add" and add.__doc__ == "adds"
with tm.enable_timer():
    assert add(1) == 2 and add(2, b=3) == 5
    bare()
    empty_parentheses()
    try:
        with_name()
    except ValueError:
        pass
    else:
        raise AssertionError("the exception was swallowed")
    with timer_wrap("block"):
        time.sleep(0.001)
    with timer("block"):
        pass
# the manager's own timer records without being enabled; the module-level
# ones record into the managers enabled on this thread only
assert manager_only() == "m" and manager_only() == "m"
add(5)

records = tm.records
want = {"module_decorated": 2, "bare": 1, "empty_parentheses": 1, "named": 1, "block": 2, "manager_decorated": 2}
assert {name: len(times) for name, times in records.items()} == want, records
assert list(records) == list(want), list(records)
assert min(records["module_decorated"]) >= 0.002, records
assert min(records["block"][:1]) >= 0.001, records
assert other.records == {}

# a decorated function that recurses: each call a sample of its own
@tm.timer("recursive")
def countdown(n):
    return 0 if n == 0 else 1 + countdown(n - 1)


assert countdown(4) == 4 and len(tm._get_time("recursive")) == 5

for bad, message in ((lambda: timer("x")(1), "decorator of one function"),
                     (lambda: tm.timer("x")(len, len), "decorator of one function"),
                     (lambda: timer_wrap(3), "name must be a str")):
    try:
        bad()
    except TypeError as e:
        assert message in str(e), e
    else:
        raise AssertionError("accepted: " + message)
try:
    with timer_wrap():
        pass
except TypeError as e:
    assert "needs a name" in str(e), e
else:
    raise AssertionError("timer_wrap() without a name timed a block")
print("OK", tprof.__version__)
