# profile_h5.py — reads a tprof profile of any format version (1-3) with h5py alone, for the tests' checks.
# SPDX-License-Identifier: MIT
"""The recipe of docs/file-format.md, once for every test that checks a file tprof wrote."""
import numpy as np

STATISTICS = ("count", "sum", "mean", "std", "min", "max", "median", "p95", "p99")
RANK_MEMBERS = ("rank_count", "rank_sum", "rank_min", "rank_max", "rank_recorded")


def _columns(f):
    world_size = int(f.attrs["world_size"])
    names = list(f["operations/name"].asstr()[()])
    segments = f["operations/segments"][()]
    offset = f["segments/offset"][()]
    rank = f["segments/rank"][()]
    samples = {k: f["samples/" + k][()] if "samples/" + k in f else None for k in ("times", "starts", "threads")}
    per_segment = {k: f["segments/" + k][()] for k in ("sum", "min", "max")}
    recorded = f["segments/recorded"][()] if "segments/recorded" in f else None
    for k, name in enumerate(names):
        s0, s1 = segments[k], segments[k + 1]
        rows = slice(offset[s0], offset[s1])
        op = {key: (values[rows] if values is not None else None) for key, values in samples.items()}
        op["ranks"] = np.repeat(rank[s0:s1], np.diff(offset[s0:s1 + 1])).astype(np.int32)
        op["attrs"] = {key: f["operations/" + key][k] for key in STATISTICS}
        ranks = rank[s0:s1]
        op["rank_count"] = np.zeros(world_size, np.int64)
        op["rank_count"][ranks] = np.diff(offset[s0:s1 + 1])
        op["rank_sum"] = np.zeros(world_size)
        op["rank_sum"][ranks] = per_segment["sum"][s0:s1]
        for key in ("min", "max"):
            op["rank_" + key] = np.full(world_size, np.nan)
            op["rank_" + key][ranks] = per_segment[key][s0:s1]
        op["rank_recorded"] = None
        # only where a rank stores fewer than it recorded, as format 2 wrote it
        if recorded is not None and np.any(recorded[s0:s1] > np.diff(offset[s0:s1 + 1])):
            op["rank_recorded"] = np.zeros(world_size, np.int64)
            op["rank_recorded"][ranks] = recorded[s0:s1]
        yield name, op


def _groups(f):
    timings = f["timings"]
    links = []
    timings.id.links.iterate(lambda link: links.append(link.decode("utf-8")), idx_type=_index(timings))
    for link in links:
        g = timings[link]
        op = {key: (g[key][()] if key in g else None) for key in ("times", "ranks", "starts", "threads")}
        op["attrs"] = {key: g.attrs[key] for key in STATISTICS if key in g.attrs}
        for key in RANK_MEMBERS:
            op[key] = g[key][()] if key in g else None
        yield g.attrs["name"], op


def _index(group):
    import h5py

    flags = group.id.get_create_plist().get_link_creation_order()
    return h5py.h5.INDEX_CRT_ORDER if flags & h5py.h5p.CRT_ORDER_TRACKED else h5py.h5.INDEX_NAME


class Operation(dict):
    """An operation's members by name, as an h5py group of format 2 would give them: op["times"][()],
    op.attrs["count"], "rank_recorded" in op (absent members are left out)."""

    def __init__(self, name, members):
        super().__init__((k, v) for k, v in members.items() if v is not None and k != "attrs")
        self.attrs = dict(members.get("attrs", {}), name=name)


def operations(f):
    """Each operation of the open h5py file @f, in file order, as (name, dict): its samples ("times",
    "ranks", "starts", "threads"; None when absent), its cached statistics ("attrs") and its per-rank
    figures ("rank_count", ...; world_size arrays, None when absent)."""
    found = _columns(f) if int(f.attrs["format_version"]) >= 3 else _groups(f)
    return [(name, Operation(name, members)) for name, members in found]


def operation_dict(f):
    return dict(operations(f))
