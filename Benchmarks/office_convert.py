#!/usr/bin/env python3
"""Office documents into PDF: `hostapp convert` with its one warm LibreOffice against what
people run, in one run on the same files: one `soffice --convert-to pdf` per file (the usual
script; its profile folder kept from run to run, so each start is LibreOffice's warm-disk
start), and one `soffice --convert-to pdf` given every file (LibreOffice's own batch). The
documents are 20 copies of the two-page Word letter Tests/Fixtures/make-office-inputs.py
writes, under 20 names. Times are medians of BENCH_CONVERT_RUNS runs (hyperfine); each
converts all 20. The target (issue 62): hostapp at most 0.3 times the per-file script.

Run through `make bench-convert` (this section alone) or `make bench` (all sections).
Settings (environment variables):
  BENCH_CONVERT_RUNS   runs per command (default: 3)
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
RUNS = int(os.environ.get("BENCH_CONVERT_RUNS", "3"))
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN, END = "<!-- convert -->", "<!-- /convert -->"
COUNT = 20


def measure():
    work = tempfile.mkdtemp(prefix="convert-bench-")
    try:
        subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "Tests/Fixtures/make-office-inputs.py"), work, "http://127.0.0.1:9/none.png"], check=True)
        docs = []
        for number in range(1, COUNT + 1):
            path = os.path.join(work, f"letter-{number:02}.docx")
            shutil.copy(os.path.join(work, "letter.docx"), path)
            docs.append(path)
        profile = "file://" + os.path.join(work, "profile")
        # The profile made once, as a script's LibreOffice finds it after its first run.
        subprocess.run(["soffice", "--headless", f"-env:UserInstallation={profile}", "--convert-to", "pdf", "--outdir", os.path.join(work, "first"), docs[0]],
                       check=True, capture_output=True)
        listed = " ".join(docs)
        per_file = "; ".join(f"soffice --headless -env:UserInstallation={profile} --convert-to pdf --outdir {work}/script {doc} > /dev/null 2>&1"
                             for doc in docs)
        commands = {
            "hostapp convert (one warm LibreOffice)": f"{HOSTAPP} convert {listed} -o {work}/hostapp > /dev/null",
            "soffice --convert-to pdf, one per file": per_file,
            "soffice --convert-to pdf, all files at once": f"soffice --headless -env:UserInstallation={profile} --convert-to pdf --outdir {work}/batch {listed} > /dev/null 2>&1",
        }
        times = hyperfine(commands, RUNS)
        made = sorted(os.listdir(os.path.join(work, "hostapp")))
        pages = {subprocess.run(["pdfinfo", os.path.join(work, "hostapp", name)], capture_output=True, text=True).stdout.count("Pages:           2")
                 for name in made}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    ours = times["hostapp convert (one warm LibreOffice)"]
    script = times["soffice --convert-to pdf, one per file"]
    lines = [
        BEGIN,
        "",
        "## Office documents into PDF",
        "",
        "Written by `make bench-convert` (`Benchmarks/office_convert.py`): 20 two-page Word letters",
        f"converted to PDF, medians of {RUNS} runs of all 20. hostapp keeps one LibreOffice warm",
        "from file to file (its start counted); the script starts `soffice --convert-to pdf` once per",
        "file, with its profile kept. LibreOffice's own batch (every file given to one `soffice`) is",
        "shown for reference: it has no time limit per file, and one bad file stops the rest.",
        f"hostapp wrote {len(made)} PDFs{' of two pages each' if pages == {1} else ''}.",
        "",
        "| command | time for 20 (s) | hostapp's ratio |",
        "|---|---|---|",
    ]
    for name, seconds in times.items():
        lines.append(f"| {name} | {seconds:.2f} | {ours / seconds:.2f}x |")
    lines += ["", f"Target: at most 0.3x the per-file script; measured {ours / script:.2f}x.", "", END]
    return lines


if __name__ == "__main__":
    run(measure, "BENCHMARKS.md", BEGIN, END)
    sys.exit(0)
