#!/usr/bin/env python3
"""Time and memory to the first page: a new process opens the 2,415-page R reference manual
and writes page 1 as a 150 dpi PNG, hostapp with each backend against `mutool draw`,
`pdftocairo -png` and `pdftoppm -png`, in one run. Process start alone (`--version`) is
timed too, through hostapp (which hands it to hostapp-full) and hostapp-full directly.
Issue 18's targets: hostapp with MuPDF at most 1.1x `mutool draw`'s time, and at most 15 MB
more peak memory; issue 31's: the same for the default backend (`auto`), which hostapp serves
with MuPDF itself.

Run through `make bench-first-page` (this section alone, written into BENCHMARKS.md between
its markers) or `make bench` (all sections). Settings (environment variables):
  BENCH_FIRST_PAGE_DOC   the PDF (default: R's reference manual)
  BENCH_FIRST_PAGE_RUNS  hyperfine runs per command, and peak-memory runs (default: 20)
  HOSTAPP                the hostapp binary, hostapp-full beside it (default: .build/release/hostapp)
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from report_section import run
from timing import hyperfine

HOSTAPP = os.path.abspath(os.environ.get("HOSTAPP", ".build/release/hostapp"))
HOSTAPP_FULL = os.path.join(os.path.dirname(HOSTAPP), "hostapp-full")
DOC = os.environ.get("BENCH_FIRST_PAGE_DOC", "/usr/share/R/doc/manual/refman.pdf")
RUNS = int(os.environ.get("BENCH_FIRST_PAGE_RUNS", "20"))
BEGIN, END = "<!-- first-page -->", "<!-- /first-page -->"


def peak_rss_mb(command):
    """Median peak resident memory of `RUNS` runs of `command`, in MB, from GNU time."""
    peaks = []
    for _ in range(RUNS):
        result = subprocess.run(["/usr/bin/time", "-f", "%M", "sh", "-c", f"exec {command} >/dev/null"],
                                capture_output=True, text=True, check=True)
        peaks.append(int(result.stderr.strip().splitlines()[-1]) / 1024)
    return statistics.median(peaks)


def measure():
    out = tempfile.mkdtemp(prefix="first-page-")
    try:
        commands = {
            "hostapp (default renderer, auto)": f"env -u HOSTAPP_RENDERER -u HOSTAPP_BACKEND {HOSTAPP} render {DOC} --pages 1 --dpi 150 -o {out}/f%d.png",
            "hostapp mupdf": f"{HOSTAPP} --renderer mupdf render {DOC} --pages 1 --dpi 150 -o {out}/a%d.png",
            "mutool draw": f"mutool draw -q -r 150 -o {out}/b%d.png {DOC} 1",
            "hostapp poppler": f"{HOSTAPP} --renderer poppler render {DOC} --pages 1 --dpi 150 -o {out}/c%d.png",
            "pdftocairo -png": f"pdftocairo -png -r 150 -f 1 -l 1 {DOC} {out}/d",
            "pdftoppm -png": f"pdftoppm -png -r 150 -f 1 -l 1 {DOC} {out}/e",
            # hostapp hands --version to hostapp-full: its start, then hostapp-full's.
            "hostapp --version (handed to hostapp-full)": f"{HOSTAPP} --version",
            "hostapp-full --version": f"{HOSTAPP_FULL} --version",
        }
        times = hyperfine(commands, RUNS)
        memory = {name: peak_rss_mb(command) for name, command in commands.items()}
    finally:
        shutil.rmtree(out, ignore_errors=True)
    reference = {"hostapp (default renderer, auto)": "mutool draw", "hostapp mupdf": "mutool draw", "hostapp poppler": "pdftocairo -png"}
    lines = [
        BEGIN,
        "",
        "## Time to the first page",
        "",
        f"Written by `make bench-first-page` (`Benchmarks/first_page.py`): a new process opens `{DOC}`",
        f"and writes page 1 as a 150 dpi PNG. Times are hyperfine medians of {RUNS} runs; peak resident",
        f"memory is the median of {RUNS} runs under GNU time.",
        "",
        "| command | median (s) | vs | peak memory (MB) | vs |",
        "|---|---|---|---|---|",
    ]
    for name in commands:
        against = reference.get(name)
        time_ratio = f"{times[name] / times[against]:.2f}x {against}" if against else ""
        memory_diff = f"{memory[name] - memory[against]:+.1f} MB against {against}" if against else ""
        lines.append(f"| {name} | {times[name]:.3f} | {time_ratio} | {memory[name]:.1f} | {memory_diff} |")
    analysis = os.path.join(os.path.dirname(os.path.abspath(__file__)), "FIRST-PAGE-ANALYSIS.md")
    if os.path.exists(analysis):
        lines += [""] + open(analysis).read().strip().splitlines()
    lines += ["", END]
    return lines


if __name__ == "__main__":
    run(measure, "BENCHMARKS.md", BEGIN, END)
    sys.exit(0)
