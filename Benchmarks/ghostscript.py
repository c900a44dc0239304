#!/usr/bin/env python3
"""The third engine against its own command: whole documents drawn to PNG at 100 dpi by
`hostapp --renderer ghostscript render` and by `gs -sDEVICE=png16m` with the same settings, and
their text extracted by `hostapp --renderer ghostscript text` and `gs -sDEVICE=txtwrite`, in one
run. gsapi keeps no document open between calls, so the backend runs Ghostscript once per
page (and once to read the pages' facts) where `gs` runs once per document: the ratio is
that cost.

Run through `make bench-ghostscript` (this section alone, written into BENCHMARKS.md between
its markers) or `make bench` (all sections). Settings (environment variables):
  BENCH_GS_DOCS  the documents, separated by ':' (default: the project's sample and
                 ghostscript-doc's colour management manual, 42 pages)
  BENCH_GS_RUNS  runs per command (default: 5)
  HOSTAPP        the hostapp binary (default: .build/release/hostapp)
"""
import os
import shutil
import sys
import tempfile

from report_section import run
from timing import hyperfine, into

HOSTAPP = os.path.abspath(os.environ.get("HOSTAPP", ".build/release/hostapp"))
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DOCS = [os.path.join(HERE, "..", "Samples", "sample.pdf"), "/usr/share/doc/ghostscript/GS9_Color_Management.pdf"]
DOCS = [d for d in os.environ.get("BENCH_GS_DOCS", ":".join(DEFAULT_DOCS)).split(":") if os.path.exists(d)]
RUNS = int(os.environ.get("BENCH_GS_RUNS", "5"))
BEGIN, END = "<!-- ghostscript -->", "<!-- /ghostscript -->"
GS = "gs -q -dSAFER -dBATCH -dNOPAUSE -dUseCropBox"


def measure():
    out = tempfile.mkdtemp(prefix="ghostscript-bench-")
    rows = []
    try:
        for doc in DOCS:
            ours, theirs = f"{out}/ours", f"{out}/theirs"
            commands = {
                "render": into(ours, f"{HOSTAPP} --renderer ghostscript render --dpi 100 --format png -o {ours} {doc}"),
                "gs png16m": into(theirs, f"{GS} -sDEVICE=png16m -r100 -dTextAlphaBits=4 -dGraphicsAlphaBits=4 -dNOINTERPOLATE -sOutputFile={theirs}/p%d.png {doc}"),
                "text": f"{HOSTAPP} --renderer ghostscript text {doc} > {out}/ours.txt",
                "gs txtwrite": f"{GS} -sDEVICE=txtwrite -sOutputFile={out}/theirs.txt {doc}",
            }
            times = hyperfine(commands, RUNS)
            rows.append((os.path.basename(doc), times))
    finally:
        shutil.rmtree(out, ignore_errors=True)
    lines = [
        BEGIN,
        "",
        "## Ghostscript, the third engine",
        "",
        "Written by `make bench-ghostscript` (`Benchmarks/ghostscript.py`): whole documents drawn to PNG at",
        "100 dpi and their text extracted, by `hostapp --renderer ghostscript` and by `gs` with the same",
        f"settings, medians of {RUNS} runs. The backend runs Ghostscript once per page (gsapi keeps no",
        "document open between calls) where `gs` runs once per document; that is the ratio's cost.",
        "",
        "| document | render (s) | gs png16m (s) | ratio | text (s) | gs txtwrite (s) | ratio |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, t in rows:
        lines.append(
            f"| {name} | {t['render']:.2f} | {t['gs png16m']:.2f} | {t['render'] / t['gs png16m']:.2f}x "
            f"| {t['text']:.2f} | {t['gs txtwrite']:.2f} | {t['text'] / t['gs txtwrite']:.2f}x |")
    lines += ["", END]
    return lines


if __name__ == "__main__":
    run(measure, "BENCHMARKS.md", BEGIN, END)
    sys.exit(0)
