# test_tprof.py — `import tprof` against numpy and h5py: statistics, selections, files, timers, errors.
# SPDX-License-Identifier: MIT
import math
import os
import subprocess
import sys
import tempfile
import threading
import unittest

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import profile_h5  # noqa: E402  (tests/profile_h5.py)

import tprof


def sample_data(n=1000, ranks=4, seed=7):
    rng = np.random.default_rng(seed)
    times = rng.lognormal(-7, 1, n)
    rank_of = rng.integers(0, ranks, n).astype(np.int32)
    return times, rank_of


class Statistics(unittest.TestCase):
    def check_stats(self, gt, times, ranks):
        self.assertEqual(gt.count(), times.size)
        self.assertEqual(len(gt), times.size)
        self.assertEqual(gt.rank_count(), np.unique(ranks).size)
        self.assertEqual(bool(gt), times.size > 0)
        if times.size == 0:
            for value in (gt.mean(), gt.std(), gt.min(), gt.max(), gt.median()):
                self.assertTrue(math.isnan(value))
            self.assertEqual(gt.sum(), 0.0)
            return
        # the engine's sum is numpy's pairwise sum, bit for bit
        self.assertEqual(gt.sum(), np.sum(times))
        self.assertEqual(gt.mean(), np.mean(times))
        if times.size > 1:
            self.assertAlmostEqual(gt.std(), np.std(times, ddof=1), delta=1e-12 * np.std(times))
        else:
            self.assertTrue(math.isnan(gt.std()))
        self.assertEqual(gt.min(), np.min(times))
        self.assertEqual(gt.max(), np.max(times))
        for q in (0.0, 0.1, 0.25, 0.5, 0.95, 0.99, 1.0):
            self.assertAlmostEqual(gt.quantile(q), np.quantile(times, q), delta=1e-15)
        self.assertAlmostEqual(gt.median(), np.median(times), delta=1e-15)

    def test_every_statistic_against_numpy(self):
        for n in (0, 1, 2, 3, 10, 1000, 70000):
            times, ranks = sample_data(n)
            with self.subTest(n=n):
                self.check_stats(tprof.GatheredTime(times, ranks), times, ranks)

    def test_times_and_ranks_are_numpy_views(self):
        times, ranks = sample_data(100)
        gt = tprof.GatheredTime(times, ranks)
        self.assertEqual(gt.times.dtype, np.float64)
        self.assertEqual(gt.ranks.dtype, np.int32)
        np.testing.assert_array_equal(gt.times, times)
        np.testing.assert_array_equal(gt.ranks, ranks)
        # no copy: two reads share the library's memory, which is read-only
        self.assertTrue(np.shares_memory(gt.times, gt.times))
        self.assertFalse(gt.times.flags.writeable)
        view = gt.times
        del gt
        np.testing.assert_array_equal(view, times)  # the array keeps the samples alive

    def test_get_rank(self):
        times, ranks = sample_data(500, ranks=6)
        gt = tprof.GatheredTime(times, ranks)
        for chosen in ((0,), (1, 3), (5, 0, 2), (7,), ()):
            mask = np.isin(ranks, chosen)
            with self.subTest(ranks=chosen):
                sub = gt.get_rank(*chosen)
                np.testing.assert_array_equal(sub.times, times[mask])
                np.testing.assert_array_equal(sub.ranks, ranks[mask])
                self.check_stats(sub, times[mask], ranks[mask])
        self.assertEqual(gt.get_rank(np.int64(2)).count(), np.sum(ranks == 2))

    def test_indexing_and_slicing(self):
        times, ranks = sample_data(37)
        gt = tprof.GatheredTime(times, ranks)
        bounds = (None, -100, -37, -5, -1, 0, 1, 5, 36, 37, 100)
        for start in bounds:
            for stop in bounds:
                for step in (None, 1, 2, 5, -1, -3, 100, -100):
                    sub = gt[start:stop:step]
                    np.testing.assert_array_equal(sub.times, times[start:stop:step])
                    np.testing.assert_array_equal(sub.ranks, ranks[start:stop:step])
        for i in (0, 5, 36, -1, -37):
            self.assertEqual(gt[i].times.tolist(), [times[i]])
            self.assertEqual(gt[i].ranks.tolist(), [ranks[i]])
        self.check_stats(gt[3:30:2], times[3:30:2], ranks[3:30:2])
        with self.assertRaises(IndexError):
            gt[37]
        with self.assertRaises(IndexError):
            gt[-38]
        with self.assertRaises(ValueError):
            gt[::0]

    def test_truth_value(self):
        self.assertFalse(tprof.GatheredTime([], []))
        self.assertTrue(tprof.GatheredTime([0.5], [3]))
        self.assertFalse(tprof.GatheredTime([0.5], [3]).get_rank(1))


