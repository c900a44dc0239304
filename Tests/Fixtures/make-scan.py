"""Makes a scanned document from a PDF with text: an image-only PDF, each page of it a
picture of a page of the source, for text recognition's tests and benchmark.

    python3 make-scan.py SOURCE.pdf PAGES DPI OUT.pdf

PAGES is mutool's page list (7-10). Each source page is drawn by `mutool draw` in 8-bit gray
at DPI and becomes one page of OUT the size of the source's (to within a pixel), whose
only content draws that picture over the whole page: one image XObject, /DeviceGray, 8 bits,
the PNG's compressed rows stored as they are (FlateDecode with the PNG predictors), so
`pdfimages -list` gives DPI for x-ppi and y-ppi. OUT holds no text: `pdftotext` finds none.
Needs mutool and python3."""

import os
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pdf_writer import pdf_file  # noqa: E402


def png_rows(path):
    """The width, height and concatenated IDAT data of an 8-bit gray PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    position, idat, header = 8, bytearray(), None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert (depth, colour, interlace) == (8, 0, 0), f"{path}: not an 8-bit gray PNG without interlacing"
    zlib.decompressobj().decompress(bytes(idat))  # a stream zlib reads
    return width, height, bytes(idat)


def main():
    source, pages, dpi, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
    with tempfile.TemporaryDirectory() as folder:
        pattern = os.path.join(folder, "page-%04d.png")
        subprocess.run(["mutool", "draw", "-q", "-c", "gray", "-r", str(dpi), "-o", pattern, source, pages], check=True)
        images = sorted(os.listdir(folder))
        objects = {1: b"<< /Type /Catalog /Pages 2 0 R >>"}
        kids = []
        for number, name in enumerate(images):
            width, height, rows = png_rows(os.path.join(folder, name))
            w, h = width * 72 / dpi, height * 72 / dpi
            page, content, image = 3 + 3 * number, 4 + 3 * number, 5 + 3 * number
            drawing = b"q %.4f 0 0 %.4f 0 0 cm /Scan Do Q" % (w, h)
            objects[page] = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.4f %.4f] /Contents %d 0 R "
                             b"/Resources << /XObject << /Scan %d 0 R >> >> >>" % (w, h, content, image))
            objects[content] = b"<< /Length %d >>\nstream\n" % len(drawing) + drawing + b"\nendstream"
            objects[image] = (b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
                              b"/BitsPerComponent 8 /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 1 "
                              b"/BitsPerComponent 8 /Columns %d >> /Length %d >>\nstream\n" % (width, height, width, len(rows))
                              + rows + b"\nendstream")
            kids.append(b"%d 0 R" % page)
        objects[2] = b"<< /Type /Pages /Kids [" + b" ".join(kids) + b"] /Count %d >>" % len(kids)
        data, _ = pdf_file(objects)
        with open(out + ".partial", "wb") as file:
            file.write(data)
        os.replace(out + ".partial", out)


if __name__ == "__main__":
    main()
