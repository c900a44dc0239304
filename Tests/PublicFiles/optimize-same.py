#!/usr/bin/env python3
"""Every PDF of a public set of documents through `hostapp optimize` (images kept), each copy
checked by witnesses that are not the writer: `qpdf --check-linearization` passes, `pdftotext`
reads the same text from the copy as from the original, and `pdftoppm` draws the same pixels at
72 dpi on the first three pages and the last. A file that qpdf itself cannot read
(`qpdf --check` fails on the original) is counted apart.

The set is the PDFs Debian installs under the folders given (by default /usr/share/doc and
/usr/share/R/doc: the TeX Live, R and Ghostscript manuals `make setup` installs, a few hundred
files from dozens of producers). No file is committed or downloaded. Not part of `make test`
(it writes and reads a few hundred files, several minutes on two cores);
`make public-optimize` runs it.

Usage: optimize-same.py HOSTAPP [FOLDER ...]
Exits 0 when every copy passes the three witnesses, 1 otherwise (printing each file that
does not and why)."""
import concurrent.futures
import os
import subprocess
import sys
import tempfile

import public_set


def run(command, timeout=600):
    try:
        return subprocess.run(command, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def pages(path):
    info = run(["pdfinfo", path])
    for line in (info.stdout.decode(errors="replace") if info else "").splitlines():
        if line.startswith("Pages:"):
            return int(line.split()[-1])
    return 0


def drawn(path, page, folder, name):
    """The bytes pdftoppm draws of `page` at 72 dpi (a PPM), or None."""
    prefix = os.path.join(folder, name)
    made = run(["pdftoppm", "-r", "72", "-f", str(page), "-l", str(page), "-singlefile", path, prefix])
    if made is None or made.returncode != 0:
        return None
    with open(prefix + ".ppm", "rb") as f:
        return f.read()


def check(hostapp, path):
    """(path, None, the original's size, the copy's) for a copy that passes, (path, "qpdf", 0, 0)
    for an original qpdf cannot read, or (path, reason, 0, 0)."""
    original = run(["qpdf", "--check", path])
    if original is None or original.returncode not in (0, 3):
        return path, "qpdf", 0, 0
    with tempfile.TemporaryDirectory(prefix="optimize-same-") as folder:
        copy = os.path.join(folder, "copy.pdf")
        written = run([hostapp, "optimize", path, "-o", copy])
        if written is None or written.returncode != 0:
            return path, "hostapp optimize failed: " + (written.stderr.decode(errors="replace").strip() if written else "timed out"), 0, 0
        linearized = run(["qpdf", "--check-linearization", copy])
        if linearized is None or b"no linearization errors" not in linearized.stdout:
            return path, "not linearised", 0, 0
        texts = [run(["pdftotext", "-q", file, "-"]) for file in (path, copy)]
        if None in texts or texts[0].stdout != texts[1].stdout:
            return path, "text differs", 0, 0
        count = pages(path)
        if pages(copy) != count:
            return path, "page count differs", 0, 0
        for page in sorted({1, 2, 3, count} & set(range(1, count + 1))):
            if drawn(path, page, folder, "original") != drawn(copy, page, folder, "copy"):
                return path, f"page {page} drawn differently", 0, 0
        return path, None, os.path.getsize(path), os.path.getsize(copy)


def main():
    hostapp, files = public_set.arguments(__doc__)
    failing, unreadable, before, after = [], [], 0, 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for path, reason, size, copied in pool.map(lambda path: check(hostapp, path), files):
            if reason == "qpdf":
                unreadable.append(path)
            elif reason:
                failing.append(f"{path}: {reason}")
            else:
                before, after = before + size, after + copied
    for line in failing:
        print(line)
    print(f"{len(files)} files, {len(files) - len(failing) - len(unreadable)} optimised with the same text and pixels, "
          f"{len(failing)} not, {len(unreadable)} that qpdf cannot read; the copies weigh {after / max(before, 1):.2f}x the originals")
    sys.exit(1 if failing else 0)


if __name__ == "__main__":
    main()