class Histogram(unittest.TestCase):
    def setUp(self):
        import matplotlib
        matplotlib.use("Agg")
        from matplotlib import pyplot as plt
        self.plt = plt
        self.fig, self.ax = plt.subplots()

    def tearDown(self):
        self.plt.close(self.fig)

    def drawn_heights(self):
        return [p.get_height() for p in self.ax.patches]

    def test_combined_matches_numpy(self):
        times, ranks = sample_data(400)
        gt = tprof.GatheredTime(times, ranks)
        gt.hist(bins=12, ax=self.ax)
        counts, _ = np.histogram(times, bins=12)
        self.assertEqual(self.drawn_heights(), counts.tolist())
        self.assertTrue(self.ax.get_title().startswith("Time Distribution\n(All 4 Ranks, n=400, "))
        self.assertEqual(self.ax.get_xlabel(), "Time (seconds)")
        self.assertEqual(self.ax.get_ylabel(), "Frequency")

    def test_auto_bins_are_numpys(self):
        times, ranks = sample_data(300)
        tprof.GatheredTime(times, ranks).hist(ax=self.ax)
        counts, _ = np.histogram(times, bins="auto")
        self.assertEqual(self.drawn_heights(), counts.tolist())

    def test_separate_ranks_share_edges(self):
        times, ranks = sample_data(400)
        gt = tprof.GatheredTime(times, ranks)
        gt.hist(bins=10, separate_ranks=True, alpha=0.5, title="Forward", ax=self.ax)
        edges = np.histogram_bin_edges(times, bins=10)
        heights = self.drawn_heights()
        for k, rank in enumerate(np.unique(ranks)):
            counts, _ = np.histogram(times[ranks == rank], bins=edges)
            self.assertEqual(heights[10 * k:10 * (k + 1)], counts.tolist())
            patch = self.ax.patches[10 * k]
            self.assertAlmostEqual(patch.get_x(), edges[0])
            self.assertEqual(patch.get_alpha(), 0.5)
        labels = [t.get_text() for t in self.ax.get_legend().get_texts()]
        r0 = times[ranks == 0]
        self.assertEqual(labels[0], "Rank #0 (n={}, mean={:.2g}s, std={:.2g}s)".format(
            r0.size, r0.mean(), r0.std(ddof=1)))
        self.assertTrue(self.ax.get_title().startswith("Forward by 4 Ranks\n"))

    def test_empty_and_bad_bins(self):
        tprof.GatheredTime([], []).hist(ax=self.ax)
        self.assertEqual(self.drawn_heights(), [])
        gt = tprof.GatheredTime([1.0, 2.0], [0, 0])
        with self.assertRaises(TypeError):
            gt.hist(bins=[1, 2, 3], ax=self.ax)
        with self.assertRaises(ValueError):
            gt.hist(bins=0, ax=self.ax)


