"""Makes structure.pdf, an untagged document whose structure is known, and structure.json,
that structure, for the tests of text with its structure (Markdown and HTML).

    python3 make-structure.py OUT_DIR

structure.pdf has two US Letter pages set in the standard Helvetica and Helvetica-Bold (no
font embedded, no structure tree, no marked content):

- page 1: a title (22 pt bold), a paragraph whose first line ends in a hyphenated word
  ("conser-" / "vation"), a heading (16 pt bold), a bulleted list of three items (the second
  wrapped onto an indented second line), a heading, a table of four rows and three columns
  (the first row bold) drawn with ruling lines, a heading (13 pt bold) and a numbered list;
- page 2: a heading across the page, then two columns whose lines share baselines: each
  column a heading (13 pt bold) and a paragraph of six lines, the left column read first.

Body text is 11 pt with 14 pt between baselines; 20 pt or more separate blocks. structure.json
holds the headings (level and text, levels by size: 22 pt is 1, 16 pt is 2, 13 pt is 3), the
paragraphs (their lines joined by spaces, the hyphen of a broken word removed), the lists and
the table's cells, each in reading order. Needs python3 only."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pdf_writer import pdf_file  # noqa: E402

WIDTH, HEIGHT = 612, 792
LEFT = 72


def escape(text):
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


class Page:
    def __init__(self):
        self.ops = []

    def text(self, x, y, size, words, bold=False):
        font = "/F2" if bold else "/F1"
        self.ops.append(f"BT {font} {size} Tf {x} {y} Td ({escape(words)}) Tj ET")

    def rule(self, x0, y0, x1, y1):
        self.ops.append(f"{x0} {y0} m {x1} {y1} l S")

    def stream(self):
        return ("0.5 w\n" + "\n".join(self.ops) + "\n").encode("latin-1")


structure = {"pages": []}


def page_one():
    page, expected = Page(), []
    y = 720
    page.text(LEFT, y, 22, "Annual Report of the River Trust", bold=True)
    expected.append({"heading": 1, "text": "Annual Report of the River Trust"})
    y -= 36
    lines = ["The trust looks after forty miles of river and its banks. Its conser-",
             "vation work this year covered planting, clearing and the survey of",
             "water quality at six sites along the main channel."]
    for line in lines:
        page.text(LEFT, y, 11, line)
        y -= 14
    expected.append({"paragraph": "The trust looks after forty miles of river and its banks. Its conservation work "
                                  "this year covered planting, clearing and the survey of water quality at six sites "
                                  "along the main channel."})
    y -= 14
    page.text(LEFT, y, 16, "Members and Roles", bold=True)
    expected.append({"heading": 2, "text": "Members and Roles"})
    y -= 26
    items = [["Volunteers who walk the banks each month"],
             ["Wardens who keep the records of every survey and send them to the",
              "regional office before the end of each quarter"],
             ["Trustees who meet four times a year"]]
    for item in items:
        page.text(LEFT + 6, y, 11, "\u2022".encode("cp1252").decode("latin-1"))
        for number, line in enumerate(item):
            page.text(LEFT + 20, y, 11, line)
            y -= 14
    expected.append({"list": "unordered", "items": [" ".join(item) for item in items]})
    y -= 14
    page.text(LEFT, y, 16, "Water Quality by Site", bold=True)
    expected.append({"heading": 2, "text": "Water Quality by Site"})
    y -= 30
    rows = [["Site", "Nitrate (mg/l)", "Status"],
            ["Mill Bridge", "4.2", "Good"],
            ["Long Meadow", "7.9", "Moderate"],
            ["Weir Pool", "11.3", "Poor"]]
    columns = [LEFT, LEFT + 160, LEFT + 300, LEFT + 420]
    top = y + 16
    for index, row in enumerate(rows):
        for column, cell in enumerate(row):
            page.text(columns[column] + 6, y, 11, cell, bold=index == 0)
        y -= 22
    bottom = y + 16
    for line in range(len(rows) + 1):
        page.rule(columns[0], top - 22 * line, columns[-1], top - 22 * line)
    for x in columns:
        page.rule(x, top, x, bottom)
    expected.append({"table": rows})
    y -= 20
    page.text(LEFT, y, 13, "Method", bold=True)
    expected.append({"heading": 3, "text": "Method"})
    y -= 22
    steps = ["Take the sample at mid-stream", "Seal and label the bottle", "Post it within a day"]
    for number, step in enumerate(steps, 1):
        page.text(LEFT + 6, y, 11, f"{number}.")
        page.text(LEFT + 20, y, 11, step)
        y -= 14
    expected.append({"list": "ordered", "items": steps})
    return page, expected


def page_two():
    page, expected = Page(), []
    y = 720
    page.text(LEFT, y, 16, "Field Notes", bold=True)
    expected.append({"heading": 2, "text": "Field Notes"})
    y -= 30
    right = LEFT + 250
    columns = [("Spring Survey", ["High water in March kept the survey", "teams off the lower banks for most of",
                                  "the month, so the first samples came", "from the upper reach, where the flow",
                                  "was fast and the water clear after", "the snow melt."]),
               ("Autumn Survey", ["Low water in September showed the", "old weir stones and a bank of silt",
                                  "below the mill, which the wardens", "measured and photographed for the",
                                  "report to the regional office and the", "county council."])]
    for x, (heading, lines) in zip([LEFT, right], columns):
        line_y = y
        page.text(x, line_y, 13, heading, bold=True)
        line_y -= 22
        for line in lines:
            page.text(x, line_y, 11, line)
            line_y -= 14
        expected.append({"heading": 3, "text": heading})
        expected.append({"paragraph": " ".join(lines)})
    return page, expected


pages = [page_one(), page_two()]
objects = {1: b"<< /Type /Catalog /Pages 2 0 R >>",
           2: b"<< /Type /Pages /Count %d /Kids [%s] >>" % (len(pages), b" ".join(b"%d 0 R" % (5 + 2 * i) for i in range(len(pages)))),
           3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
           4: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>"}
for i, (page, expected) in enumerate(pages):
    content = page.stream()
    objects[5 + 2 * i] = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents %d 0 R "
                          b"/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> >>" % (WIDTH, HEIGHT, 6 + 2 * i))
    objects[6 + 2 * i] = b"<< /Length %d >>\nstream\n" % len(content) + content + b"endstream"
    structure["pages"].append(expected)

out = sys.argv[1] if len(sys.argv) > 1 else "."
data, _ = pdf_file(objects)
open(os.path.join(out, "structure.pdf"), "wb").write(data)
with open(os.path.join(out, "structure.json"), "w") as file:
    json.dump(structure, file, indent=1, ensure_ascii=False)
    file.write("\n")
