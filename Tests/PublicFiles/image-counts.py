#!/usr/bin/env python3
"""Every PDF of a public set of documents listed by `hostapp images list` on both engines and by
`pdfimages -list`, the witness: each file must give the same number of images three times.

The set is the PDFs Debian installs under the folders given (by default /usr/share/doc and
/usr/share/R/doc: the TeX Live manuals of texlive-doc and friends, R's manuals from r-doc-pdf,
Ghostscript's from ghostscript-doc: 397 files from dozens of producers, 4,636 images, on the
machine the project is built on, after make setup). No file is committed or downloaded. Not
part of `make test` (it reads every page of a few hundred files, about two minutes on two
cores); `make public-image-counts` runs it.

Usage: image-counts.py HOSTAPP [FOLDER ...]
Exits 0 when every file gives the witness's count on both engines, 1 otherwise (printing
each file that differs)."""
import concurrent.futures
import subprocess
import sys

import public_set


def listed(command):
    """The number of images a `pdfimages -list`-style listing holds (two heading lines), or
    None when the command fails."""
    try:
        run = subprocess.run(command, capture_output=True, text=True, errors="replace", timeout=300)
    except subprocess.TimeoutExpired:
        return None
    if run.returncode != 0:
        return None
    return max(0, len(run.stdout.splitlines()) - 2)


def counts(hostapp, path):
    return (path, listed(["pdfimages", "-list", path]),
            listed([hostapp, "--renderer", "mupdf", "images", "list", path]),
            listed([hostapp, "--renderer", "poppler", "images", "list", path]))


def main():
    hostapp, files = public_set.arguments(__doc__)
    differing, unreadable, images = [], [], 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for path, witness, mupdf, poppler in pool.map(lambda path: counts(hostapp, path), files):
            if witness is None:
                unreadable.append(path)
            elif mupdf != witness or poppler != witness:
                differing.append(f"{path}: pdfimages {witness}, MuPDF {mupdf}, Poppler {poppler}")
            else:
                images += witness
    for line in differing:
        print(line)
    print(f"{len(files)} files, {len(files) - len(differing) - len(unreadable)} with pdfimages' count on both engines "
          f"({images} images), {len(differing)} differing, {len(unreadable)} that pdfimages cannot read")
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
