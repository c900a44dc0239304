#!/usr/bin/env python3
"""Writes a set of damaged and hostile PDF files, the same bytes for the same arguments.

    make-damaged.py OUT_DIR [--count N] [--seed S] [--real FILE ...]

From each seed document (the project's fixtures that open without a password, the sample,
and the real documents given with --real, each of which is also written undamaged as
real-NAME.pdf) it derives, in turn, until N files are written (the kinds take turns across
the seeds and across the passes over them, so that even a set of one pass has each kind):

  trunc-*    the document cut at an offset: evenly spread over the file, then random;
  flip-*     1 to 16 bytes of the document with one random bit flipped each;
  shuffle-*  the document's "N G obj ... endobj" blocks in a random order (every
             cross-reference offset is then wrong), some of them dropped or repeated;
  splice-*   a random part of the document replaced by bytes from another part.

Then, whatever N is, it writes one file for each hostile shape below; each is a complete,
well-formed PDF apart from the stated fault:

  hostile-empty.pdf            zero bytes
  hostile-garbage.pdf          4096 random bytes
  hostile-header-only.pdf      "%PDF-1.7" and nothing else
  hostile-xref-loop.pdf        two cross-reference sections whose /Prev point at each other
  hostile-page-tree-loop.pdf   a /Pages node whose /Kids holds itself
  hostile-outline-loop.pdf     outline items whose /Next chain returns to the first
  hostile-page-count.pdf       a page tree that holds 2 pages and claims 1,066,275,043 (the
                               fuzzer's number) in a file of 5 objects
  hostile-huge-page.pdf        a MediaBox of 14,400 x 14,400 pt (the PDF maximum is 14,400)
  hostile-absurd-page.pdf      a MediaBox of 1e30 x 1e30 pt, and one of zero size
  hostile-huge-image.pdf       an image that claims 100,000 x 100,000 RGB pixels, with 16 bytes
  hostile-deep-content.pdf     content that saves the graphics state 100,000 times
  hostile-deep-arrays.pdf      an array nested 50,000 deep in the page dictionary
  hostile-bad-stream.pdf       a content stream whose /Length is wrong and whose Flate data is noise
  hostile-javascript.pdf       an /OpenAction JavaScript and a Launch action that would create
                               the file named in the script (tests check it never appears)
  hostile-embedded-file.pdf    an embedded file attachment (tests check it is never written)

Last, it copies each file of Tests/Damaged/Found/ as found-NAME.pdf: inputs that `make fuzz`
found to hang or crash an engine (docs/known-issues.md says what each does):

  found-mupdf-page-tree-loop.pdf   a fuzzed fixture whose page 1 is a "cycle in page tree"
                                   and on whose page 2 MuPDF 1.21 loops without end, its
                                   memory growing (mutool draw hangs on it the same way)
"""

import argparse
import os
import random
import re
import shutil
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEEDS = [
    "Tests/Fixtures/text.pdf", "Tests/Fixtures/mixed-sizes.pdf", "Tests/Fixtures/rotated.pdf",
    "Tests/Fixtures/cropbox.pdf", "Tests/Fixtures/colors.pdf", "Tests/Fixtures/metadata.pdf",
    "Tests/Fixtures/labels.pdf", "Tests/Fixtures/search.pdf", "Tests/Fixtures/outline.pdf",
    "Tests/Fixtures/outline-deep.pdf", "Tests/Fixtures/annotations.pdf", "Tests/Fixtures/long.pdf",
    "Samples/sample.pdf",
]
# The file the JavaScript and Launch actions of hostile-javascript.pdf would create.
JS_MARKER = "/tmp/renderer-provider-javascript-ran"


def pdf(objects, trailer_extra=b""):
    """A PDF with the given object bodies (numbered from 1) and a correct xref table."""
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R %s>>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, trailer_extra, xref)
    return bytes(out)


def stream(data, extra=b""):
    return b"<< /Length %d %s>>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def page_doc(page_extra=b"", content=b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET", media=b"[0 0 612 792]", more=()):
    """Catalog, one page with Helvetica and the given content, and `more` objects from 6 on."""
    return [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox %s /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R %s>>" % (media, page_extra),
        stream(content),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        *more,
    ]


