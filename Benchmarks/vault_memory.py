#!/usr/bin/env python3
"""Measures what opening a large document from an encrypted vault costs against opening the
same plain file: peak resident memory and time of `hostapp info` and of rendering page 1,
with each engine. The document is made here: 17 pages, each an incompressible 1024 x 1024
RGB image (3 MiB), about 51 MiB in all. A vault that read the document whole would show it
as 51 MB more memory; one that reads by position shows about the same as the plain file.

Run by `make bench` (whose report includes its table) or alone with `make bench-vault`,
which rewrites only this section of BENCHMARKS.md. HOSTAPP names the binary.
"""
import os
import random
import subprocess
import sys
import tempfile
import time

import report_section

HOSTAPP = os.path.abspath(os.environ.get("HOSTAPP", ".build/release/hostapp"))
BEGIN, END = "<!-- vault-memory -->", "<!-- /vault-memory -->"


def make_pdf(path, pages=17, side=1024):
    """A PDF of `pages` pages, each drawing one `side`-pixel-square RGB image of random bytes."""
    rng = random.Random(42)
    objects = {1: b"<< /Type /Catalog /Pages 2 0 R >>"}
    kids = []
    for i in range(pages):
        page, contents, image = 3 + 3 * i, 4 + 3 * i, 5 + 3 * i
        kids.append(f"{page} 0 R")
        objects[page] = (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {contents} 0 R "
                         f"/Resources << /XObject << /Im0 {image} 0 R >> >> >>").encode()
        draw = b"q 612 0 0 792 0 0 cm /Im0 Do Q"
        objects[contents] = b"<< /Length %d >>\nstream\n" % len(draw) + draw + b"\nendstream"
        pixels = rng.randbytes(side * side * 3)
        objects[image] = (b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB "
                          b"/BitsPerComponent 8 /Length %d >>\nstream\n" % (side, side, len(pixels)) + pixels + b"\nendstream")
    objects[2] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {pages} >>".encode()
    with open(path, "wb") as out:
        out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
        offsets = {}
        for number in sorted(objects):
            offsets[number] = out.tell()
            out.write(b"%d 0 obj\n" % number + objects[number] + b"\nendobj\n")
        xref = out.tell()
        count = max(objects) + 1
        out.write(b"xref\n0 %d\n0000000000 65535 f \n" % count)
        for number in range(1, count):
            out.write(b"%010d 00000 n \n" % offsets[number])
        out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (count, xref))


def peak(command):
    """Peak resident memory in MB and wall time in seconds of one run."""
    started = time.monotonic()
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {result.stderr}")
    return int(result.stderr.strip().splitlines()[-1]) / 1024, time.monotonic() - started


def measure():
    """The report's section, as lines."""
    with tempfile.TemporaryDirectory(prefix="bench-vault-") as work:
        plain = os.path.join(work, "big.pdf")
        make_pdf(plain)
        size = os.path.getsize(plain) / 1e6
        vault, key = os.path.join(work, "vault"), os.path.join(work, "vault.key")
        os.makedirs(vault)
        subprocess.run([HOSTAPP, "vault", "key", "-o", key], check=True)
        subprocess.run([HOSTAPP, "vault", "encrypt", plain, "--vault", vault, "--key-file", key], check=True, capture_output=True)
        sealed = ["--vault", vault, "--key-file", key]
        lines = [
            BEGIN,
            f"Opening a {size:.0f} MB document from an encrypted vault against the plain file (`Benchmarks/vault_memory.py`,",
            f"`{os.path.relpath(HOSTAPP)}`; peak resident memory of the whole process, one run each):",
            "",
            "| backend | work | plain (MB) | vault (MB) | vault / plain | plain (s) | vault (s) |",
            "|---|---|---|---|---|---|---|",
        ]
        for backend in ["mupdf", "poppler"]:
            for work_name, arguments in [("info", ["info"]), ("render page 1, 36 dpi", ["render", "--pages", "1", "--dpi", "36", "-o", os.path.join(work, "p%d.png")])]:
                base = [HOSTAPP, "--renderer", backend] + arguments
                plain_mb, plain_s = peak(base[:3] + arguments[:1] + [plain] + arguments[1:])
                vault_mb, vault_s = peak(base[:3] + arguments[:1] + ["big.pdf"] + arguments[1:] + sealed)
                lines.append(f"| {backend} | {work_name} | {plain_mb:.0f} | {vault_mb:.0f} | {vault_mb / plain_mb:.2f} | {plain_s:.2f} | {vault_s:.2f} |")
        lines += [END]
        return lines


if __name__ == "__main__":
    sys.exit(report_section.run(measure, "BENCHMARKS.md", BEGIN, END))
