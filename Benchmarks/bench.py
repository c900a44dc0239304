#!/usr/bin/env python3
"""Times hostapp against the engines' own tools on the same documents in the same run and
writes BENCHMARKS.md. Run through `make bench`, which installs what it needs first.

Settings (environment variables):
  BENCH_DOC    the long PDF (default: R's reference manual from r-doc-pdf, 2,415 pages)
  BENCH_PAGES  its pages, as FIRST-LAST (default: all)
  BENCH_DPIS   resolutions for PNG rendering, each optionally with its own pages as
               DPI:FIRST-LAST (default: "72 150 300")
  BENCH_RAW_DPI  resolution for raw output (default: 72, which keeps the files of all
               pages to a few GB)
  BENCH_EXTRA  more PDFs, rendered at 150 dpi and read as text (default: the bundled sample,
               ghostscript-doc's image-heavy colour management manual, 42 pages, and
               texlive-lang-cjk's xeCJK manual in Chinese, 203 pages; those installed)
  BENCH_RUNS   hyperfine runs per command (default: 3)
  HOSTAPP      the hostapp binary (default: .build/release/hostapp)
"""
import os
import platform
import shutil
import subprocess
import sys
import tempfile

import collab_load
import document_diff
import download_memory
import first_page
import fleet_load
import ghostscript
import ocr
import office_convert
import optimize
import png_encoding
import poppler_memory
import server_load
import signatures
import structure
import thumbnail
import vault_memory
import viewer_first_paint
import xfdf_import
from timing import hyperfine, into

DOC = os.environ.get("BENCH_DOC", "/usr/share/R/doc/manual/refman.pdf")
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
DPIS = os.environ.get("BENCH_DPIS", "72 150 300").split()
RAW_DPI = os.environ.get("BENCH_RAW_DPI", "72")
DEFAULT_EXTRA = [
    "Samples/sample.pdf",
    "/usr/share/doc/ghostscript/GS9_Color_Management.pdf",
    "/usr/share/doc/texlive-doc/xelatex/xecjk/xeCJK.pdf",
]
EXTRA = [p for p in os.environ.get("BENCH_EXTRA", " ".join(DEFAULT_EXTRA)).split() if os.path.exists(p)]
HOSTAPP = os.path.abspath(os.environ.get("HOSTAPP", ".build/release/hostapp"))
CORES = os.cpu_count() or 1


def page_count(path):
    out = subprocess.run(["pdfinfo", path], capture_output=True, text=True, check=True).stdout
    return int(next(line.split()[-1] for line in out.splitlines() if line.startswith("Pages:")))


PAGES = os.environ.get("BENCH_PAGES") or f"1-{page_count(DOC)}"
FIRST, LAST = PAGES.split("-")
COUNT = int(LAST) - int(FIRST) + 1


def measure(rows, group, commands, mupdf, poppler):
    """Times `commands` in one hyperfine call and adds a row for each to `rows`, hostapp's
    compared with the engine's own tool. Returns the medians by name."""
    times = hyperfine(commands, RUNS)
    for name in commands:
        reference = mupdf if "mupdf" in name else poppler if "poppler" in name else None
        rows.append((group, name, times[name], reference))
    return times


def peak_rss_mb(command):
    """Peak resident memory of one run, in MB, from GNU time."""
    result = subprocess.run(["/usr/bin/time", "-f", "%M", "sh", "-c", command + " >/dev/null"], capture_output=True, text=True, check=True)
    return int(result.stderr.strip().splitlines()[-1]) / 1024


def size_mb(directory):
    return sum(os.path.getsize(os.path.join(directory, f)) for f in os.listdir(directory)) / 1e6


def version(command):
    result = subprocess.run(command, capture_output=True, text=True)
    return (result.stdout + result.stderr).strip().splitlines()[0]


def png_commands(doc, pages, dpi, out):
    """PNG rendering of `pages` of `doc` by hostapp (both backends, one job and the default)
    and by the engines' tools, each writing into a folder of its own under `out`."""
    first, last = pages.split("-")
    dirs = {n: os.path.join(out, n) for n in ["hm1", "hmN", "hp1", "hpN", "mutool", "pdftoppm", "pdftocairo"]}
    render = f"{HOSTAPP} --renderer {{}} render {doc} --pages {pages} --dpi {dpi}"
    commands = {
        "hostapp mupdf --jobs 1": into(dirs["hm1"], f"{render.format('mupdf')} --jobs 1 -o {dirs['hm1']}/p%d.png"),
        f"hostapp mupdf --jobs {CORES}": into(dirs["hmN"], f"{render.format('mupdf')} -o {dirs['hmN']}/p%d.png"),
        "mutool draw": into(dirs["mutool"], f"mutool draw -q -r {dpi} -o {dirs['mutool']}/p%d.png {doc} {pages}"),
        "hostapp poppler --jobs 1": into(dirs["hp1"], f"{render.format('poppler')} --jobs 1 -o {dirs['hp1']}/p%d.png"),
        f"hostapp poppler --jobs {CORES}": into(dirs["hpN"], f"{render.format('poppler')} -o {dirs['hpN']}/p%d.png"),
        "pdftocairo -png": into(dirs["pdftocairo"], f"pdftocairo -png -r {dpi} -f {first} -l {last} {doc} {dirs['pdftocairo']}/p"),
        "pdftoppm -png": into(dirs["pdftoppm"], f"pdftoppm -png -r {dpi} -f {first} -l {last} {doc} {dirs['pdftoppm']}/p"),
    }
    return commands, dirs


