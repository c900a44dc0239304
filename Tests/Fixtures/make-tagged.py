"""Makes tagged.pdf, a tagged document whose structure tree says what its layout does not,
and tagged.json, the structure the tree states, for the tests that read structure trees.

    python3 make-tagged.py OUT_DIR

tagged.pdf has two US Letter pages in the standard Helvetica and Helvetica-Bold (no font
embedded), /MarkInfo << /Marked true >>, /Lang (en-GB), a /StructTreeRoot with a /RoleMap
and a /ParentTree, and every piece of text in a marked-content sequence of its own (an
/MCID) that one structure element holds:

- page 1: a title (22 pt bold) tagged /Title, which the role map makes /H1; a paragraph
  (/P) of two lines, the first ending in a word broken by a hyphen ("pen-" / "cils"); a
  heading tagged /H2 but set exactly as body text (11 pt regular), which layout alone cannot
  tell from a paragraph; a paragraph whose middle word is a /Span of its own ("Ask the ",
  "staff", " at the desk."); a /Table of three rows (/TR) of a /TH or /TD each, with no
  ruling lines; a numbered list (/L of /LI, each a /Lbl "1." and an /LBody); a /Figure drawn
  as a grey rectangle whose /Alt is "Floor plan of the reading room"; and a page number
  at the foot marked as an /Artifact, outside the tree;
- page 2: a heading /H2, then two paragraphs drawn in the opposite order to the tree's: the
  first of the tree stands below the second on the page.

Link annotations: on page 1, one over the word "staff" (its box from Helvetica's widths) to
https://example.org/staff; on page 2, one over the tree's first paragraph to the top of
page 1 (/XYZ 0 792 0), and one over the second to a javascript: address, which no Markdown
or HTML written from the document may follow.

tagged.json holds the structure the tree states for each page, in the tree's order, in the
JSON of StructuredText's elements (kind and values). Needs python3 only."""

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
    """A page's content and the structure elements that own its marked content."""

    def __init__(self, number):
        self.number = number
        self.ops = []
        self.owners = []  # the structure element of each MCID, in MCID order

    def text(self, owner, tag, x, y, size, words, bold=False):
        """Shows `words` in a marked-content sequence owned by the element `owner`."""
        mcid = len(self.owners)
        self.owners.append(owner)
        font = "/F2" if bold else "/F1"
        self.ops.append(f"/{tag} << /MCID {mcid} >> BDC BT {font} {size} Tf {x} {y} Td ({escape(words)}) Tj ET EMC")
        return mcid

    def figure(self, owner, x, y, width, height):
        mcid = len(self.owners)
        self.owners.append(owner)
        self.ops.append(f"/Figure << /MCID {mcid} >> BDC 0.6 g {x} {y} {width} {height} re f 0 g EMC")
        return mcid

    def artifact(self, x, y, words):
        self.ops.append(f"/Artifact BMC BT /F1 9 Tf {x} {y} Td ({escape(words)}) Tj ET EMC")

    def stream(self):
        return ("\n".join(self.ops) + "\n").encode("latin-1")


class Element:
    """A structure element: its type, page, kids (elements or MCIDs) and extra entries."""

    def __init__(self, type, page=None, extra=""):
        self.type, self.page, self.extra, self.kids = type, page, extra, []
        self.number = None

    def add(self, kid):
        self.kids.append(kid)
        return kid


root = Element("Document")
pages = [Page(0), Page(1)]
expected = [[], []]
links = [[], []]  # each page's link annotations, as dictionary entries
expected_links = [[], []]


def element(parent, type, page, extra=""):
    return parent.add(Element(type, page, extra))


def marked(parent, type, page, tag, x, y, size, words, bold=False):
    """An element of `type` holding one marked-content sequence of `words`."""
    node = element(parent, type, page)
    node.add(pages[page].text(node, tag, x, y, size, words, bold))
    return node


# Page 1.
y = 720
marked(root, "Title", 0, "Title", LEFT, y, 22, "Guide to the Reading Room", bold=True)
expected[0].append({"kind": "heading", "level": 1, "text": "Guide to the Reading Room"})
y -= 36
paragraph = element(root, "P", 0)
for line in ["Readers may bring laptops and pen-", "cils; ink is not allowed near the collections."]:
    paragraph.add(pages[0].text(paragraph, "P", LEFT, y, 11, line))
    y -= 14
expected[0].append({"kind": "paragraph", "text": "Readers may bring laptops and pencils; ink is not allowed near the collections."})
y -= 14
marked(root, "H2", 0, "H2", LEFT, y, 11, "Opening hours")
expected[0].append({"kind": "heading", "level": 2, "text": "Opening hours"})
y -= 20
paragraph = element(root, "P", 0)
x = LEFT
for piece, tag in [("Ask the ", "P"), ("staff", "Span"), (" at the desk.", "P")]:
    owner = element(paragraph, "Span", 0) if tag == "Span" else paragraph
    mcid = pages[0].text(owner, tag, x, y, 11, piece)
    owner.add(mcid)
    if tag == "Span":
        # Helvetica's widths of s, t, a, f, f in thousandths of the font size.
        width = (500 + 278 + 556 + 278 + 278) * 11 / 1000
        links[0].append(f"/Rect [{x} {y - 3} {x + width:.2f} {y + 9}] /A << /S /URI /URI (https://example.org/staff) >>")
        expected_links[0].append({"element": len(expected[0]), "start": 8, "text": "staff",
                                  "destination": {"kind": "uri", "uri": "https://example.org/staff"}})
    x += 5.6 * len(piece)
