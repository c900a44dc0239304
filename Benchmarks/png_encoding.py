#!/usr/bin/env python3
"""PNG output against the engines' own tools: whole documents to PNG at 150 dpi with the
provider's encoder (one job and two), `mutool draw` and `pdftocairo -png`, in one run; the
PNG bytes of each; and the encoder's levels and filters, each as time and size against
`mutool draw`. Every PNG of the run is read back by Pillow and compared with the same page
written unencoded (`hostapp render --format ppm`, the engine's pixels as they are), so no
figure stands for a wrong file.

Run through `make bench-png` (this section alone, written into BENCHMARKS.md between its
markers) or `make bench` (all sections); Benchmarks/PNG-ANALYSIS.md, the reading of the
figures, ends the section. Settings (environment variables):
  BENCH_PNG_DOCS   PDF:PAGES ... (default: R's reference manual pages 1-200, the Ghostscript
                   colour management manual and the xeCJK manual, those installed, and the sample)
  BENCH_RUNS       hyperfine runs per command (default: 3); the level and filter table runs once
  HOSTAPP          the hostapp binary (default: .build/release/hostapp)
"""
import os
import shutil
import subprocess
import sys
import tempfile

import numpy
from PIL import Image

from timing import hyperfine, into

HOSTAPP = os.path.abspath(os.environ.get("HOSTAPP", ".build/release/hostapp"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
CORES = os.cpu_count() or 1
DPI = 150
DEFAULT_DOCS = [
    "/usr/share/R/doc/manual/refman.pdf:1-200",
    "/usr/share/doc/ghostscript/GS9_Color_Management.pdf",
    "/usr/share/doc/texlive-doc/xelatex/xecjk/xeCJK.pdf",
    "Samples/sample.pdf",
]
LEVELS = [1, 3, 6, 9, 12]
FILTERS = ["none", "none-or-up", "up", "sub", "paeth", "adaptive"]
BEGIN, END = "<!-- png-encoding -->", "<!-- /png-encoding -->"


def documents():
    docs = []
    for entry in os.environ.get("BENCH_PNG_DOCS", " ".join(DEFAULT_DOCS)).split():
        path, _, pages = entry.partition(":")
        if os.path.exists(path):
            docs.append((path, pages or f"1-{page_count(path)}"))
    return docs


def page_count(path):
    out = subprocess.run(["pdfinfo", path], capture_output=True, text=True, check=True).stdout
    return int(next(line.split()[-1] for line in out.splitlines() if line.startswith("Pages:")))


def total_bytes(directory):
    return sum(os.path.getsize(os.path.join(directory, f)) for f in os.listdir(directory))


def check_pixels(png_dir, reference_dir):
    """Every PNG in `png_dir` decodes (Pillow) to the pixels of the PPM file of the same page
    in `reference_dir`, the engine's pixels unencoded; returns how many were compared."""
    names = sorted(os.listdir(png_dir))
    if [os.path.splitext(n)[0] for n in names] != sorted(os.path.splitext(n)[0] for n in os.listdir(reference_dir)):
        raise SystemExit(f"{png_dir} and {reference_dir} hold different pages")
    for name in names:
        ours = numpy.asarray(Image.open(os.path.join(png_dir, name)).convert("RGB"))
        theirs = numpy.asarray(Image.open(os.path.join(reference_dir, os.path.splitext(name)[0] + ".ppm")).convert("RGB"))
        if ours.shape != theirs.shape or not (ours == theirs).all():
            raise SystemExit(f"{png_dir}/{name}: the PNG does not hold the pixels the engine drew")
    return len(names)


def measure_document(path, pages, out):
    first, last = pages.split("-")
    d = {n: os.path.join(out, n) for n in ["hm1", "hmN", "hmr", "mutool", "hp1", "hpN", "hpr", "cairo"]}
    render = f"{HOSTAPP} --renderer {{}} render {path} --pages {pages} --dpi {DPI}"
    for backend, reference in [("mupdf", "hmr"), ("poppler", "hpr")]:
        subprocess.run(into(d[reference], f"{render.format(backend)} --format ppm -o {d[reference]}/p%d.ppm"), shell=True, check=True)
    commands = {
        "hostapp mupdf, fast PNG, --jobs 1": into(d["hm1"], f"{render.format('mupdf')} --jobs 1 -o {d['hm1']}/p%d.png"),
        f"hostapp mupdf, fast PNG, --jobs {CORES}": into(d["hmN"], f"{render.format('mupdf')} -o {d['hmN']}/p%d.png"),
        "mutool draw": into(d["mutool"], f"mutool draw -q -r {DPI} -o {d['mutool']}/p%d.png {path} {pages}"),
        "hostapp poppler, fast PNG, --jobs 1": into(d["hp1"], f"{render.format('poppler')} --jobs 1 -o {d['hp1']}/p%d.png"),
        f"hostapp poppler, fast PNG, --jobs {CORES}": into(d["hpN"], f"{render.format('poppler')} -o {d['hpN']}/p%d.png"),
        "pdftocairo -png": into(d["cairo"], f"pdftocairo -png -r {DPI} -f {first} -l {last} {path} {d['cairo']}/p"),
    }
    times = hyperfine(commands, RUNS)
    checked = check_pixels(d["hm1"], d["hmr"]) + check_pixels(d["hmN"], d["hmr"])
    checked += check_pixels(d["hp1"], d["hpr"]) + check_pixels(d["hpN"], d["hpr"])
    sizes = {n: total_bytes(d[n]) for n in ["hm1", "mutool", "hp1", "cairo"]}
    tradeoff = {}
    for level in LEVELS:
        tradeoff[f"level {level}"] = into(d["hm1"], f"{render.format('mupdf')} --jobs 1 --png-level {level} -o {d['hm1']}/p%d.png")
    for name in FILTERS:
        tradeoff[f"filter {name}"] = into(d["hm1"], f"{render.format('mupdf')} --jobs 1 --png-filter {name} -o {d['hm1']}/p%d.png")
    trade = {}
    for name, command in tradeoff.items():
        trade[name] = (hyperfine({name: command}, 1)[name], total_bytes(d["hm1"]))
        checked += check_pixels(d["hm1"], d["hmr"])
    for directory in d.values():
        shutil.rmtree(directory, ignore_errors=True)
    return times, sizes, trade, checked


def measure():
    """The section's lines for BENCHMARKS.md, between its markers."""
    out = tempfile.mkdtemp(prefix="bench-png-")
    lines = [BEGIN, "## PNG encoding", "",
             f"Written by `make bench-png` (`Benchmarks/png_encoding.py`, `{os.path.relpath(HOSTAPP)}`), one run: whole documents "
             f"to PNG at {DPI} dpi, hyperfine medians of {RUNS} runs. Every PNG written was read back by Pillow and "
             "compared with the same page written unencoded (PPM): all equal.", "",
             "| document | command | median (s) | vs | PNG bytes vs |", "|---|---|---|---|---|"]
    trade_lines = ["", "The encoder's settings (MuPDF backend, one job, one run each), against `mutool draw`:", "",
                   "| document | setting | time vs mutool | PNG bytes vs mutool |", "|---|---|---|---|"]
    checked = 0
    try:
        for path, pages in documents():
            name = f"{os.path.basename(path)} ({pages})"
            times, sizes, trade, count = measure_document(path, pages, out)
            checked += count
            size_of = {"hostapp mupdf, fast PNG, --jobs 1": sizes["hm1"] / sizes["mutool"],
                       "hostapp poppler, fast PNG, --jobs 1": sizes["hp1"] / sizes["cairo"]}
            for command, seconds in times.items():
                reference = "mutool draw" if "mupdf" in command else "pdftocairo -png" if "poppler" in command else None
                ratio = f"{seconds / times[reference]:.2f}x {reference}" if reference else ""
                size = f"{size_of[command]:.3f}x" if command in size_of else ""
                lines.append(f"| {name} | {command} | {seconds:.2f} | {ratio} | {size} |")
            for setting, (seconds, size) in trade.items():
                trade_lines.append(f"| {name} | --png-{setting} | {seconds / times['mutool draw']:.2f}x | {size / sizes['mutool']:.3f}x |")
    finally:
        shutil.rmtree(out, ignore_errors=True)
    lines += trade_lines + ["", f"PNG files read back and compared: {checked}."]
    analysis = os.path.join(os.path.dirname(os.path.abspath(__file__)), "PNG-ANALYSIS.md")
    if os.path.exists(analysis):
        lines += [""] + open(analysis).read().rstrip("\n").splitlines()
    return lines + [END]


def main():
    section = measure()
    report = open("BENCHMARKS.md").read() if os.path.exists("BENCHMARKS.md") else "# Benchmarks\n"
    text = "\n".join(section)
    if BEGIN in report and END in report:
        report = report[:report.index(BEGIN)] + text + report[report.index(END) + len(END):]
    else:
        report = report.rstrip("\n") + "\n\n" + text + "\n"
    open("BENCHMARKS.md", "w").write(report)
    print(text)


if __name__ == "__main__":
    sys.exit(main())
