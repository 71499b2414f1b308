#!/usr/bin/env python3
"""Tests of scripts/coverage: its flag checks (exit 2, one line, before any
build), and its summary of a verilator_coverage file: per unit, the lines
and toggles reached by any instance, and the lines never reached. (The
whole run builds build-coverage/, minutes: scripts/coverage, see the README.)

Run from anywhere: python3 tests/scripts/coverage_test.py
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
SCRIPT = os.path.join(SOURCE_DIR, "scripts", "coverage")


def load_script():
    loader = importlib.machinery.SourceFileLoader("coverage_script", SCRIPT)
    spec = importlib.util.spec_from_loader("coverage_script", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def point(source, line, kind, unit, comment, hierarchy, count):
    fields = [("f", source), ("l", str(line)), ("n", "0"), ("page", f"v_{kind}/{unit}"), ("o", comment),
              ("h", hierarchy)]
    return "C '" + "".join(f"\x01{k}\x02{v}" for k, v in fields) + f"' {count}\n"


class CoverageFlags(unittest.TestCase):
    def run_script(self, *args):
        return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, timeout=60)

    def test_unknown_flag_and_missing_file_are_exit_2_with_one_line(self):
        for args, named in ((["--frobnicate"], "--frobnicate"), (["/nonexistent/x.tdv"], "/nonexistent/x.tdv")):
            done = self.run_script(*args)
            self.assertEqual(done.returncode, 2, done.stderr)
            self.assertEqual(done.stderr.count("\n"), 1, done.stderr)
            self.assertIn(named, done.stderr)


class CoverageSummary(unittest.TestCase):
    def test_a_point_counts_when_any_instance_reached_it(self):
        script = load_script()
        with tempfile.TemporaryDirectory() as scratch:
            dat = os.path.join(scratch, "coverage.dat")
            with open(dat, "w") as f:
                f.write("# SystemC::Coverage-3\n")
                # Line 10: reached by the second instance only; line 11 by none.
                f.write(point("/rtl/td_box_slab.sv", 10, "line", "td_box_slab", "block", "TOP.a.u_slab", 0))
                f.write(point("/rtl/td_box_slab.sv", 10, "line", "td_box_slab", "block", "TOP.b.u_slab", 3))
                f.write(point("/rtl/td_box_slab.sv", 11, "line", "td_box_slab", "if", "TOP.a.u_slab", 0))
                f.write(point("/rtl/td_box_slab.sv", 5, "toggle", "td_box_slab", "hit_o:0->1", "TOP.a.u_slab", 2))
                f.write(point("/rtl/td_sort4.sv", 20, "line", "td_sort4", "block", "TOP.u_sort", 1))
                f.write(point("/rtl/td_sort4.sv", 21, "branch", "td_sort4", "if", "TOP.u_sort", 0))
            reached = script.summarize(dat)
            text, summary = script.report(reached)
        self.assertEqual(summary["units"]["td_box_slab"]["lines"], {"covered": 1, "total": 2})
        self.assertEqual(summary["units"]["td_box_slab"]["toggles"], {"covered": 1, "total": 1})
        self.assertEqual(summary["units"]["td_sort4"]["lines"], {"covered": 1, "total": 1})
        self.assertEqual(summary["units"]["td_sort4"]["branches"], {"covered": 0, "total": 1})
        self.assertEqual(summary["never_reached"],
                         ["td_box_slab.sv:11: td_box_slab (line if)", "td_sort4.sv:21: td_sort4 (branch if)"])
        self.assertIn("td_box_slab                    1 of     2  50.0%", text)


if __name__ == "__main__":
    unittest.main()