class Recording(unittest.TestCase):
    def test_timer_records_also_when_the_block_raises(self):
        tm = tprof.TimeManager()
        with tm.timer("ok"):
            pass
        with self.assertRaises(KeyError):
            with tm.timer("raises"):
                raise KeyError("x")
        self.assertEqual(len(tm._get_time("ok")), 1)
        self.assertEqual(len(tm._get_time("raises")), 1)
        self.assertEqual(tm._get_time("never"), [])
        self.assertGreaterEqual(tm._get_time("ok")[0], 0.0)

    def test_append_get_clear(self):
        tm = tprof.TimeManager()
        tm._append_time("a", 1.5)
        tm._append_time("b", 2)
        tm._append_time("a", 0.25)
        self.assertEqual(tm.records, {"a": [1.5, 0.25], "b": [2.0]})
        tm.clear()
        self.assertEqual(tm.records, {})
        self.assertEqual(tprof.TimeManager(records={"x": [1.0, 2.0]}).records, {"x": [1.0, 2.0]})

    def test_module_timer_records_into_every_enabled_manager(self):
        outer, inner = tprof.TimeManager(), tprof.TimeManager()

        @tprof.timer_wrap()
        def work():
            return 42

        @tprof.timer_wrap("renamed")
        def other():
            pass

        with tprof.timer("nothing-enabled"):
            pass
        self.assertEqual(work(), 42)
        with outer.enable_timer():
            with tprof.timer("both"):
                with inner.enable_timer():
                    with tprof.timer("both"):
                        work()
                        other()
            with self.assertRaises(RuntimeError):
                with tprof.timer("raised"):
                    raise RuntimeError()
        with tprof.timer("after"):
            pass
        self.assertEqual(list(outer.records), ["work", "renamed", "both", "raised"])
        self.assertEqual(len(outer._get_time("both")), 2)
        self.assertEqual(list(inner.records), ["work", "renamed", "both"])
        self.assertEqual(work.__name__, "work")

    def test_str_subclass_names(self):
        class Name(str):
            pass

        tm = tprof.TimeManager()
        for _ in range(3):
            with tm.timer(Name("sub")):
                pass
        with tm.enable_timer():
            with tprof.timer(Name("sub")):
                pass
        self.assertEqual(len(tm._get_time("sub")), 4)

    def test_threads_record_into_one_manager(self):
        tm = tprof.TimeManager()

        def record():
            with tm.enable_timer():
                for _ in range(1000):
                    with tprof.timer("t"):
                        pass

        threads = [threading.Thread(target=record) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(len(tm._get_time("t")), 4000)

    def test_sample_limit_keeps_a_subset_and_exact_figures(self):
        tm = tprof.TimeManager()
        tm.set_sample_limit(10)
        for i in range(1000):
            tm._append_time("a", i * 0.25)
        kept = tm._get_time("a")
        self.assertEqual(len(kept), 10)
        self.assertTrue(set(kept) <= {i * 0.25 for i in range(1000)})
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "limited.h5")
            tm.gather().save(path)
            with h5py.File(path) as f:
                g = profile_h5.operations(f)[0][1]
                self.assertEqual(g["rank_recorded"][()].tolist(), [1000])
                self.assertEqual(g["rank_count"][()].tolist(), [10])
                self.assertEqual(g.attrs["count"], 1000)
                self.assertEqual(g.attrs["sum"], 0.25 * 999 * 1000 / 2)
        with self.assertRaises(ValueError):
            tm.set_sample_limit(-1)
        with self.assertRaises(TypeError):
            tm.set_sample_limit("ten")

    def test_gather_without_mpi_is_rank_0_of_1(self):
        tm = tprof.TimeManager()
        tm._append_time("a", 0.5)
        profile = tm.gather()
        self.assertEqual(profile.world_size, 1)
        self.assertEqual(profile["a"].ranks.tolist(), [0])
        self.assertEqual(tm.gather(dst=0)["a"].times.tolist(), [0.5])


class Files(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "run.h5")

    def tearDown(self):
        self.dir.cleanup()

    def test_save_load_round_trip_against_h5py(self):
        times, ranks = sample_data(300, ranks=3)
        ops = {"forward": tprof.GatheredTime(times, ranks),
               "io/ckpt%": tprof.GatheredTime(times[:10], ranks[:10]),
               "empty": tprof.GatheredTime([], [])}
        profile = tprof.ProfiledTime(ops, world_size=4)
        profile.save(self.path)
        with h5py.File(self.path) as f:
            self.assertEqual(f.attrs["format"], "tprof-profile")
            self.assertEqual(f.attrs["world_size"], 4)
            names = [name for name, _ in profile_h5.operations(f)]
            self.assertEqual(sorted(names), sorted(ops))
            for _, group in profile_h5.operations(f):
                gt = ops[group.attrs["name"]]
                # stored grouped by rank, each rank in order
                order = np.argsort(gt.ranks, kind="stable")
                np.testing.assert_array_equal(group["times"][()], gt.times[order])
                np.testing.assert_array_equal(group["ranks"][()], gt.ranks[order])
        loaded = tprof.ProfiledTime.load(self.path)
        self.assertIsInstance(loaded, tprof.ProfiledTime)
        self.assertEqual(list(loaded), list(ops))
        self.assertEqual(loaded.world_size, 4)
        self.assertEqual(len(loaded), 3)
        self.assertIn("forward", loaded)
        self.assertNotIn("backward", loaded)
        for name, gt in loaded.items():
            self.assertIsInstance(gt, tprof.GatheredTime)
            self.assertEqual(sorted(gt.times), sorted(ops[name].times))
            self.assertEqual(gt.sum(), np.sum(gt.times))
        loaded.save(self.path + ".again")  # a loaded profile saves again

    def test_bad_files_raise_with_the_librarys_message(self):
        with self.assertRaises(tprof.FileError) as raised:
            tprof.ProfiledTime.load(os.path.join(self.dir.name, "missing.h5"))
        self.assertIn("missing.h5", str(raised.exception))
        self.assertIsInstance(raised.exception, OSError)
        with open(self.path, "wb") as f:
            f.write(b"not an HDF5 file at all" * 10)
        with self.assertRaises(tprof.FormatError) as raised:
            tprof.ProfiledTime.load(self.path)
        self.assertIn("run.h5", str(raised.exception))
        with h5py.File(self.path, "w") as f:
            f.attrs["format"] = "something-else"
        with self.assertRaises(tprof.FormatError) as raised:
            tprof.ProfiledTime.load(self.path)
        self.assertIn("format", str(raised.exception))
        with self.assertRaises(tprof.FileError):
            tprof.ProfiledTime({}).save(os.path.join(self.dir.name, "no", "such", "dir.h5"))
        with self.assertRaises(TypeError):
            tprof.ProfiledTime.load(42)


