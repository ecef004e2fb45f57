#!/usr/bin/env python3
"""Tests of benches/join.py on the fixture logs of benches/results/fixtures/.

    python3 benches/test_join.py
"""
import io
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import join  # noqa: E402

FIX = os.path.join(HERE, "results", "fixtures")


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = join.main(list(args))
    return code, out.getvalue(), err.getvalue()


class JoinTest(unittest.TestCase):
    def test_fixture_gives_the_expected_file(self):
        code, out, err = run("--out", "-", os.path.join(FIX, "sample.log"), os.path.join(FIX, "sample-ref.log"))
        self.assertEqual(code, 0, err)
        with open(os.path.join(FIX, "sample.csv"), encoding="utf-8") as f:
            self.assertEqual(out, f.read())
        # references that match no measurement are named, not silently dropped
        self.assertIn("no ROW for REF,strsm,4096x4096x4096,R*", err)
        self.assertIn("no ROW for REF,sdot,n=67108864", err)

    def test_ratio_direction(self):
        self.assertEqual(join.ratio("TFLOP/s", "25", "50"), "0.500")   # rate: wgblas / ref
        self.assertEqual(join.ratio("ms", "200", "50"), "0.250")       # time: ref / wgblas
        self.assertEqual(join.ratio("us/call", "5", "10"), "2.000")

    def test_exact_layout_beats_pattern_and_later_line_wins(self):
        rows = {("sgemm", "64x64x64", "NN-C", "host", "ms"): "2"}
        refs = [("sgemm", "64x64x64", "NN-C", "host", "ms", "openblas", "1"),
                ("sgemm", "64x64x64", "*", "host", "ms", "openblas", "9"),
                ("sgemm", "64x64x64", "*", "host", "ms", "torch-pinned", "4"),
                ("sgemm", "64x64x64", "*", "host", "ms", "torch-pinned", "8")]
        out, unmatched = join.join(rows, refs)
        self.assertEqual([r[6:] for r in out], [["openblas", "1", "0.500"], ["torch-pinned", "8", "4.000"]])
        self.assertEqual(unmatched, [])

    def test_default_path_takes_the_next_free_name(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "results"))
            old = join.__file__
            join.__file__ = os.path.join(d, "join.py")
            try:
                first = join.default_path("2026-11-30")
                open(first, "w").close()
                second = join.default_path("2026-11-30")
            finally:
                join.__file__ = old
            self.assertTrue(first.endswith("2026-11-30-h200.csv"))
            self.assertTrue(second.endswith("2026-11-30-h200-2.csv"))

    def bad(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
            f.write(text)
        try:
            return run("--out", "-", f.name)
        finally:
            os.unlink(f.name)

    def test_malformed_lines_are_errors_naming_the_line(self):
        for text, needle in (("ROW,sgemm,1x1x1,NN-C,resident,TFLOP/s\n", "7 fields"),
                             ("ROW,sgemm,1x1x1,NN-C,resident,Gelem/s,3\n", "metric 'Gelem/s'"),
                             ("ROW,sgemm,1x1x1,NN-C,gpu,TFLOP/s,3\n", "form 'gpu'"),
                             ("ROW,sgemm,1x1x1,NN-C,resident,TFLOP/s,abc\n", "not a number"),
                             ("ROW,sgemm,1x1x1,NN-C,resident,TFLOP/s,0\n", "positive"),
                             ("ROW,a,n=1,-,host,ms,1\nREF,a,n=1,-,host,ms,openblas\n", "8 fields"),
                             ("nothing here\n", "no ROW lines")):
            code, out, err = self.bad(text)
            self.assertEqual(code, 1, text)
            self.assertIn(needle, err, text)
            self.assertEqual(out, "", text)


if __name__ == "__main__":
    unittest.main()
