# test_clock_sync.py — the clock alignment's tree and estimator as libcapture lends them to Python, against hand-made cases.
# SPDX-License-Identifier: MIT
"""tprof._capture.clock_sync_role, clock_offset_estimate and
clock_offset_compose: the functions both gathers (MPI and torch.distributed)
run. Checked against a simulation: ranks whose clocks are off by known
amounts, messages with known delays."""

import random

from tprof import _capture as C


def check_tree(size):
    """Every rank but 0 is a child exactly once, of a smaller rank that is
    already placed on rank 0's clock when the composing rounds reach it."""
    parent = {}
    steps = []
    step = 1
    while step < size:
        steps.append(step)
        step <<= 1
    for step in steps:
        for rank in range(size):
            role, peer = C.clock_sync_role(rank, size, step)
            if role == C.CLOCK_SYNC_CHILD:
                assert rank not in parent, (size, rank)
                parent[rank] = peer
                assert C.clock_sync_role(peer, size, step) == (C.CLOCK_SYNC_PARENT, rank)
            elif role == C.CLOCK_SYNC_PARENT:
                assert C.clock_sync_role(peer, size, step) == (C.CLOCK_SYNC_CHILD, rank)
            else:
                assert role == C.CLOCK_SYNC_IDLE and peer == -1
    assert sorted(parent) == list(range(1, size)), (size, parent)
    # composing widest step first: a parent is placed before its child
    placed = {0}
    for step in reversed(steps):
        for rank in range(size):
            role, peer = C.clock_sync_role(rank, size, step)
            if role == C.CLOCK_SYNC_CHILD:
                assert peer in placed, (size, rank, peer)
                placed.add(rank)
    assert placed == set(range(size))
    assert len(steps) == (size - 1).bit_length()


def simulate(size, skews, rng):
    """Each rank's offset to rank 0 as the tree measures it, with random
    one-way delays; returns [(offset, error)]."""
    to_parent = {}
    step = 1
    while step < size:
        for rank in range(size):
            role, peer = C.clock_sync_role(rank, size, step)
            if role != C.CLOCK_SYNC_CHILD:
                continue
            sent, theirs, received = [], [], []
            now = 10.0
            for _ in range(C.CLOCK_SYNC_PINGS):
                there, back = rng.uniform(1e-5, 1e-3), rng.uniform(1e-5, 1e-3)
                sent.append(now + skews[rank])
                theirs.append(now + there + skews[peer])
                received.append(now + there + back + skews[rank])
                now += 0.01
            to_parent[rank] = C.clock_offset_estimate(sent, theirs, received)
        step <<= 1
    to_root = {0: (0.0, 0.0)}
    while step > 1:
        step >>= 1
        for rank in range(size):
            role, peer = C.clock_sync_role(rank, size, step)
            if role == C.CLOCK_SYNC_CHILD:
                to_root[rank] = C.clock_offset_compose(to_parent[rank], to_root[peer])
    return [to_root[r] for r in range(size)]


def main():
    for size in range(1, 34):
        check_tree(size)

    # by hand: the shortest trip (the second) decides
    offset, error = C.clock_offset_estimate([0.0, 1.0, 2.0], [5.5, 6.25, 7.9], [1.0, 1.5, 3.0])
    assert (offset, error) == (6.25 - 1.25, 0.25), (offset, error)
    assert C.clock_offset_compose((1.0, 0.5), (-3.0, 0.25)) == (-2.0, 0.75)
    try:
        C.clock_offset_estimate([], [], [])
    except ValueError as e:
        assert "no round trip" in str(e)
    else:
        raise AssertionError("no round trip accepted")
    try:
        C.clock_offset_estimate([0.0], [1.0, 2.0], [3.0])
    except ValueError as e:
        assert "theirs" in str(e), e
    else:
        raise AssertionError("lengths that differ accepted")

    rng = random.Random(7)
    for size in (2, 3, 5, 8, 13):
        skews = [0.0] + [rng.uniform(-100, 100) for _ in range(size - 1)]
        for rank, (offset, error) in enumerate(simulate(size, skews, rng)):
            truth = skews[0] - skews[rank]
            assert abs(offset - truth) <= error + 1e-9, (size, rank, offset, truth, error)
            assert error < 1e-3 * (size - 1).bit_length()
    print("OK")


if __name__ == "__main__":
    main()
