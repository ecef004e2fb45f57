#!/usr/bin/env python3
"""Join the `ROW,` lines of wgblas's report binaries with the `REF,` lines of the reference
scripts (`benches/reference.py`, the OpenBLAS columns of the reports) into the results file of
`benches/results/README.md`:

    routine,shape,layout,form,metric,wgblas,reference,reference_value,ratio

    python3 benches/join.py LOG [LOG ...]                # writes benches/results/<today>-h200.csv
    python3 benches/join.py --date 2026-11-30 LOG ...    # a given day (a second file that day: -2, -3, ...)
    python3 benches/join.py --out results.csv LOG ...    # a given path ('-' for stdout)

Input lines (anywhere in the logs; other lines are ignored):

    ROW,<routine>,<shape>,<layout>,<form>,<metric>,<wgblas value>
    REF,<routine>,<shape>,<layout>,<form>,<metric>,<reference name>,<value>

A REF matches a ROW of the same routine, shape, form and metric whose layout matches the REF's
layout as an fnmatch pattern (`*` any layout, `L*` any layout starting with `L`); where several
REF lines of one reference name match, the exact layout wins over a pattern, then the later line.
One output row per (ROW, reference name); a ROW with no reference gets one row with reference
`none` and empty reference_value and ratio.

Derived reference `wgblas-sgemm`: a resident TFLOP/s row of sgemmtr, ssyrk, ssyr2k, ssymm, strmm
or strsm is also compared with the crate's own resident sgemm of the same shape and layout
(layout `NN-C` where the same layout was not measured), when the logs have that sgemm ROW.

ratio: higher is better for wgblas. Rates (TFLOP/s, GB/s): wgblas / reference. Times (ms,
us/call): reference / wgblas.
"""
import argparse
import contextlib
import csv
import datetime
import fnmatch
import os
import sys

HEADER = ["routine", "shape", "layout", "form", "metric", "wgblas", "reference",
          "reference_value", "ratio"]
RATES = {"TFLOP/s", "GB/s"}
TIMES = {"ms", "us/call"}
FORMS = {"resident", "host"}
LEVEL3_BESIDE_GEMM = {"sgemmtr", "ssyrk", "ssyr2k", "ssymm", "strmm", "strsm"}


class InputError(Exception):
    pass


def parse_number(text, where):
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{where}: value {text!r} is not a number") from None
    if not value > 0 or value == float("inf"):
        raise InputError(f"{where}: value {text!r} must be positive and finite")
    return value


def read_lines(paths):
    """(rows, refs): rows maps (routine, shape, layout, form, metric) to the value text, in the
    order first seen; refs is a list of (routine, shape, layout pattern, form, metric, name, value)."""
    rows = {}
    refs = []
    for path in paths:
        handle = (contextlib.nullcontext(sys.stdin) if path == "-"
                  else open(path, encoding="utf-8", errors="replace"))
        with handle as handle:
            for number, line in enumerate(handle, 1):
                line = line.strip()
                where = f"{path}:{number}"
                if line.startswith("ROW,"):
                    fields = line.split(",")
                    if len(fields) != 7:
                        raise InputError(f"{where}: a ROW line has 7 fields, this one {len(fields)}: {line}")
                    _, routine, shape, layout, form, metric, value = fields
                    check_fields(where, form, metric)
                    parse_number(value, where)
                    key = (routine, shape, layout, form, metric)
                    if key in rows:
                        print(f"join: {where}: {','.join(key)} measured again; the later value is kept",
                              file=sys.stderr)
                        del rows[key]
                    rows[key] = value
                elif line.startswith("REF,"):
                    fields = line.split(",")
                    if len(fields) != 8:
                        raise InputError(f"{where}: a REF line has 8 fields, this one {len(fields)}: {line}")
                    _, routine, shape, layout, form, metric, name, value = fields
                    check_fields(where, form, metric)
                    parse_number(value, where)
                    if not name or name == "none":
                        raise InputError(f"{where}: a REF line needs a reference name")
                    refs.append((routine, shape, layout, form, metric, name, value))
    return rows, refs


def check_fields(where, form, metric):
    if form not in FORMS:
        raise InputError(f"{where}: form {form!r} is not one of {sorted(FORMS)}")
    if metric not in RATES | TIMES:
        raise InputError(f"{where}: metric {metric!r} is not one of {sorted(RATES | TIMES)}")


def ratio(metric, wgblas, reference):
    w = float(wgblas)
    r = float(reference)
    return f"{w / r:.3f}" if metric in RATES else f"{r / w:.3f}"


def join(rows, refs):
    """The output rows, and the REF lines that matched no ROW."""
    out = []
    used = set()
    for key, value in rows.items():
        routine, shape, layout, form, metric = key
        best = {}  # reference name -> (exact?, index)
        for i, (r_routine, r_shape, r_layout, r_form, r_metric, name, _) in enumerate(refs):
            if (r_routine, r_shape, r_form, r_metric) != (routine, shape, form, metric):
                continue
            if not fnmatch.fnmatchcase(layout, r_layout):
                continue
            used.add(i)
            rank = (r_layout == layout, i)
            if name not in best or rank > best[name]:
                best[name] = rank
        matched = [(refs[i][5], refs[i][6]) for _, i in sorted(best.values(), key=lambda t: t[1])]
        if routine in LEVEL3_BESIDE_GEMM and form == "resident" and metric == "TFLOP/s":
            gemm = rows.get(("sgemm", shape, layout, form, metric)) or rows.get(
                ("sgemm", shape, "NN-C", form, metric))
            if gemm is not None:
                matched.append(("wgblas-sgemm", gemm))
        if not matched:
            out.append([routine, shape, layout, form, metric, value, "none", "", ""])
        for name, ref_value in matched:
            out.append([routine, shape, layout, form, metric, value, name, ref_value,
                        ratio(metric, value, ref_value)])
    unmatched = [refs[i] for i in range(len(refs)) if i not in used]
    return out, unmatched


def default_path(date):
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
    path = os.path.join(here, f"{date}-h200.csv")
    k = 2
    while os.path.exists(path):
        path = os.path.join(here, f"{date}-h200-{k}.csv")
        k += 1
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("logs", nargs="+", help="log files with ROW and REF lines ('-': stdin)")
    parser.add_argument("--date", help="the run's day, YYYY-MM-DD (default: today, UTC)")
    parser.add_argument("--out", help="output path ('-': stdout); default benches/results/<date>-h200.csv")
    args = parser.parse_args(argv)
    date = args.date or datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        parser.error(f"--date {date!r} is not YYYY-MM-DD")
    try:
        rows, refs = read_lines(args.logs)
    except (InputError, OSError) as err:
        print(f"join: {err}", file=sys.stderr)
        return 1
    if not rows:
        print("join: no ROW lines in " + ", ".join(args.logs), file=sys.stderr)
        return 1
    out, unmatched = join(rows, refs)
    for r in unmatched:
        print("join: no ROW for REF," + ",".join(r), file=sys.stderr)
    path = args.out or default_path(date)
    handle = (contextlib.nullcontext(sys.stdout) if path == "-"
              else open(path, "w", newline="", encoding="utf-8"))
    with handle as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(HEADER)
        writer.writerows(out)
    if path != "-":
        print(f"join: {len(out)} rows ({len(rows)} measurements, {len(unmatched)} unmatched references) -> {path}",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
