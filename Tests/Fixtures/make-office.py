"""Makes office.fodt, a word-processor document whose structure is known, and has
LibreOffice export it twice: office-tagged.pdf (a tagged PDF, with its structure tree) and
office.pdf (untagged); office.json holds the structure written, for the tests of text with
its structure on documents an office suite made.

    python3 make-office.py OUT_DIR

office.fodt (OpenDocument's flat XML, written here) holds, in order: a heading of level 1
(20 pt bold), a paragraph, a heading of level 2 (15 pt bold), a bulleted list of three items,
a heading of level 2, a table of four rows and three columns with a border on every cell
(the first row the header; the second row's first cell runs over three lines), a picture (a 120 x 60 gray gradient PNG drawn 6 x 3 cm in a
paragraph of its own, its description "Map of the parish"), a heading of level 3 (12.5 pt bold), a numbered list of three
items, a heading of level 2 and a paragraph with a link to https://example.org/council on
the words "the council's site". Body text is 11 pt Liberation Sans; everything fits on one
A4 page. office.json lists those elements in StructuredText's JSON (kind and values), and
the link (its words and address).

Needs python3 and LibreOffice's writer (Debian's libreoffice-writer-nogui): `soffice
--headless --convert-to pdf`, with the export filter's UseTaggedPDF option for the tagged
file."""

import base64
import json
import os
import struct
import zlib
import shutil
import subprocess
import sys
import tempfile
from xml.sax.saxutils import escape

HEADINGS = {1: "20pt", 2: "15pt", 3: "12.5pt"}

elements = [
    {"kind": "heading", "level": 1, "text": "Parish Council Minutes"},
    {"kind": "paragraph", "text": "The council met in the village hall on the first Monday of the month. "
                                  "Nine members were present and the clerk took the minutes."},
    {"kind": "heading", "level": 2, "text": "Attendance"},
    {"kind": "list", "ordered": False, "items": ["Members of the council", "The clerk and the treasurer",
                                                 "Mrs Müller and Mr Ødegård of Mill Lane"]},
    {"kind": "heading", "level": 2, "text": "Budget"},
    {"kind": "table", "rows": [["Item", "Spent", "Planned"], ["Footpaths along the river and by the old church to the mill", "1200", "1500"],
                               ["Playground", "800", "750"], ["Lighting", "430", "500"]]},
    {"kind": "figure", "alternateText": "Map of the parish"},
    {"kind": "heading", "level": 3, "text": "Decisions"},
    {"kind": "list", "ordered": True, "items": ["Repair the footpath by the church", "Paint the playground fence",
                                                "Ask for quotes for new lamps"]},
    {"kind": "heading", "level": 2, "text": "Next Meeting"},
    {"kind": "paragraph", "text": "The next meeting is on the third of March. See the council's site for papers."},
]
LINK = {"text": "the council's site", "uri": "https://example.org/council"}


