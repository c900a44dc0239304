#!/usr/bin/env python3
"""`hostapp diff` against the naive way of comparing two documents' pages: `pdftoppm` draws
both at 72 dpi, then ImageMagick's `compare -metric AE` counts each page pair's differing
pixels, page by page. Two pairs: 100 pages of R's reference manual against the same pages
with one page inserted at 50 (and the last left out, so both have 100: the naive path
pairs pages by position, hostapp diff by text), and a 10-page pair (the size of a snapshot
test: the comparison the testing strategies run, on documents drawn on both sides).

Run through `make bench-diff` (this section alone) or `make bench` (all sections).
Settings (environment variables):
  BENCH_DIFF_DOC   the document the pairs are cut from (default: R's refman.pdf)
  BENCH_DIFF_RUNS  runs per command (default: 3)
  HOSTAPP          the hostapp binary (default: .build/release/hostapp)
"""
import os
import shutil
import subprocess
import sys
import tempfile

from report_section import run
from timing import hyperfine

HOSTAPP = os.path.abspath(os.environ.get("HOSTAPP", ".build/release/hostapp"))
DOC = os.environ.get("BENCH_DIFF_DOC", "/usr/share/doc/r-doc-pdf/manual/refman.pdf")
RUNS = int(os.environ.get("BENCH_DIFF_RUNS", "3"))
BEGIN, END = "<!-- diff -->", "<!-- /diff -->"


def pages(out, name, ranges):
    """A PDF of `ranges` (qpdf page ranges) of DOC."""
    path = os.path.join(out, name)
    subprocess.run(["qpdf", "--empty", "--pages", DOC, ranges, "--", path], check=True)
    return path


def naive(a, b, count, out):
    """pdftoppm both documents, then one ImageMagick compare per page pair (by position)."""
    digits = len(str(count))
    draw = f"rm -rf {out} && mkdir -p {out} && pdftoppm -r 72 -png {a} {out}/a && pdftoppm -r 72 -png {b} {out}/b"
    compares = "; ".join(
        f"compare -metric AE {out}/a-{i:0{digits}d}.png {out}/b-{i:0{digits}d}.png null: 2>> {out}/ae.txt" for i in range(1, count + 1))
    return f"{draw} && {{ {compares}; true; }}"


def measure():
    out = tempfile.mkdtemp(prefix="diff-bench-")
    rows = []
    try:
        pairs = [
            ("100 pages, one inserted", pages(out, "a100.pdf", "1-100"), pages(out, "b100.pdf", "1-49,500,50-99"), 100),
            ("10 pages, the same", pages(out, "a10.pdf", "1-10"), pages(out, "b10.pdf", "1-10"), 10),
        ]
        for name, a, b, count in pairs:
            times = hyperfine({
                "hostapp diff": f"{HOSTAPP} diff {a} {b} --json > {out}/diff.json; true",
                "naive": naive(a, b, count, f"{out}/naive"),
            }, RUNS)
            rows.append((name, times))
    finally:
        shutil.rmtree(out, ignore_errors=True)
    lines = [
        BEGIN,
        "",
        "## One document against another",
        "",
        "Written by `make bench-diff` (`Benchmarks/document_diff.py`): `hostapp diff A B` (pages matched by",
        "text; each page's pixels with the subpixel-aware tolerance, its text, the structure) against the",
        "naive path, `pdftoppm -r 72` of both documents then ImageMagick's `compare -metric AE` page by",
        f"page, medians of {RUNS} runs. The pairs are cut from `{os.path.basename(DOC)}` by qpdf. The",
        "target is at most 0.3x the naive path's time.",
        "",
        "| pair | hostapp diff (s) | pdftoppm + compare (s) | ratio |",
        "|---|---|---|---|",
    ]
    for name, t in rows:
        lines.append(f"| {name} | {t['hostapp diff']:.2f} | {t['naive']:.2f} | {t['hostapp diff'] / t['naive']:.2f}x |")
    lines += ["", END]
    return lines


if __name__ == "__main__":
    run(measure, "BENCHMARKS.md", BEGIN, END)
    sys.exit(0)