class DamagedFiles(unittest.TestCase):
    """The known inputs on which HDF5 1.10 crashes or runs away: load
    raises (it parses in a helper process), the interpreter lives on."""

    FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "fixtures")
    REGRESSIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "fuzz", "regressions")

    def damaged_files(self):
        # the fixtures hold good files too: the damaged ones are named so
        paths = sorted(os.path.join(d, name) for d in (self.FIXTURES, self.REGRESSIONS)
                       for name in os.listdir(d)
                       if name.endswith(".h5") and (d == self.REGRESSIONS or name.startswith("flipped-")))
        self.assertGreaterEqual(len(paths), 3)
        return paths

    def test_load_raises_not_a_signal(self):
        # each in its own interpreter: a crash must show as such, not end
        # this test run
        script = ("import sys, tprof\n"
                  "try:\n"
                  "    tprof.ProfiledTime.load(sys.argv[1])\n"
                  "except tprof.FormatError as e:\n"
                  "    print(e)\n"
                  "    sys.exit(3)\n")
        for path in self.damaged_files():
            with self.subTest(path=os.path.basename(path)):
                done = subprocess.run([sys.executable, "-c", script, path],
                                      capture_output=True, text=True, timeout=120)
                self.assertGreaterEqual(done.returncode, 0,
                                        "killed by signal %d" % -done.returncode)
                self.assertEqual(done.returncode, 3, done.stderr)
                # one line naming the file
                self.assertTrue(done.stdout.startswith(path), done.stdout)
                self.assertEqual(done.stdout.count("\n"), 1, done.stdout)

    def test_crash_in_hdf5_is_a_format_error_here(self):
        path = os.path.join(self.FIXTURES, "flipped-crashes-hdf5.h5")
        with self.assertRaises(tprof.FormatError) as raised:
            tprof.ProfiledTime.load(path)
        self.assertIn("crashed", str(raised.exception))


class BadInput(unittest.TestCase):
    def test_unknown_operation(self):
        profile = tprof.ProfiledTime({"a": tprof.GatheredTime([1.0], [0])})
        with self.assertRaises(KeyError) as raised:
            profile["b"]
        self.assertIn("'b'", str(raised.exception))
        with self.assertRaises(TypeError):
            profile[0]
        self.assertIsNone(profile.get("b"))

    def test_wrong_types_and_values(self):
        tm = tprof.TimeManager()
        for name in (None, 3, b"bytes"):
            with self.assertRaises(TypeError):
                tm.timer(name)
            with self.assertRaises(TypeError):
                tprof.timer(name)
        with self.assertRaises(ValueError):
            tm.timer("")
        with self.assertRaises(ValueError):
            tm.timer("a\0b")
        with self.assertRaises(TypeError):
            tm._append_time("a", "1.0")
        for secs in (-1.0, float("nan"), float("inf")):
            with self.assertRaises(ValueError):
                tm._append_time("a", secs)
        self.assertEqual(tm.records, {})
        with self.assertRaises(TypeError):
            tprof.GatheredTime([1.0], [0]).get_rank("0")
        with self.assertRaises(ValueError):
            tprof.GatheredTime([1.0], [0]).get_rank(-1)
        with self.assertRaises(ValueError):
            tprof.GatheredTime([1.0, 2.0], [0])
        with self.assertRaises(ValueError):
            tprof.GatheredTime([-1.0], [0])
        with self.assertRaises(ValueError):
            tprof.GatheredTime([1.0], [-2])
        with self.assertRaises(TypeError):
            tprof.GatheredTime([1.0], [0])["x"]
        with self.assertRaises(ValueError):
            tprof.GatheredTime([1.0], [0]).quantile(1.5)
        with self.assertRaises(TypeError):
            tprof.ProfiledTime({"a": [1.0]})
        with self.assertRaises(ValueError):
            tprof.ProfiledTime({"a": tprof.GatheredTime([1.0], [3])}, world_size=2)
        with self.assertRaises(TypeError):
            tm.gather(dst="0")
        with self.assertRaises(ValueError):
            tm.gather(dst=1)
        with self.assertRaises(TypeError):
            tprof.timer_wrap(3)


if __name__ == "__main__":
    unittest.main(verbosity=2)