expected[0].append({"kind": "paragraph", "text": "Ask the staff at the desk."})
y -= 28
table = element(root, "Table", 0)
rows = [["Day", "Hours"], ["Monday", "9 to 17"], ["Saturday", "10 to 13"]]
for number, row in enumerate(rows):
    tr = element(table, "TR", 0)
    for column, cell in enumerate(row):
        marked(tr, "TH" if number == 0 else "TD", 0, "TD", LEFT + 150 * column, y, 11, cell, bold=number == 0)
    y -= 18
expected[0].append({"kind": "table", "rows": rows})
y -= 14
steps = ["Show your reader's card", "Leave bags in the lockers", "Sign the register"]
listing = element(root, "L", 0)
for number, step in enumerate(steps, 1):
    item = element(listing, "LI", 0)
    marked(item, "Lbl", 0, "Lbl", LEFT + 6, y, 11, f"{number}.")
    marked(item, "LBody", 0, "LBody", LEFT + 22, y, 11, step)
    y -= 14
expected[0].append({"kind": "list", "ordered": True, "items": steps})
y -= 100
figure = element(root, "Figure", 0, "/Alt (Floor plan of the reading room)")
figure.add(pages[0].figure(figure, LEFT, y, 200, 80))
expected[0].append({"kind": "figure", "alternateText": "Floor plan of the reading room"})
pages[0].artifact(WIDTH / 2, 36, "1")

# Page 2: the tree's first paragraph is drawn below its second.
marked(root, "H2", 1, "H2", LEFT, 720, 16, "Lending", bold=True)
expected[1].append({"kind": "heading", "level": 2, "text": "Lending"})
first = "Books from the open shelves may be borrowed for three weeks."
second = "Rare books are read in the room and never leave it."
marked(root, "P", 1, "P", LEFT, 600, 11, first)
marked(root, "P", 1, "P", LEFT, 680, 11, second)
expected[1] += [{"kind": "paragraph", "text": first}, {"kind": "paragraph", "text": second}]
links[1].append(f"/Rect [{LEFT - 2} 596 540 610] /Dest [PAGE0 /XYZ 0 792 0]")
links[1].append(f"/Rect [{LEFT - 2} 676 540 690] /A << /S /URI /URI (javascript:alert\\(1\\)) >>")
expected_links[1] += [
    {"element": 1, "start": 0, "text": first, "destination": {"kind": "page", "index": 0, "point": {"x": 0, "y": 0},
                                                                "view": {"fit": "XYZ", "left": 0, "top": 0}}},
    {"element": 2, "start": 0, "text": second, "destination": {"kind": "uri", "uri": "javascript:alert(1)"}}]
pages[1].artifact(WIDTH / 2, 36, "2")

# Objects: 1 catalog, 2 pages, 3 and 4 fonts, 5 the tree root, 6 the parent tree,
# 7 onwards each page and its content, then the elements, then the link annotations.
objects = {3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
           4: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>"}
page_numbers = [7 + 2 * i for i in range(len(pages))]
next_number = 7 + 2 * len(pages)


def number_elements(node):
    global next_number
    node.number = next_number
    next_number += 1
    for kid in node.kids:
        if isinstance(kid, Element):
            number_elements(kid)


number_elements(root)


def write_element(node, parent):
    kids = []
    for kid in node.kids:
        if isinstance(kid, Element):
            kids.append(b"%d 0 R" % kid.number)
            write_element(kid, node.number)
        else:
            kids.append(b"%d" % kid)
    page = b" /Pg %d 0 R" % page_numbers[node.page] if node.page is not None else b""
    objects[node.number] = (b"<< /Type /StructElem /S /%s /P %d 0 R%s /K [%s] %s >>"
                            % (node.type.encode(), parent, page, b" ".join(kids), node.extra.encode()))


write_element(root, 5)
annotations = [[], []]
for i, page_links in enumerate(links):
    for entries in page_links:
        entries = entries.replace("PAGE0", "%d 0 R" % page_numbers[0])
        objects[next_number] = b"<< /Type /Annot /Subtype /Link /Border [0 0 0] %s >>" % entries.encode()
        annotations[i].append(b"%d 0 R" % next_number)
        next_number += 1
objects[1] = b"<< /Type /Catalog /Pages 2 0 R /StructTreeRoot 5 0 R /MarkInfo << /Marked true >> /Lang (en-GB) >>"
objects[2] = b"<< /Type /Pages /Count %d /Kids [%s] >>" % (len(pages), b" ".join(b"%d 0 R" % n for n in page_numbers))
objects[5] = b"<< /Type /StructTreeRoot /K [%d 0 R] /ParentTree 6 0 R /ParentTreeNextKey %d /RoleMap << /Title /H1 >> >>" % (root.number, len(pages))
objects[6] = b"<< /Nums [%s] >>" % b" ".join(
    b"%d [%s]" % (i, b" ".join(b"%d 0 R" % owner.number for owner in page.owners)) for i, page in enumerate(pages))
for i, page in enumerate(pages):
    content = page.stream()
    objects[page_numbers[i]] = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents %d 0 R /StructParents %d "
                                b"/Annots [%s] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> >>"
                                % (WIDTH, HEIGHT, page_numbers[i] + 1, i, b" ".join(annotations[i])))
    objects[page_numbers[i] + 1] = b"<< /Length %d >>\nstream\n" % len(content) + content + b"endstream"

out = sys.argv[1] if len(sys.argv) > 1 else "."
data, _ = pdf_file(objects)
open(os.path.join(out, "tagged.pdf"), "wb").write(data)
with open(os.path.join(out, "tagged.json"), "w") as file:
    json.dump({"pages": [{"index": i, "source": "structureTree", "elements": elements, "links": expected_links[i]}
                         for i, elements in enumerate(expected)]},
              file, indent=1, ensure_ascii=False)
    file.write("\n")
