#!/usr/bin/env python3
"""XFDF import at scale: 1,000 and 3,000 square annotations on one page, imported by
`hostapp annotations import` with each engine, pinned to one core (issue 56's target: 3,000
in under 5 s). No other tool on Debian imports XFDF into a PDF, so the figures stand alone.

Run through `make bench-xfdf` (this section alone) or `make bench` (all sections).
Settings (environment variables):
  BENCH_XFDF_RUNS  runs per command (default: 3)
  HOSTAPP          the hostapp binary (default: .build/release/hostapp)
"""
import os
import shutil
import sys
import tempfile

from report_section import run
from timing import hyperfine

HOSTAPP = os.path.abspath(os.environ.get("HOSTAPP", ".build/release/hostapp"))
HERE = os.path.dirname(os.path.abspath(__file__))
BASE = os.path.join(HERE, "..", "Tests", "Fixtures", "DiffPairs", "base.pdf")
RUNS = int(os.environ.get("BENCH_XFDF_RUNS", "3"))
BEGIN, END = "<!-- xfdf -->", "<!-- /xfdf -->"


def xfdf(path, count):
    """An XFDF file of `count` named 8 x 8 pt red squares on page 1, in rows of 50."""
    with open(path, "w") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<xfdf xmlns="http://ns.adobe.com/xfdf/" xml:space="preserve"><annots>\n')
        for i in range(count):
            x, y = 20 + (i % 50) * 11, 20 + (i // 50) * 12
            out.write(f'<square page="0" rect="{x},{y},{x + 8},{y + 8}" name="sq{i}" color="#FF0000" title="bench"/>\n')
        out.write("</annots></xfdf>\n")


def measure():
    out = tempfile.mkdtemp(prefix="xfdf-bench-")
    rows = []
    try:
        for count in (1000, 3000):
            notes = os.path.join(out, f"{count}.xfdf")
            xfdf(notes, count)
            commands = {
                renderer: f"taskset -c 0 {HOSTAPP} --renderer {renderer} annotations import {BASE} {notes} -o {out}/{renderer}-{count}.pdf"
                for renderer in ("mupdf", "poppler")
            }
            rows.append((count, hyperfine(commands, RUNS)))
    finally:
        shutil.rmtree(out, ignore_errors=True)
    lines = [
        BEGIN,
        "",
        "## Importing XFDF",
        "",
        "Written by `make bench-xfdf` (`Benchmarks/xfdf_import.py`): `hostapp annotations import` of an XFDF",
        "file of square annotations onto one page, pinned to one core, medians of",
        f"{RUNS} runs. Each run of annotations on one page is added with the page loaded once and",
        "each new annotation read back alone, so the time grows with the count, not its square.",
        "",
        "| squares | MuPDF (s) | Poppler (s) |",
        "|---|---|---|",
    ]
    for count, t in rows:
        lines.append(f"| {count:,} | {t['mupdf']:.2f} | {t['poppler']:.2f} |")
    lines += ["", END]
    return lines


if __name__ == "__main__":
    run(measure, "BENCHMARKS.md", BEGIN, END)
    sys.exit(0)