def text_commands(doc, pages, out):
    first, last = pages.split("-")
    text = os.path.join(out, "text.txt")
    return {
        "hostapp mupdf text --jobs 1": f"{HOSTAPP} --renderer mupdf text {doc} --pages {pages} --jobs 1 > {text}",
        f"hostapp mupdf text --jobs {CORES}": f"{HOSTAPP} --renderer mupdf text {doc} --pages {pages} > {text}",
        "mutool draw -F txt": f"mutool draw -q -F txt -o {text} {doc} {pages}",
        "hostapp poppler text --jobs 1": f"{HOSTAPP} --renderer poppler text {doc} --pages {pages} --jobs 1 > {text}",
        f"hostapp poppler text --jobs {CORES}": f"{HOSTAPP} --renderer poppler text {doc} --pages {pages} > {text}",
        "pdftotext": f"pdftotext -f {first} -l {last} {doc} {text}",
    }


def main():
    out = tempfile.mkdtemp(prefix="bench-")
    rows = []  # (group, name, median seconds, reference name)
    notes = {}
    try:
        def fresh(name):
            path = os.path.join(out, name)
            shutil.rmtree(path, ignore_errors=True)
            os.makedirs(path)
            return path

        for setting in DPIS:
            dpi, _, pages = setting.partition(":")
            pages = pages or PAGES
            group = f"PNG, {dpi} dpi, pages {pages}"
            commands, dirs = png_commands(DOC, pages, dpi, out)
            times = measure(rows, group, commands, mupdf="mutool draw", poppler="pdftocairo -png")
            notes[group] = {
                "PNG size, hostapp mupdf / mutool": size_mb(dirs["hm1"]) / size_mb(dirs["mutool"]),
                "PNG size, hostapp poppler / pdftocairo": size_mb(dirs["hp1"]) / size_mb(dirs["pdftocairo"]),
                "hostapp poppler --jobs 1 / pdftoppm -png": times["hostapp poppler --jobs 1"] / times["pdftoppm -png"],
            }
            for directory in dirs.values():
                shutil.rmtree(directory, ignore_errors=True)

        # Every raw command writes into the same folder, emptied first: the files of all
        # pages take gigabytes.
        raw = os.path.join(out, "raw")
        group = f"Raw pixels, {RAW_DPI} dpi, pages {PAGES}"
        render = f"{HOSTAPP} --renderer {{}} render {DOC} --pages {PAGES} --dpi {RAW_DPI} --format ppm"
        commands = {
            "hostapp mupdf --jobs 1 (PPM)": into(raw, f"{render.format('mupdf')} --jobs 1 -o {raw}/p%d.ppm"),
            f"hostapp mupdf --jobs {CORES} (PPM)": into(raw, f"{render.format('mupdf')} -o {raw}/p%d.ppm"),
            "mutool draw -c rgb (PNM)": into(raw, f"mutool draw -q -r {RAW_DPI} -c rgb -o {raw}/p%d.pnm {DOC} {PAGES}"),
            "hostapp poppler --jobs 1 (PPM)": into(raw, f"{render.format('poppler')} --jobs 1 -o {raw}/p%d.ppm"),
            f"hostapp poppler --jobs {CORES} (PPM)": into(raw, f"{render.format('poppler')} -o {raw}/p%d.ppm"),
            "pdftoppm (PPM)": into(raw, f"pdftoppm -r {RAW_DPI} -f {FIRST} -l {LAST} {DOC} {raw}/p"),
        }
        measure(rows, group, commands, mupdf="mutool draw -c rgb (PNM)", poppler="pdftoppm (PPM)")
        shutil.rmtree(raw, ignore_errors=True)

        measure(rows, f"Text, pages {PAGES}", text_commands(DOC, PAGES, out), mupdf="mutool draw -F txt", poppler="pdftotext")

        for doc in EXTRA:
            name = os.path.basename(doc)
            pages = f"1-{page_count(doc)}"
            group = f"{name} ({page_count(doc)} pages), PNG, 150 dpi"
            commands, dirs = png_commands(doc, pages, 150, out)
            times = measure(rows, group, commands, mupdf="mutool draw", poppler="pdftocairo -png")
            notes[group] = {
                "PNG size, hostapp mupdf / mutool": size_mb(dirs["hm1"]) / size_mb(dirs["mutool"]),
                "hostapp poppler --jobs 1 / pdftoppm -png": times["hostapp poppler --jobs 1"] / times["pdftoppm -png"],
            }
            measure(rows, f"{name}, text", text_commands(doc, pages, out), mupdf="mutool draw -F txt", poppler="pdftotext")

        memory = []
        ten = f"{FIRST}-{min(int(LAST), int(FIRST) + 9)}"
        rss_dir = fresh("rss")
        for backend in ["mupdf", "poppler"]:
            for label, pages in [("first 10 pages", ten), (f"{COUNT} pages", PAGES)]:
                for jobs in [1, CORES]:
                    render = peak_rss_mb(f"{HOSTAPP} --renderer {backend} render {DOC} --pages {pages} --dpi 150 --jobs {jobs} -o {rss_dir}/p%d.png")
                    shutil.rmtree(rss_dir)
                    os.makedirs(rss_dir)
                    text_rss = peak_rss_mb(f"{HOSTAPP} --renderer {backend} text {DOC} --pages {pages} --jobs {jobs}")
                    memory.append((f"hostapp {backend} --jobs {jobs}", label, render, text_rss))
        for tool, command in [("mutool draw", f"mutool draw -q -r 150 -o {rss_dir}/p%d.png {DOC} {PAGES}"),
                              ("pdftocairo", f"pdftocairo -png -r 150 -f {FIRST} -l {LAST} {DOC} {rss_dir}/p")]:
            memory.append((tool, f"{COUNT} pages", peak_rss_mb(command), None))
            shutil.rmtree(rss_dir)
            os.makedirs(rss_dir)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    modules = [first_page, png_encoding, vault_memory, poppler_memory, server_load, download_memory, viewer_first_paint, thumbnail, ghostscript, signatures, collab_load, fleet_load, document_diff, xfdf_import, optimize, office_convert, ocr, structure]
    write_report(rows, notes, memory, [line for module in modules for line in section(module) + [""]])


