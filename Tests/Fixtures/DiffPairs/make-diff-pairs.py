#!/usr/bin/env python3
"""Writes the document pairs the diff and snapshot tests compare: base.pdf and variants of
it that each differ from it in one stated way. Run from anywhere; writes beside itself.

base.pdf: three US Letter pages (612 x 792 pt), Info /Title (Invoice 1001), fonts
Helvetica and Helvetica-Bold (standard, not embedded).
  page 1: "Invoice 1001" at (72, 700), "Total: 120.00 EUR" at (72, 660), and a red
          (0.8 0.1 0.1) rectangle 200 x 40 pt at (72, 560).
  page 2: six lines of text from (72, 700) down, 20 pt apart; the fourth is
          "The quick brown fox jumps over the lazy dog."
  page 3: an 8 x 8 RGB image (a checkerboard of blue and yellow) drawn 144 x 144 pt at
          (72, 500), and "Figure 1" at (72, 480).

The variants, each with exactly this difference from base.pdf:
  word.pdf           page 2's fourth line says "sleepy" for "lazy".
  colour.pdf         page 1's rectangle is blue (0.1 0.2 0.8).
  moved-image.pdf    page 3's image is drawn 36 pt further right, at (108, 500).
  inserted-page.pdf  a page between pages 1 and 2 reading "Appendix: terms and conditions"
                     (4 pages; base's pages 2 and 3 are its 3 and 4).
  rotated-page.pdf   page 2 has /Rotate 90.
  nudged.pdf         page 1's rectangle is drawn 0.3 pt further right (at 72.3): at 72 dpi its
                     left and right edges move by less than a pixel, nothing else changes.
  retitled.pdf       Info /Title (Invoice 1002); the pages are the same.
  same.pdf           base.pdf written again: the same pages and Info, byte for byte.
  engine-specific.pdf  page 1 also has a Square annotation without an appearance stream
                     (/Rect [300 400 500 500], red border 8 pt wide, blue inside). MuPDF and
                     Poppler draw one from those entries; Ghostscript 10.0 draws nothing
                     (at 36 dpi, `gs` differs from `mutool draw` in 15,187 pixels, `pdftoppm`
                     in 46, counted by ImageMagick's `compare -metric AE -fuzz 10%`).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from pdf_writer import pdf_file  # noqa: E402

LINES = [
    "Terms of payment: thirty days from the date of this invoice.",
    "Goods remain our property until paid in full.",
    "Questions about this invoice go to accounts@example.org.",
    "The quick brown fox jumps over the lazy dog.",
    "Bank: Example Bank, IBAN XX00 0000 0000 0000.",
    "Thank you for your order.",
]


def text(x, y, s, font=b"/F1", size=12):
    return b"BT %s %d Tf %d %d Td (%s) Tj ET\n" % (font, size, x, y, s.encode("latin-1"))


def pages(variant):
    first = text(72, 700, "Invoice 1001", b"/F2", 24) + text(72, 660, "Total: 120.00 EUR")
    colour = b"0.1 0.2 0.8" if variant == "colour" else b"0.8 0.1 0.1"
    first += colour + (b" rg 72.3 560 200 40 re f\n" if variant == "nudged" else b" rg 72 560 200 40 re f\n")
    lines = list(LINES)
    if variant == "word":
        lines[3] = lines[3].replace("lazy", "sleepy")
    second = b"".join(text(72, 700 - 20 * i, line) for i, line in enumerate(lines))
    x = 108 if variant == "moved-image" else 72
    third = b"q 144 0 0 144 %d 500 cm /Im1 Do Q\n" % x + text(x, 480, "Figure 1")
    result = [(first, b""), (second, b" /Rotate 90" if variant == "rotated-page" else b""), (third, b"")]
    if variant == "inserted-page":
        result.insert(1, (text(72, 700, "Appendix: terms and conditions", b"/F2", 18), b""))
    return result


def checkerboard():
    blue, yellow = b"\x20\x40\xc0", b"\xf0\xd0\x20"
    return b"".join((blue if (x + y) % 2 == 0 else yellow) for y in range(8) for x in range(8))


def document(variant):
    content = pages(variant)
    n = len(content)
    # 1 catalog, 2 pages, 3 info, 4 F1, 5 F2, 6 image, then page i at 7 + 2i, its content at 8 + 2i.
    kids = b" ".join(b"%d 0 R" % (7 + 2 * i) for i in range(n))
    title = b"Invoice 1002" if variant == "retitled" else b"Invoice 1001"
    image = checkerboard()
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, n),
        3: b"<< /Title (%s) /Producer (make-diff-pairs.py) >>" % title,
        4: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        5: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
        6: b"<< /Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Length %d >>\nstream\n"
        % len(image) + image + b"\nendstream",
    }
    if variant == "engine-specific":
        square = 7 + 2 * n
        objects[square] = b"<< /Type /Annot /Subtype /Square /Rect [300 400 500 500] /C [1 0 0] /IC [0 0 1] /BS << /W 8 >> /P 7 0 R >>"
        content[0] = (content[0][0], b" /Annots [%d 0 R]" % square)
    for i, (stream, extra) in enumerate(content):
        objects[7 + 2 * i] = (
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]%s /Resources << /Font << /F1 4 0 R /F2 5 0 R >> /XObject << /Im1 6 0 R >> >> /Contents %d 0 R >>"
            % (extra, 8 + 2 * i)
        )
        objects[8 + 2 * i] = b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"endstream"
    return pdf_file(objects, trailer=b" /Info 3 0 R")[0]


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    for name, variant in [("base", None), ("same", None), ("word", "word"), ("colour", "colour"), ("moved-image", "moved-image"),
                          ("inserted-page", "inserted-page"), ("rotated-page", "rotated-page"), ("retitled", "retitled"), ("nudged", "nudged"),
                         ("engine-specific", "engine-specific")]:
        with open(os.path.join(here, name + ".pdf"), "wb") as out:
            out.write(document(variant))
