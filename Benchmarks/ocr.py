#!/usr/bin/env python3
"""`hostapp ocr` against OCRmyPDF (Debian's `ocrmypdf --output-type pdf`, Tesseract under a
Python pipeline), on the same scan in one run: the first 20 pages of R's "An Introduction to
R" drawn at 300 dpi in gray into an image-only PDF (Tests/Fixtures/make-scan.py). Both read
English on two jobs. For each: the time (hyperfine median) and the character error rate of
the searchable copy's text (pdftotext, whitespace made single spaces, a row of leader dots one
character) against the source's own text, page by page, summed: the edit distance over the
source's length; both texts in the order their files store them, and in the order of
pdftotext's layout analysis.

Run through `make bench-ocr` (this section alone) or `make bench` (all sections).
Settings (environment variables):
  BENCH_OCR_PAGES  the source's pages (default: 1-20)
  BENCH_OCR_RUNS   runs per command (default: 2)
  HOSTAPP          the hostapp binary (default: .build/release/hostapp)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy

from report_section import run
from timing import hyperfine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOSTAPP = os.path.abspath(os.environ.get("HOSTAPP", ".build/release/hostapp"))
SOURCE = "/usr/share/R/doc/manual/R-intro.pdf"
PAGES = os.environ.get("BENCH_OCR_PAGES", "1-20")
RUNS = int(os.environ.get("BENCH_OCR_RUNS", "2"))
JOBS = 2
BEGIN, END = "<!-- ocr -->", "<!-- /ocr -->"


def edit_distance(a, b):
    """Levenshtein distance between two strings, a row of the table at a time in numpy: the
    insertions along a row are one running minimum."""
    if not a or not b:
        return max(len(a), len(b))
    codes_b = numpy.frombuffer(b.encode("utf-32-le"), dtype=numpy.uint32)
    index = numpy.arange(len(b) + 1)
    row = index.copy()
    for i, character in enumerate(a, 1):
        substitution = row[:-1] + (codes_b != ord(character))
        deletion = row[1:] + 1
        current = numpy.empty_like(row)
        current[0] = i
        current[1:] = numpy.minimum(substitution, deletion)
        row = numpy.minimum.accumulate(current - index) + index
    return int(row[-1])


# A row of three or more leader dots, spaced (`. . .`, as the source sets them) or not.
LEADER = re.compile(r"(?:\s?\.){3,}")


def page_texts(path, first, last, stored_order=True):
    """Each page's text (pdftotext), whitespace made single spaces, and each row of leader
    dots one `…`: how many dots a row holds follows the width left on its line, not the text.
    In the order the file stores it (`-raw`: the source's as typeset, a searchable copy's as
    its recognizer read it), or in the order pdftotext's layout analysis puts it."""
    texts = []
    for page in range(first, last + 1):
        order = ["-raw"] if stored_order else []
        text = subprocess.run(["pdftotext", *order, "-f", str(page), "-l", str(page), path, "-"], capture_output=True, text=True).stdout
        texts.append(" ".join(LEADER.sub(" … ", text).split()))
    return texts


def error_rate(path, first, last, stored_order):
    """The character error rate of `path`'s pages against the source's pages `first`-`last`,
    both read in the same order: the edit distances summed over the source's length."""
    found = page_texts(path, 1, last - first + 1, stored_order)
    reference = page_texts(SOURCE, first, last, stored_order)
    return sum(edit_distance(f, r) for f, r in zip(found, reference)) / max(1, sum(len(r) for r in reference))


def measure():
    out = tempfile.mkdtemp(prefix="ocr-bench-")
    try:
        scan = os.path.join(out, "scan.pdf")
        subprocess.run(["python3", os.path.join(ROOT, "Tests/Fixtures/make-scan.py"), SOURCE, PAGES, "300", scan], check=True)
        first, last = (int(p) for p in PAGES.split("-"))
        tools = {
            "hostapp ocr": f"{HOSTAPP} ocr --jobs {JOBS} {scan} -o {out}/hostapp.pdf 2> /dev/null",
            "ocrmypdf": f"ocrmypdf -q --output-type pdf -l eng --jobs {JOBS} {scan} {out}/ocrmypdf.pdf",
        }
        times = hyperfine(tools, RUNS)
        rates = {
            name: [error_rate(os.path.join(out, file), first, last, stored) for stored in (True, False)]
            for name, file in [("hostapp ocr", "hostapp.pdf"), ("ocrmypdf", "ocrmypdf.pdf")]
        }
        version = subprocess.run(["ocrmypdf", "--version"], capture_output=True, text=True).stdout.strip()
    finally:
        shutil.rmtree(out, ignore_errors=True)
    lines = [
        BEGIN,
        "",
        "## Scanned pages made searchable",
        "",
        "Written by `make bench-ocr` (`Benchmarks/ocr.py`): `hostapp ocr` against OCRmyPDF",
        f"{version} (`ocrmypdf --output-type pdf -l eng`), both on {JOBS} jobs, on pages {PAGES} of R's",
        "\"An Introduction to R\" drawn at 300 dpi in gray into an image-only PDF",
        f"(`Tests/Fixtures/make-scan.py`), medians of {RUNS} runs. Both read with Debian's Tesseract",
        "5.3; the character error rate is the edit distance of the copy's text (pdftotext,",
        "whitespace made single spaces, each row of leader dots one character, since the number of",
        "dots follows the line's width) from the source's own, page by page, over the source's length,",
        "the contents pages included: with both texts in the order their files store them",
        "(`pdftotext -raw`: the source's as typeset, the copy's as its recognizer read it), and in the",
        "order pdftotext's layout analysis gives each (which may read a column of section numbers",
        "apart from its titles in one and not the other).",
        f"hostapp: {'the debug build' if '/debug/' in HOSTAPP else 'the release build'}.",
        "",
        "| tool | time (s) | hostapp's ratio | character error rate | in pdftotext's layout order |",
        "|---|---|---|---|---|",
    ]
    for name in tools:
        stored, layout = rates[name]
        lines.append(f"| {name} | {times[name]:.1f} | {times['hostapp ocr'] / times[name]:.2f}x | {100 * stored:.2f}% | {100 * layout:.2f}% |")
    lines += ["", END]
    return lines


if __name__ == "__main__":
    run(measure, "BENCHMARKS.md", BEGIN, END)
    sys.exit(0)
