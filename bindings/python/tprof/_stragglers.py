# tprof/_stragglers.py — tprof.stragglers(): what kept the ranks waiting (a host, a rank or nothing), from the C engine.
# SPDX-License-Identifier: MIT
import os

import numpy as np

from . import _capture


def stragglers(profile, by=None, topology=None):
    """What kept the other ranks waiting at the operations that synchronise
    them: a host whose ranks were late together, one rank, or nothing.

    ``profile`` is a :class:`tprof.ProfiledTime` or the path of a profile
    (with a timeline). ``by`` is ``"rank"``, ``"host"`` or a level of the
    ``topology`` file (``"rack"``); by default the highest level of two
    groups or more (else rank). Returns a dict, as ``tprof stragglers --format json``:
    ``verdict`` (``"host"``, ``"rank"`` or ``"none"``), ``host`` (the group
    named: ``host``, ``level``, ``ranks``, ``late_count``,
    ``occurrences``, ``wait_caused``, ``expected_late``, ``p_value``,
    ``latest_rank``; or None), ``straggler`` (the rank the rank test names,
    or None), ``p_value``, ``occurrences``, ``synchronising`` (operation
    names) and, per rank, ``late_count`` and ``wait_caused`` as numpy
    arrays. Raises ValueError for a profile without a timeline or a bad
    ``by``, tprof.FormatError for a bad topology file.
    """
    from . import ProfiledTime

    if not isinstance(profile, ProfiledTime):
        profile = ProfiledTime.load(os.fspath(profile))
    if topology is not None:
        topology = os.fspath(topology)
    result = _capture._stragglers(profile, by, topology)
    result["late_count"] = np.asarray(result["late_count"], dtype=np.uint64)
    result["wait_caused"] = np.asarray(result["wait_caused"], dtype=np.float64)
    return result
