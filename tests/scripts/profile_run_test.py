#!/usr/bin/env python3
"""Tests of scripts/profile-run's flag checks (a bad flag is exit 2 with one
line naming it, before any build or run) and of how --misses reads a
cachegrind file (the profile itself is a developer's tool, not run here: it
builds build-prof/ and needs perf or valgrind).

Run from anywhere: python3 tests/scripts/profile_run_test.py
"""

import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

SOURCE_DIR = os.environ.get(
    "TDSIM_SOURCE_DIR",
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PROFILE = os.path.join(SOURCE_DIR, "scripts", "profile-run")


def run(*args):
    return subprocess.run([sys.executable, PROFILE, *args], capture_output=True, text=True, timeout=60)


class ProfileRunFlags(unittest.TestCase):
    def test_top_out_of_range_is_exit_2_naming_the_flag(self):
        for value in ("0", "1001", "x"):
            done = run("--top", value)
            self.assertEqual(done.returncode, 2, done.stderr)
            self.assertEqual(done.stderr.count("\n"), 1)
            self.assertIn("--top", done.stderr)
            self.assertIn(value, done.stderr)

    def test_keep_into_a_missing_directory_is_exit_2(self):
        with tempfile.TemporaryDirectory() as scratch:
            target = os.path.join(scratch, "missing", "perf.data")
            done = run("--keep", target)
            self.assertEqual(done.returncode, 2, done.stderr)
            self.assertIn("--keep", done.stderr)
            self.assertFalse(os.path.exists(os.path.join(scratch, "missing")))

    def test_help_describes_the_profile(self):
        done = run("--help")
        self.assertEqual(done.returncode, 0)
        self.assertIn("perf record -e", done.stdout)


class MissesByLine(unittest.TestCase):
    def test_l2_misses_add_reads_and_writes_per_line_and_the_summary_is_kept(self):
        loader = importlib.machinery.SourceFileLoader("profile_run", PROFILE)
        spec = importlib.util.spec_from_loader("profile_run", loader)
        script = importlib.util.module_from_spec(spec)
        loader.exec_module(script)
        with tempfile.TemporaryDirectory() as scratch:
            data = os.path.join(scratch, "cachegrind.out")
            with open(data, "w") as f:
                f.write("desc: I1 cache: 32768 B, 64 B, 8-way associative\n"
                        "cmd: tdsim run\n"
                        "events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw\n"
                        "fl=/work/model/mem/cache.cpp\n"
                        "fn=td::mem::Cache::find\n"
                        "94 100 0 0 50 20 7 0 0 0\n"
                        "95 10 0 0 5 1 0 2 1 3\n"
                        "fl=/work/tb/shader/traversal_shader.cpp\n"
                        "fn=next_wave\n"
                        "310 40 0 0 20 9 9 0 0 0\n"
                        "94 1 0 0 0 0 0 0 0 0\n"
                        "summary: 151 0 0 75 30 16 2 1 3\n")
            rows, total = script.misses_by_line(data)
        self.assertEqual(rows, [(9, "traversal_shader.cpp:310"), (7, "cache.cpp:94"), (3, "cache.cpp:95")])
        self.assertEqual(total["DLmr"] + total["DLmw"], 19)
        self.assertEqual(total["Ir"], 151)


if __name__ == "__main__":
    unittest.main()
