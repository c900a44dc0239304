#!/usr/bin/env python3
"""`hostapp ocr` against OCRmyPDF (Debian's `ocrmypdf --output-type pdf`, Tesseract under a
Python pipeline), on the same scan in one run: the first 20 pages of R's "An Introduction to
R" drawn at 300 dpi in gray into an image-only PDF (Tests/Fixtures/make-scan.py). Both read
English on two jobs. For each: the time (hyperfine median) and the character error rate of
the searchable copy's text (pdftotext, whitespace made single spaces) against the source's
own text, page by page, summed: the edit distance over the source's length.

Run through `make bench-ocr` (this section alone) or `make bench` (all sections).
Settings (environment variables):
  BENCH_OCR_PAGES  the source's pages (default: 1-20)
  BENCH_OCR_RUNS   runs per command (default: 2)
  HOSTAPP          the hostapp binary (default: .build/release/hostapp)
"""
import os
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


def page_texts(path, first, last):
    """Each page's text (pdftotext), whitespace made single spaces."""
    texts = []
    for page in range(first, last + 1):
        text = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), path, "-"], capture_output=True, text=True).stdout
        texts.append(" ".join(text.split()))
    return texts


def error_rates(path, reference):
    """The character error rate of `path`'s pages against `reference` (page texts): over all
    pages, and over those without dot leaders (a table of contents, whose rows of dots
    Tesseract reads as letters)."""
    found = page_texts(path, 1, len(reference))
    pairs = list(zip(found, reference))
    body = [(f, r) for f, r in pairs if ". . . . ." not in r]

    def rate(chosen):
        return sum(edit_distance(f, r) for f, r in chosen) / max(1, sum(len(r) for _, r in chosen))
    return rate(pairs), rate(body), len(body)


def measure():
    out = tempfile.mkdtemp(prefix="ocr-bench-")
    try:
        scan = os.path.join(out, "scan.pdf")
        subprocess.run(["python3", os.path.join(ROOT, "Tests/Fixtures/make-scan.py"), SOURCE, PAGES, "300", scan], check=True)
        first, last = (int(p) for p in PAGES.split("-"))
        reference = page_texts(SOURCE, first, last)
        tools = {
            "hostapp ocr": f"{HOSTAPP} ocr --jobs {JOBS} {scan} -o {out}/hostapp.pdf 2> /dev/null",
            "ocrmypdf": f"ocrmypdf -q --output-type pdf -l eng --jobs {JOBS} {scan} {out}/ocrmypdf.pdf",
        }
        times = hyperfine(tools, RUNS)
        rates = {name: error_rates(os.path.join(out, file), reference) for name, file in [("hostapp ocr", "hostapp.pdf"), ("ocrmypdf", "ocrmypdf.pdf")]}
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
        "whitespace made single spaces) from the source's own, page by page, over the source's length:",
        f"over all pages, and over the {rates['hostapp ocr'][2]} without the table of contents' dot leaders, which",
        "Tesseract reads as letters for both tools.",
        f"hostapp: {'the debug build' if '/debug/' in HOSTAPP else 'the release build'}.",
        "",
        "| tool | time (s) | hostapp's ratio | character error rate | without the contents pages |",
        "|---|---|---|---|---|",
    ]
    for name in tools:
        every, body, _ = rates[name]
        lines.append(f"| {name} | {times[name]:.1f} | {times['hostapp ocr'] / times[name]:.2f}x | {100 * every:.2f}% | {100 * body:.2f}% |")
    lines += ["", END]
    return lines


if __name__ == "__main__":
    run(measure, "BENCHMARKS.md", BEGIN, END)
    sys.exit(0)
