#!/usr/bin/env python3
"""Measures the peak resident memory of the Poppler backend: `hostapp-full --renderer poppler`
reading the facts of a document (`info`), drawing page 1 at 72 dpi and writing page 1's text,
on R's 2,415-page manual and on the hostile files `Tests/Damaged/make-damaged.py` writes
(those that are still PDF files). Each run has a deadline of 120 s; a run that fails still
has its peak counted (a hostile file may be refused).

HOSTAPP_FULL names the binary measured (by default, hostapp-full beside HOSTAPP). BASELINE_HOSTAPP_FULL, when set, names a second
binary (an earlier build) measured the same way, and the table shows both and their ratio.

Run by `make bench` (whose report includes its table) or alone with `make bench-poppler-memory`, which rewrites only this section of BENCHMARKS.md.
"""
import glob
import os
import subprocess
import sys
import tempfile

import report_section

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOSTAPP_FULL = os.path.abspath(os.environ.get("HOSTAPP_FULL") or os.path.join(
    os.path.dirname(os.environ.get("HOSTAPP", ".build/release/hostapp")), "hostapp-full"))
BASELINE = os.environ.get("BASELINE_HOSTAPP_FULL")
MANUAL = "/usr/share/R/doc/manual/refman.pdf"
BEGIN, END = "<!-- poppler-memory -->", "<!-- /poppler-memory -->"
WORK = [
    ("info", lambda path, out: ["info", path]),
    ("page 1, 72 dpi", lambda path, out: ["render", path, "--pages", "1", "--dpi", "72", "-o", os.path.join(out, "page.png")]),
    ("text of page 1", lambda path, out: ["text", path, "--pages", "1", "-o", os.path.join(out, "page.txt")]),
]


def peak(binary, arguments, out):
    """Peak resident memory in MB of one run, and whether it succeeded."""
    command = ["/usr/bin/time", "-f", "%M", "timeout", "120", binary, "--renderer", "poppler"] + arguments
    result = subprocess.run(command, capture_output=True, text=True, cwd=out)
    last = result.stderr.strip().splitlines()[-1]
    return int(last) / 1024, result.returncode == 0


def measure():
    """The report's section, as lines."""
    with tempfile.TemporaryDirectory(prefix="bench-poppler-") as work:
        damaged = os.path.join(work, "damaged")
        subprocess.run([sys.executable, os.path.join(ROOT, "Tests/Damaged/make-damaged.py"), damaged, "--count", "0"],
                       check=True, capture_output=True)
        documents = [("R's manual", MANUAL)] + [
            (os.path.basename(path), path)
            for path in sorted(glob.glob(os.path.join(damaged, "hostile-*.pdf")) + glob.glob(os.path.join(damaged, "found-*.pdf")))
            if os.path.getsize(path) > 8
        ]
        binaries = [("before", os.path.abspath(BASELINE))] if BASELINE else []
        binaries.append(("now", HOSTAPP_FULL))
        header = "| document | work | " + " | ".join(f"{name} (MB)" for name, _ in binaries)
        header += " | now / before |" if BASELINE else " |"
        lines = [
            BEGIN,
            "Peak resident memory of the Poppler backend (`Benchmarks/poppler_memory.py`,",
            f"`{os.path.relpath(HOSTAPP_FULL, ROOT)} --renderer poppler`, one run each; a run marked * exited",
            "with an error, as a hostile file may).",
            "",
            header,
            "|---|---|" + "---|" * (len(binaries) + (1 if BASELINE else 0)),
        ]
        for name, path in documents:
            for work_name, arguments in WORK:
                row = []
                for _, binary in binaries:
                    mb, ok = peak(binary, arguments(path, work), work)
                    row.append((mb, ok))
                cells = [f"{mb:.0f}{'' if ok else '*'}" for mb, ok in row]
                if BASELINE:
                    cells.append(f"{row[-1][0] / row[0][0]:.2f}")
                lines.append(f"| {name} | {work_name} | " + " | ".join(cells) + " |")
        lines += [END]
        return lines


if __name__ == "__main__":
    sys.exit(report_section.run(measure, "BENCHMARKS.md", BEGIN, END))
