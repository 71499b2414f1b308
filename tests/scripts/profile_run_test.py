#!/usr/bin/env python3
"""Tests of scripts/profile-run's flag checks (a bad flag is exit 2 with one
line naming it, before any build or run; the profile itself is a developer's
tool, not run here: it builds build-prof/ and needs perf).

Run from anywhere: python3 tests/scripts/profile_run_test.py
"""

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


if __name__ == "__main__":
    unittest.main()
