#!/usr/bin/env python3
"""Tests of scripts/plot on synthetic sweep results.

Run from anywhere: python3 tests/scripts/plot_test.py
The script is found under $TDSIM_SOURCE_DIR (default: this checkout's root).
Outputs go to a temp folder, never the source tree.
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

SOURCE_DIR = os.environ.get(
    "TDSIM_SOURCE_DIR",
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PLOT = os.path.join(SOURCE_DIR, "scripts", "plot")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
MIN_PNG_BYTES = 5000  # an axes with text and data; a blank or broken file is far smaller


def ok_point(index, values, rays_per_s, stalls, hit_rates):
    return {
        "point": index, "values": values, "status": "ok", "exit_code": 0, "wall_s": 1.0 + index,
        "primary": "rays_per_s",
        "figures": [
            {"name": "rays_per_s", "unit": "rays/s", "value": rays_per_s},
            {"name": "box_tests_per_s", "unit": "tests/s", "value": rays_per_s * 60},
            {"name": "tri_tests_per_s", "unit": "tests/s", "value": rays_per_s * 9},
            {"name": "td_utilisation", "unit": "", "value": 0.4},  # not a rate: no subplot
        ],
        "limited_by": max(stalls, key=stalls.get),
        "stalls": stalls,
        "hit_rates": hit_rates,
    }


def failed_point(index, values):
    return {"point": index, "values": values, "status": "failed", "exit_code": 2,
            "wall_s": 0.1, "error": "tdsim run: l1.mshrs: must be >= 1 (got 0)"}


def run_sweep(zipped=False):
    """A 2x3 grid (waves per SIMD x stack entries) of `tdsim run`; one point failed."""
    swept = ["shader.waves_per_simd", "shader.stack_entries"]
    grid = [("8", "8"), ("8", "16"), ("8", "32"), ("16", "8"), ("16", "16"), ("16", "32")]
    if zipped:
        grid = [("4", "8"), ("8", "16"), ("16", "32")]
    points = []
    for index, (waves, stack) in enumerate(grid):
        values = {swept[0]: waves, swept[1]: stack}
        if index == 4:
            points.append(failed_point(index, values))
            continue
        rays = 2e6 * int(waves) ** 0.5 * (1 + int(stack) / 64)
        stalls = {"fetch queue full": 0.5 - 0.01 * int(waves), "L0 MSHRs full": 0.3,
                  "return buffer full": 0.08, "issue port busy": 0.03,
                  "waiting for memory": 0.6}
        hit_rates = {"L0": 0.5 + 0.01 * int(stack), "L1": 0.09, "L2": None if index == 0 else 0.28}
        points.append(ok_point(index, values, rays, stalls, hit_rates))
    return {
        "command": "run", "arguments": ["--width", "48", "--height", "27"],
        "config": "/work/main/configs/xbox_series_x.yaml", "chip": "Xbox Series X",
        "workload": "primary rays, 48x27 camera frame, closest hit",
        "swept": swept, "zip": zipped, "points": points,
    }


def peak_sweep():
    """One key (L1 MSHRs) of `tdsim peak`; the last point failed."""
    points = []
    for index, mshrs in enumerate(["8", "16", "32", "64"]):
        values = {"l1.mshrs": mshrs}
        if index == 3:
            points.append(failed_point(index, values))
            continue
        points.append({
            "point": index, "values": values, "status": "ok", "exit_code": 0, "wall_s": 2.0,
            "primary": "box_tests_per_s",
            "figures": [
                {"name": "box_tests_per_s", "unit": "tests/s", "value": 3.796e11},
                {"name": "tri_tests_per_s", "unit": "tests/s", "value": 9.49e10},
                {"name": "l2_hit_latency", "unit": "cycles", "value": 140.0},
                {"name": "dram_bytes_per_s", "unit": "B/s", "value": 1e9 * 50 * int(mshrs) ** 0.5},
            ],
            "limited_by": "waiting for memory",
            "stalls": {"waiting for memory": 0.2 + 0.1 * index, "L0 MSHRs full": 0.1},
            "hit_rates": {"L0": 0.1, "L1": 0.0, "L2": 0.6},
        })
    return {
        "command": "peak", "arguments": [], "config": "small", "chip": "Small test chip",
        "workload": "peak microbenchmarks", "swept": ["l1.mshrs"], "zip": False,
        "points": points,
    }


def write_results(folder, results):
    with open(os.path.join(folder, "results.json"), "w", encoding="utf-8") as file:
        json.dump(results, file, indent=2)


def run_plot(*args):
    return subprocess.run([PLOT, *args], capture_output=True, text=True, timeout=300)


class PlotTest(unittest.TestCase):

    def setUp(self):
        self.temp = tempfile.TemporaryDirectory(prefix="plot_test_")
        self.dir = self.temp.name

    def tearDown(self):
        self.temp.cleanup()

    def plot_ok(self, results, *args):
        write_results(self.dir, results)
        done = run_plot(self.dir, *args)
        if "needs numpy and matplotlib" in done.stderr:
            self.skipTest(done.stderr.strip())
        self.assertEqual(done.returncode, 0, done.stderr)
        return done

    def assert_pngs(self, out_dir, stdout, names):
        self.assertEqual(sorted(os.listdir(out_dir)), sorted(names))  # no temp file left over
        self.assertEqual(sorted(stdout.split()), sorted(os.path.join(out_dir, n) for n in names))
        for name in names:
            with open(os.path.join(out_dir, name), "rb") as file:
                data = file.read()
            self.assertTrue(data.startswith(PNG_MAGIC), name)
            self.assertGreater(len(data), MIN_PNG_BYTES, name)

    def test_RunGridWritesEveryPictureUnderDirPlots(self):
        done = self.plot_ok(run_sweep())
        self.assert_pngs(os.path.join(self.dir, "plots"), done.stdout, [
            "rate_vs_shader.waves_per_simd.png", "rate_vs_shader.stack_entries.png",
            "stalls.png", "hit_rates.png", "rays_vs_occupancy.png", "rays_vs_stack.png"])

    def test_PeakSweepWritesRatesStallsHitRatesToOut(self):
        out = os.path.join(self.dir, "elsewhere", "pictures")
        done = self.plot_ok(peak_sweep(), "--out", out)
        self.assert_pngs(out, done.stdout, ["rate_vs_l1.mshrs.png", "stalls.png", "hit_rates.png"])
        self.assertFalse(os.path.exists(os.path.join(self.dir, "plots")))

    def test_ZippedSweepPlotsOneLineOverTheFirstKey(self):
        done = self.plot_ok(run_sweep(zipped=True))
        self.assert_pngs(os.path.join(self.dir, "plots"), done.stdout, [
            "rate_vs_shader.waves_per_simd.png", "stalls.png", "hit_rates.png",
            "rays_vs_occupancy.png", "rays_vs_stack.png"])

    def test_FiguresPerRayGetAPictureOfTheirOwn(self):
        results = run_sweep(zipped=True)
        for point in results["points"]:
            if point["status"] == "ok":
                point["figures"] += [{"name": "box_nodes_per_ray", "unit": "nodes", "value": 30.0 + point["point"]},
                                     {"name": "instance_nodes_per_ray", "unit": "nodes", "value": 2.0}]
        done = self.plot_ok(results)
        self.assert_pngs(os.path.join(self.dir, "plots"), done.stdout, [
            "rate_vs_shader.waves_per_simd.png", "per_ray_vs_shader.waves_per_simd.png", "stalls.png",
            "hit_rates.png", "rays_vs_occupancy.png", "rays_vs_stack.png"])

    def test_CategoricalValuesArePlotted(self):
        results = peak_sweep()
        for point, name in zip(results["points"], ["cpp", "rtl", "cpp-fast", "rtl-fast"]):
            point["values"] = {"td.datapath": name}
        results["swept"] = ["td.datapath"]
        done = self.plot_ok(results)
        self.assertIn("rate_vs_td.datapath.png", done.stdout)

    def assert_bad_input(self, results_path):
        done = run_plot(self.dir)
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertIn(results_path, done.stderr)
        self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "plots")))

    def test_MissingResultsExitsTwoNamingTheFile(self):
        self.assert_bad_input(os.path.join(self.dir, "results.json"))

    def test_CorruptResultsExitsTwoNamingTheFile(self):
        path = os.path.join(self.dir, "results.json")
        with open(path, "w", encoding="utf-8") as file:
            file.write('{"command": "run", "points": [')
        self.assert_bad_input(path)

    def test_WrongShapeExitsTwoNamingTheFile(self):
        results = run_sweep()
        del results["points"][1]["figures"][0]["value"]
        write_results(self.dir, results)
        self.assert_bad_input(os.path.join(self.dir, "results.json"))

    def test_NoFinishedPointExitsTwoNamingTheFile(self):
        results = peak_sweep()
        results["points"] = [failed_point(0, {"l1.mshrs": "0"})]
        write_results(self.dir, results)
        self.assert_bad_input(os.path.join(self.dir, "results.json"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