def hostile(rng):
    files = {
        "hostile-empty.pdf": b"",
        "hostile-garbage.pdf": bytes(rng.randrange(256) for _ in range(4096)),
        "hostile-header-only.pdf": b"%PDF-1.7\n",
        "hostile-page-tree-loop.pdf": pdf([
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
        ]),
        "hostile-page-count.pdf": pdf([
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 1066275043 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 400] >>",
        ]),
        "hostile-outline-loop.pdf": pdf(page_doc(more=[
            b"<< /Type /Outlines /First 7 0 R /Last 8 0 R /Count 2 >>",
            b"<< /Title (One) /Parent 6 0 R /Next 8 0 R /Dest [3 0 R /Fit] >>",
            b"<< /Title (Two) /Parent 6 0 R /Next 7 0 R /Prev 7 0 R /Dest [3 0 R /Fit] >>",
        ])).replace(b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Catalog /Pages 2 0 R /Outlines 6 0 R >>"),
        "hostile-huge-page.pdf": pdf(page_doc(media=b"[0 0 14400 14400]")),
        "hostile-absurd-page.pdf": pdf([
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 1e30 1e30] >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 0 0] >>",
        ]),
        "hostile-huge-image.pdf": pdf(page_doc(
            content=b"q 500 0 0 500 50 50 cm /Im1 Do Q",
            page_extra=b"",
            more=[stream(bytes(16), b"/Type /XObject /Subtype /Image /Width 100000 /Height 100000 /ColorSpace /DeviceRGB /BitsPerComponent 8 ")],
        )).replace(b"/Font << /F1 5 0 R >>", b"/Font << /F1 5 0 R >> /XObject << /Im1 6 0 R >>"),
        "hostile-deep-content.pdf": pdf(page_doc(content=b"q " * 100_000 + b"0 0 1 rg 10 10 100 100 re f " + b"Q " * 100_000)),
        "hostile-deep-arrays.pdf": pdf(page_doc(page_extra=b"/Junk " + b"[" * 50_000 + b"]" * 50_000 + b" ")),
        "hostile-javascript.pdf": pdf(page_doc(more=[
            b"<< /S /JavaScript /JS (app.alert('x'); this.exportDataObject({cName: 'a', nLaunch: 2}); "
            b"var f = util.printd('yyyy', new Date()); app.launchURL('file://%s');) /Next 7 0 R >>" % JS_MARKER.encode(),
            b"<< /S /Launch /F (/usr/bin/touch) /Win << /F (touch) /P (%s) >> /Unix (/usr/bin/touch %s) >>" % (JS_MARKER.encode(), JS_MARKER.encode()),
        ], page_extra=b"/AA << /O 7 0 R >> ")).replace(
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Catalog /Pages 2 0 R /OpenAction 6 0 R /Names << /JavaScript << /Names [(run) 6 0 R] >> >> >>"),
        "hostile-embedded-file.pdf": pdf(page_doc(more=[
            stream(b"attached bytes that must never be written\n", b"/Type /EmbeddedFile "),
            b"<< /Type /Filespec /F (attached.txt) /UF (attached.txt) /EF << /F 6 0 R >> >>",
        ])).replace(
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(attached.txt) 7 0 R] >> >> >>"),
    }
    # Two cross-reference sections, each naming the other as the previous one.
    base = bytearray(pdf(page_doc()).replace(b"trailer\n<< /Size 6 /Root 1 0 R >>", b"trailer\n<< /Size 6 /Root 1 0 R /Prev PREVIOUSXX >>"))
    first = base.rindex(b"xref\n")
    second = len(base)
    base += b"xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 6 /Root 1 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n" % (first, second)
    files["hostile-xref-loop.pdf"] = bytes(base.replace(b"PREVIOUSXX", b"%010d" % second))
    # A content stream longer than its /Length says, compressed data that is noise.
    noise = bytes(rng.randrange(256) for _ in range(300))
    files["hostile-bad-stream.pdf"] = pdf(page_doc()).replace(
        stream(b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET"),
        b"<< /Length 20 /Filter /FlateDecode >>\nstream\n" + noise + b"\nendstream")
    return files


def mutations(data, rng, serial):
    """The next damaged variant of `data`, with its kind."""
    kind = serial % 4
    if kind == 0:
        spread = (serial // 4) % 16
        cut = len(data) * spread // 16 if spread else rng.randrange(1, len(data))
        return "trunc", data[:cut]
    if kind == 1:
        out = bytearray(data)
        for _ in range(rng.randint(1, 16)):
            position = rng.randrange(len(out))
            out[position] ^= 1 << rng.randrange(8)
        return "flip", bytes(out)
    if kind == 2:
        blocks = [m.group(0) for m in re.finditer(rb"\d+ \d+ obj.*?endobj", data, re.S)]
        rng.shuffle(blocks)
        if blocks and rng.random() < 0.3:
            blocks.pop(rng.randrange(len(blocks)))
        if blocks and rng.random() < 0.3:
            blocks.insert(rng.randrange(len(blocks)), rng.choice(blocks))
        head = data[:data.index(b"\n") + 1]
        tail_at = data.rfind(b"xref")
        tail = data[tail_at:] if tail_at >= 0 else b""
        return "shuffle", head + b"\n".join(blocks) + b"\n" + tail
    start = rng.randrange(len(data))
    length = rng.randint(1, 256)
    source = rng.randrange(len(data))
    return "splice", data[:start] + data[source:source + length] + data[start + length:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--count", type=int, default=1000, help="damaged variants of the seed documents")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--real", nargs="*", default=[], help="documents from elsewhere that join the seeds")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    seeds = [(os.path.splitext(os.path.basename(path))[0], open(os.path.join(ROOT, path), "rb").read()) for path in SEEDS]
    for path in args.real:
        name = os.path.splitext(os.path.basename(path))[0]
        seeds.append((name, open(path, "rb").read()))
        shutil.copyfile(path, os.path.join(args.out, "real-%s.pdf" % name))
    for serial in range(args.count):
        name, data = seeds[serial % len(seeds)]
        # The kinds go round within each pass over the seeds too, so that a small set has
        # every kind.
        kind, damaged = mutations(data, rng, serial // len(seeds) + serial % len(seeds))
        with open(os.path.join(args.out, "%s-%s-%04d.pdf" % (kind, name, serial)), "wb") as file:
            file.write(damaged)
    for name, data in hostile(rng).items():
        with open(os.path.join(args.out, name), "wb") as file:
            file.write(data)
    found = os.path.join(ROOT, "Tests", "Damaged", "Found")
    for name in sorted(os.listdir(found)):
        shutil.copyfile(os.path.join(found, name), os.path.join(args.out, "found-" + name))


if __name__ == "__main__":
    sys.exit(main())
