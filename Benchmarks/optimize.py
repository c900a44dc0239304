#!/usr/bin/env python3
"""`hostapp optimize` against the tools people use for the same job, on the same documents in
one run: qpdf with object streams, compressed streams and linearisation (what hostapp asks of
qpdf's library), and Ghostscript's pdfwrite with the /ebook settings (which also downsamples
images, so its copy is smaller and no longer draws the same). For each: the time (hyperfine
median), the output's size, whether `qpdf --check-linearization` passes, and whether the copy's
text (pdftotext) equals the original's.

Run through `make bench-optimize` (this section alone) or `make bench` (all sections).
Settings (environment variables):
  BENCH_OPTIMIZE_DOCS  the documents, separated by spaces (default: R's 2,415-page reference
                       manual and Ghostscript's image-heavy colour-management manual)
  BENCH_OPTIMIZE_RUNS  runs per command (default: 3)
  HOSTAPP              the hostapp binary (default: .build/release/hostapp)
"""
import os
import shutil
import subprocess
import sys
import tempfile

from report_section import run
from timing import hyperfine

HOSTAPP = os.path.abspath(os.environ.get("HOSTAPP", ".build/release/hostapp"))
DOCS = os.environ.get(
    "BENCH_OPTIMIZE_DOCS", "/usr/share/doc/r-doc-pdf/manual/refman.pdf /usr/share/doc/ghostscript/GS9_Color_Management.pdf").split()
RUNS = int(os.environ.get("BENCH_OPTIMIZE_RUNS", "3"))
BEGIN, END = "<!-- optimize -->", "<!-- /optimize -->"


def commands(doc, out):
    """Each tool's command, writing its copy to its own file in `out`."""
    return {
        "hostapp optimize": f"{HOSTAPP} optimize {doc} -o {out}/hostapp.pdf > /dev/null",
        "qpdf": f"qpdf --object-streams=generate --compress-streams=y --linearize {doc} {out}/qpdf.pdf",
        "gs /ebook": f"gs -q -dBATCH -dNOPAUSE -dSAFER -sDEVICE=pdfwrite -dPDFSETTINGS=/ebook -sOutputFile={out}/gs.pdf {doc}",
    }


def facts(path, original_text):
    """Size in bytes, linearised or not, text equal to the original's or not."""
    linearized = subprocess.run(["qpdf", "--check-linearization", path], capture_output=True, text=True).stdout
    text = subprocess.run(["pdftotext", path, "-"], capture_output=True, text=True).stdout
    return os.path.getsize(path), "no linearization errors" in linearized, text == original_text


def measure():
    out = tempfile.mkdtemp(prefix="optimize-bench-")
    rows = []
    try:
        for doc in DOCS:
            if not os.path.exists(doc):
                continue
            tools = commands(doc, out)
            times = hyperfine(tools, RUNS)
            original_text = subprocess.run(["pdftotext", doc, "-"], capture_output=True, text=True).stdout
            files = {"hostapp optimize": "hostapp.pdf", "qpdf": "qpdf.pdf", "gs /ebook": "gs.pdf"}
            for name in tools:
                size, linearized, same_text = facts(os.path.join(out, files[name]), original_text)
                rows.append((os.path.basename(doc), os.path.getsize(doc), name, times[name], times["hostapp optimize"] / times[name], size,
                             linearized, same_text))
    finally:
        shutil.rmtree(out, ignore_errors=True)
    lines = [
        BEGIN,
        "",
        "## Fast web view and smaller files",
        "",
        "Written by `make bench-optimize` (`Benchmarks/optimize.py`): `hostapp optimize` against qpdf",
        "(`--object-streams=generate --compress-streams=y --linearize`) and Ghostscript's pdfwrite with",
        f"`-dPDFSETTINGS=/ebook`, medians of {RUNS} runs. hostapp's ratio is its time over the tool's;",
        "\"linearised\" is `qpdf --check-linearization`, \"same text\" is pdftotext of the copy against",
        "the original's. Ghostscript downsamples images and rewrites fonts, so its copy is smaller and",
        "draws differently; hostapp and qpdf keep pages as they are.",
        "",
        "| document (bytes) | tool | time (s) | hostapp's ratio | output (bytes) | linearised | same text |",
        "|---|---|---|---|---|---|---|",
    ]
    for doc, original, name, seconds, ratio, size, linearized, same_text in rows:
        lines.append(f"| {doc} ({original:,}) | {name} | {seconds:.2f} | {ratio:.2f}x | {size:,} | {'yes' if linearized else 'no'} | "
                     f"{'yes' if same_text else 'no'} |")
    lines += ["", END]
    return lines


if __name__ == "__main__":
    run(measure, "BENCHMARKS.md", BEGIN, END)
    sys.exit(0)
