# _plot.py — GatheredTime.hist: the engine's histogram drawn with matplotlib, in the seed's style.
# SPDX-License-Identifier: MIT


def _ranks_word(n):
    return "{} Rank{}".format(n, "" if n == 1 else "s")


def _bin_count(bins):
    if bins is None or (isinstance(bins, str) and bins == "auto"):
        return 0
    if isinstance(bins, bool) or not hasattr(bins, "__index__"):
        raise TypeError("hist: bins must be a positive int, 'auto' or None, not {!r}".format(bins))
    if bins.__index__() < 1:
        raise ValueError("hist: bins must be >= 1, not {}".format(bins))
    return bins.__index__()


def draw_hist(gt, bins, separate_ranks, alpha, title, ax, kwargs):
    """Draws @gt's histogram on @ax; counts and edges come from the C engine
    (numpy.histogram's rules, ranks on shared edges)."""
    n_bins = _bin_count(bins)
    if ax is None:
        from matplotlib import pyplot as plt
        ax = plt.gca()
    title = title or "Time Distribution"
    edges, counts, rank_counts = gt._histogram(n_bins, bool(separate_ranks))
    if not separate_ranks:
        if edges:
            ax.hist(edges[:-1], bins=edges, weights=counts, alpha=1.0, **kwargs)
        ax.set_title("{}\n(All {}, n={}, mean={:.3g}s, std={:.3g}s)".format(
            title, _ranks_word(gt.rank_count()), gt.count(), gt.mean(), gt.std()))
    else:
        for rank, count, _, mean, std, _, _ in gt._rank_summaries():
            ax.hist(edges[:-1], bins=edges, weights=rank_counts[rank], alpha=alpha,
                    label="Rank #{} (n={}, mean={:.2g}s, std={:.2g}s)".format(rank, count, mean, std),
                    **kwargs)
        ax.set_title("{} by {}\n(mean={:.3g}s, std={:.3g}s)".format(
            title, _ranks_word(gt.rank_count()), gt.mean(), gt.std()))
        if gt:
            ax.legend()
    ax.set_xlabel("Time (seconds)")
    ax.set_ylabel("Frequency")
    ax.grid()
    return ax