def gradient_png(width=120, height=60):
    """A gray PNG whose columns go from black to white."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes(x * 255 // (width - 1) for x in range(width)) for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def body():
    out = []
    for element in elements:
        kind = element["kind"]
        if kind == "heading":
            out.append(f'<text:h text:style-name="Heading_20_{element["level"]}" text:outline-level="{element["level"]}">'
                       f'{escape(element["text"])}</text:h>')
        elif kind == "paragraph":
            text = escape(element["text"])
            words = escape(LINK["text"])
            if words in text:
                text = text.replace(words, f'<text:a xlink:type="simple" xlink:href="{LINK["uri"]}">{words}</text:a>')
            out.append(f'<text:p text:style-name="Body">{text}</text:p>')
        elif kind == "list":
            style = "Numbers" if element["ordered"] else "Bullets"
            items = "".join(f'<text:list-item><text:p text:style-name="Body">{escape(item)}</text:p></text:list-item>'
                            for item in element["items"])
            out.append(f'<text:list text:style-name="{style}">{items}</text:list>')
        elif kind == "table":
            rows = []
            for number, row in enumerate(element["rows"]):
                cells = "".join(f'<table:table-cell table:style-name="Cell" office:value-type="string">'
                                f'<text:p text:style-name="{"Header" if number == 0 else "Body"}">{escape(cell)}</text:p>'
                                f'</table:table-cell>' for cell in row)
                rows.append(f"<table:table-row>{cells}</table:table-row>")
            out.append(f'<table:table table:name="Budget" table:style-name="Table">'
                       f'<table:table-column table:number-columns-repeated="3"/>{"".join(rows)}</table:table>')
        elif kind == "figure":
            picture = base64.b64encode(gradient_png()).decode("ascii")
            description = escape(element["alternateText"])
            out.append(f'<text:p text:style-name="Body"><draw:frame draw:name="Map" svg:width="6cm" svg:height="3cm" '
                       f'text:anchor-type="as-char"><draw:image><office:binary-data>{picture}</office:binary-data></draw:image>'
                       f'<svg:desc>{description}</svg:desc></draw:frame></text:p>')
    return "\n".join(out)


heading_styles = "".join(
    f'<style:style style:name="Heading_20_{level}" style:display-name="Heading {level}" style:family="paragraph" '
    f'style:default-outline-level="{level}"><style:paragraph-properties fo:margin-top="0.4cm" fo:margin-bottom="0.2cm"/>'
    f'<style:text-properties style:font-name="Liberation Sans" fo:font-size="{size}" fo:font-weight="bold"/></style:style>'
    for level, size in HEADINGS.items())

document = f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 xmlns:xlink="http://www.w3.org/1999/xlink"
 xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
 xmlns:dc="http://purl.org/dc/elements/1.1/"
 xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"
 office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:meta><dc:title>Parish Council Minutes</dc:title><dc:language>en-GB</dc:language></office:meta>
<office:font-face-decls><style:font-face style:name="Liberation Sans" svg:font-family="'Liberation Sans'"/></office:font-face-decls>
<office:styles>
<style:style style:name="Body" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.2cm"/>
<style:text-properties style:font-name="Liberation Sans" fo:font-size="11pt" fo:language="en" fo:country="GB"/></style:style>
<style:style style:name="Header" style:family="paragraph" style:parent-style-name="Body"><style:text-properties fo:font-weight="bold"/></style:style>
{heading_styles}
<text:list-style style:name="Bullets"><text:list-level-style-bullet text:level="1" text:bullet-char="•">
<style:list-level-properties text:list-level-position-and-space-mode="label-alignment"><style:list-level-label-alignment text:label-followed-by="listtab" text:list-tab-stop-position="0.8cm" fo:text-indent="-0.5cm" fo:margin-left="0.8cm"/></style:list-level-properties>
</text:list-level-style-bullet></text:list-style>
<text:list-style style:name="Numbers"><text:list-level-style-number text:level="1" style:num-format="1" style:num-suffix=".">
<style:list-level-properties text:list-level-position-and-space-mode="label-alignment"><style:list-level-label-alignment text:label-followed-by="listtab" text:list-tab-stop-position="0.8cm" fo:text-indent="-0.5cm" fo:margin-left="0.8cm"/></style:list-level-properties>
</text:list-level-style-number></text:list-style>
</office:styles>
<office:automatic-styles>
<style:style style:name="Table" style:family="table"><style:table-properties style:width="14cm" table:align="left"/></style:style>
<style:style style:name="Cell" style:family="table-cell"><style:table-cell-properties fo:padding="0.1cm" fo:border="0.5pt solid #000000"/></style:style>
</office:automatic-styles>
<office:body><office:text>
{body()}
</office:text></office:body>
</office:document>
"""

out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
work = tempfile.mkdtemp(prefix="make-office-")
try:
    source = os.path.join(work, "office.fodt")
    with open(source, "w", encoding="utf-8") as file:
        file.write(document)
    profile = "file://" + os.path.join(work, "profile")
    for name, tagged in [("office.pdf", False), ("office-tagged.pdf", True)]:
        options = '{"UseTaggedPDF":{"type":"boolean","value":"%s"}}' % ("true" if tagged else "false")
        subprocess.run(["soffice", "-env:UserInstallation=" + profile, "--headless", "--convert-to",
                        "pdf:writer_pdf_Export:" + options, "--outdir", work, source],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.move(os.path.join(work, "office.pdf"), os.path.join(out, name))
finally:
    shutil.rmtree(work, ignore_errors=True)
with open(os.path.join(out, "office.json"), "w") as file:
    json.dump({"elements": elements, "link": LINK}, file, indent=1, ensure_ascii=False)
    file.write("\n")
