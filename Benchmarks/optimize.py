#!/usr/bin/env python3
"""`hostapp optimize` and `hostapp protect` against the tools people use for the same jobs, on
the same documents in one run. Optimising: qpdf with object streams, compressed streams and
linearisation (what hostapp asks of qpdf's library), and Ghostscript's pdfwrite with the /ebook
settings (which also downsamples images, so its copy is smaller and no longer draws the same).
For each: the time (hyperfine median), the output's size, whether `qpdf --check-linearization`
passes, and whether the copy's text (pdftotext) equals the original's. Protecting with a user
and an owner password: qpdf's AES-256 (`--encrypt U O 256`, what hostapp writes by default,
through MuPDF) and Ghostscript's pdfwrite (RC4, the only method it writes), each copy's
encryption as `qpdf --show-encryption` reads it with the owner password.

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


def protect_commands(doc, out):
    """Each tool's command that writes `doc` with user password "reader" and owner password
    "owner", printing and copying allowed."""
    return {
        "hostapp protect": f"{HOSTAPP} protect {doc} --owner-password owner --user-password reader --allow print,copy -o {out}/hostapp-protected.pdf > /dev/null",
        "qpdf --encrypt (AES-256)": f"qpdf --encrypt reader owner 256 --print=full --extract=y --modify=none -- {doc} {out}/qpdf-protected.pdf",
        "gs pdfwrite (RC4)": f"gs -q -dBATCH -dNOPAUSE -dSAFER -sDEVICE=pdfwrite -sOwnerPassword=owner -sUserPassword=reader -dEncryptionR=3 "
                             f"-dKeyLength=128 -dPermissions=-3884 -sOutputFile={out}/gs-protected.pdf {doc}",
    }


def encryption(path):
    """The method `qpdf --show-encryption` names for `path`, opened with the owner password."""
    shown = subprocess.run(["qpdf", "--show-encryption", "--password=owner", path], capture_output=True, text=True).stdout
    methods = [line.split(":", 1)[1].strip() for line in shown.splitlines() if line.startswith("stream encryption method")]
    revision = next((line.split("=")[1].strip() for line in shown.splitlines() if line.startswith("R =")), "?")
    # Revisions 2 and 3 name no method: theirs is RC4.
    method = methods[0] if methods else "RC4" if revision in ("2", "3") else "none"
    return f"{method}, R {revision}"


def facts(path, original_text):
    """Size in bytes, linearised or not, text equal to the original's or not."""
    linearized = subprocess.run(["qpdf", "--check-linearization", path], capture_output=True, text=True).stdout
    text = subprocess.run(["pdftotext", path, "-"], capture_output=True, text=True).stdout
    return os.path.getsize(path), "no linearization errors" in linearized, text == original_text


def measure():
    out = tempfile.mkdtemp(prefix="optimize-bench-")
    rows, protected = [], []
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
            tools = protect_commands(doc, out)
            times = hyperfine(tools, RUNS)
            files = {"hostapp protect": "hostapp-protected.pdf", "qpdf --encrypt (AES-256)": "qpdf-protected.pdf", "gs pdfwrite (RC4)": "gs-protected.pdf"}
            for name in tools:
                path = os.path.join(out, files[name])
                protected.append((os.path.basename(doc), os.path.getsize(doc), name, times[name], times["hostapp protect"] / times[name],
                                  os.path.getsize(path), encryption(path)))
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
        "draws differently; hostapp and qpdf keep pages as they are. Over every PDF Debian installs",
        "(`make public-optimize`, docs/development.md) each copy is linearised, reads the same text and",
        "draws the same pixels at 72 dpi (pdftoppm) as its original.",
        "",
        "| document (bytes) | tool | time (s) | hostapp's ratio | output (bytes) | linearised | same text |",
        "|---|---|---|---|---|---|---|",
    ]
    for doc, original, name, seconds, ratio, size, linearized, same_text in rows:
        lines.append(f"| {doc} ({original:,}) | {name} | {seconds:.2f} | {ratio:.2f}x | {size:,} | {'yes' if linearized else 'no'} | "
                     f"{'yes' if same_text else 'no'} |")
    lines += [
        "",
        "Protecting a copy with a user and an owner password (`hostapp protect`, written by MuPDF),",
        "against qpdf's AES-256 and Ghostscript's pdfwrite (RC4, the only method it writes; it",
        "rewrites every page). \"encryption\" is what `qpdf --show-encryption` reads with the owner",
        "password.",
        "",
        "| document (bytes) | tool | time (s) | hostapp's ratio | output (bytes) | encryption |",
        "|---|---|---|---|---|---|",
    ]
    for doc, original, name, seconds, ratio, size, method in protected:
        lines.append(f"| {doc} ({original:,}) | {name} | {seconds:.2f} | {ratio:.2f}x | {size:,} | {method} |")
    lines += ["", END]
    return lines


if __name__ == "__main__":
    run(measure, "BENCHMARKS.md", BEGIN, END)
    sys.exit(0)
