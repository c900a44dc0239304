#!/usr/bin/env python3
"""`hostapp text --format markdown` against pymupdf4llm (`to_markdown`, PyMuPDF's Markdown
for language models), in one run: the time for R's reference manual (2,415 pages, the
release build on two jobs; pymupdf4llm runs on one, as it does), and what each finds in
Tests/Fixtures/structure.pdf, whose structure structure.json states: the headings found with
their levels (recall and precision against the source's) and whether the table's cells come
out as the source's. Both Markdown files are read by markdown-it-py (CommonMark with GitHub's
tables), so neither tool's own reading counts.

Run through `make bench-structure` (this section alone) or `make bench` (all sections).
Settings (environment variables):
  BENCH_STRUCTURE_DOC   the long document (default: R's fullrefman.pdf)
  BENCH_STRUCTURE_RUNS  runs per command (default: 2)
  HOSTAPP               the hostapp binary (default: .build/release/hostapp)
"""
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from markdown_it import MarkdownIt

from report_section import run
from timing import hyperfine

ROOT = os.path.dirname(os.path.abspath(os.path.dirname(__file__)))
HOSTAPP = os.path.abspath(os.environ.get("HOSTAPP", ".build/release/hostapp"))
DOC = os.environ.get("BENCH_STRUCTURE_DOC", "/usr/share/R/doc/manual/fullrefman.pdf")
RUNS = int(os.environ.get("BENCH_STRUCTURE_RUNS", "2"))
FIXTURE = os.path.join(ROOT, "Tests/Fixtures/structure.pdf")
SOURCE = os.path.join(ROOT, "Tests/Fixtures/structure.json")
BEGIN, END = "<!-- structure -->", "<!-- /structure -->"
PYMUPDF4LLM = "import pymupdf4llm, sys; open(sys.argv[2], 'w').write(pymupdf4llm.to_markdown(sys.argv[1], show_progress=False))"


def read(markdown):
    """The headings (level, text) and the table cells a Markdown text holds, as markdown-it-py
    reads it; markup inside a heading (pymupdf4llm's bold) is left out of its text."""
    rendered = MarkdownIt("commonmark").enable("table").render(markdown)
    def plain(fragment):
        return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())
    headings = [(int(level), plain(text)) for level, text in re.findall(r"<h([1-6])>(.*?)</h\1>", rendered, re.S)]
    cells = [plain(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", rendered, re.S)]
    return headings, cells


def scores(markdown):
    """Heading recall and precision (level and text both right) and whether the cells equal the source's."""
    pages = json.load(open(SOURCE))["pages"]
    source = [(e["heading"], e["text"]) for page in pages for e in page if "heading" in e]
    table = [cell for page in pages for e in page if "table" in e for row in e["table"] for cell in row]
    headings, cells = read(markdown)
    found = len(set(headings) & set(source))
    return found / len(source), found / max(1, len(headings)), cells == table, len(headings)


def measure():
    out = tempfile.mkdtemp(prefix="structure-bench-")
    try:
        tools = {
            "hostapp text --format markdown": f"{HOSTAPP} text --format markdown --jobs 2 {DOC} -o {out}/hostapp.md",
            "pymupdf4llm": f"python3 -c \"{PYMUPDF4LLM}\" {DOC} {out}/pymupdf4llm.md",
        }
        times = hyperfine(tools, RUNS)
        long = {name: read(open(os.path.join(out, file)).read()) for name, file in [("hostapp text --format markdown", "hostapp.md"), ("pymupdf4llm", "pymupdf4llm.md")]}
        subprocess.run([HOSTAPP, "text", "--format", "markdown", FIXTURE, "-o", f"{out}/fixture-hostapp.md"], check=True)
        subprocess.run(["python3", "-c", PYMUPDF4LLM, FIXTURE, f"{out}/fixture-pymupdf4llm.md"], check=True)
        fixture = {name: scores(open(os.path.join(out, file)).read()) for name, file in [("hostapp text --format markdown", "fixture-hostapp.md"), ("pymupdf4llm", "fixture-pymupdf4llm.md")]}
        version = subprocess.run(["python3", "-c", "import pymupdf4llm, pymupdf; print(pymupdf4llm.__version__, pymupdf.VersionBind)"], capture_output=True, text=True).stdout.split()
        pages = subprocess.run(["pdfinfo", DOC], capture_output=True, text=True).stdout
        count = next((line.split()[-1] for line in pages.splitlines() if line.startswith("Pages:")), "?")
    finally:
        shutil.rmtree(out, ignore_errors=True)
    lines = [
        BEGIN,
        "",
        "## Text with its structure (Markdown)",
        "",
        f"Written by `make bench-structure` (`Benchmarks/structure.py`): `hostapp text --format markdown --jobs 2`",
        f"against pymupdf4llm {version[0] if version else '?'} (PyMuPDF {version[1] if len(version) > 1 else '?'}, `to_markdown`, one process) on",
        f"`{os.path.basename(DOC)}` ({count} pages), medians of {RUNS} runs; then what each finds in",
        "`Tests/Fixtures/structure.pdf` (headings of three levels, lists, a ruled table, two columns;",
        "`structure.json` states them), both read back by markdown-it-py. A heading counts when its",
        f"level and text are the source's. hostapp: {'the debug build' if '/debug/' in HOSTAPP else 'the release build'}.",
        "",
        "| tool | time (s) | hostapp's ratio | headings found in the long document | tables' cells in it | fixture: heading recall | fixture: heading precision | fixture: table cells equal |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name in tools:
        headings, cells = long[name]
        recall, precision, table, _ = fixture[name]
        lines.append(f"| {name} | {times[name]:.1f} | {times['hostapp text --format markdown'] / times[name]:.2f}x | {len(headings):,} | {len(cells):,} | {recall:.2f} | {precision:.2f} | {'yes' if table else 'no'} |")
    lines += ["", END]
    return lines


if __name__ == "__main__":
    run(measure, "BENCHMARKS.md", BEGIN, END)
    sys.exit(0)