def section(module):
    """The lines of one section of the report: a section that fails says so in the report, and
    the figures measured before it and after it are still written."""
    try:
        return module.measure()
    except Exception as error:  # noqa: BLE001 - any failure of one section is reported, not raised
        print(f"bench: the section {module.__name__} failed: {error!r}", file=sys.stderr)
        return [f"The section of `Benchmarks/{module.__name__}.py` failed in this run ({type(error).__name__}); run it alone."]


def write_report(rows, notes, memory, vault):
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
    lines = [
        "# Benchmarks",
        "",
        "Written by `make bench` (`Benchmarks/bench.py`); every figure below comes from one run of it.",
        "Times are hyperfine medians of whole processes; a ratio below 1 means hostapp is faster",
        "than the tool it is compared with.",
        "",
        f"- Machine: {cpu}, {CORES} cores, {platform.system()} {platform.release()}",
        f"- Long document: `{DOC}` ({COUNT} pages in the run); {RUNS} run{'' if RUNS == 1 else 's'} per command",
        f"- Other documents: {', '.join(f'`{d}`' for d in EXTRA) or 'none'}",
        f"- Tools: {version(['mutool', '-v'])}; {version(['pdftoppm', '-v'])}; {version(['hyperfine', '--version'])}",
        "",
        "| work | command | median (s) | vs |",
        "|---|---|---|---|",
    ]
    by_group = {}
    for group, name, seconds, reference in rows:
        by_group.setdefault(group, {})[name] = seconds
    for group, name, seconds, reference in rows:
        ratio = f"{seconds / by_group[group][reference]:.2f}x {reference}" if reference else ""
        lines.append(f"| {group} | {name} | {seconds:.2f} | {ratio} |")
    lines += ["", "| work | figure | value |", "|---|---|---|"]
    for group, figures in notes.items():
        for name, value in figures.items():
            lines.append(f"| {group} | {name} | {value:.2f} |")
    lines += ["", "Peak resident memory (MB), 150 dpi PNG, long document:", "", "| program | pages | render | text |", "|---|---|---|---|"]
    for program, label, render, text in memory:
        lines.append(f"| {program} | {label} | {render:.0f} | {'' if text is None else f'{text:.0f}'} |")
    lines += [""] + vault
    lines += [
        "",
        "## Reproducing",
        "",
        "```sh",
        "make bench                                    # the whole manual at 72, 150 and 300 dpi: hours",
        f"BENCH_PAGES={PAGES} BENCH_DPIS='{' '.join(DPIS)}' BENCH_RUNS={RUNS} make bench   # this run",
        "BENCH_PAGES=1-100 BENCH_DPIS=150 make bench     # a quick look",
        "make bench-first-page                         # the time to the first page alone",
        "make bench-png                                # the PNG encoding section alone",
        "make bench-vault                              # the vault's memory table alone",
        "BENCH_SERVER_SECONDS=60 make bench-server     # the viewer's server alone, a one-minute memory run",
        "make bench-viewer                             # the viewer against pdf.js alone",
        "```",
        "",
    ]
    # What was written by hand or by another script, kept when the report is written anew.
    for kept in ("ANALYSIS.md", "CI-PHASES.md"):
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), kept)
        if os.path.exists(path):
            lines += open(path).read().splitlines() + [""]
    open("BENCHMARKS.md", "w").write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
