"""Reads an HTML document with Python's own parser, or a Markdown one (.md) turned into
HTML by markdown-it-py (CommonMark with GitHub's tables), and prints the elements its body
holds, in order, as JSON: {"heading": level, "text": ...}, {"paragraph": ...}, {"code": ...},
{"list": "ordered"|"unordered", "items": [...]}, {"table": [[cell, ...], ...]},
{"figure": description} (an HTML figure's caption, or a Markdown paragraph that is only an
emphasis beginning "Figure"), {"link": words, "href": address} for each link (before the
element that holds it), and the title as {"title": ...}. A witness for `hostapp text --format html|markdown` that shares no
code with it.

    python3 html_structure.py FILE.html|FILE.md"""

import html.parser
import json
import sys


class Reader(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements, self.text, self.stack = [], None, []
        self.items = self.rows = None
        self.emphasis = None
        self.link = None

    def handle_starttag(self, tag, attrs):
        self.stack.append(tag)
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "td", "th", "title", "figcaption") or (tag == "code" and "pre" in self.stack):
            self.text = ""
            self.emphasis = None
        elif tag == "em" and self.stack[-2:-1] == ["p"] and self.text == "":
            self.emphasis = True
        elif tag == "a":
            self.link = (dict(attrs).get("href"), len(self.text or ""))
        elif tag in ("ul", "ol"):
            self.items = []
        elif tag == "table":
            self.rows = []
        elif tag == "tr":
            self.rows.append([])

    def handle_endtag(self, tag):
        self.stack.pop()
        if tag.startswith("h") and len(tag) == 2 and tag[1].isdigit():
            self.elements.append({"heading": int(tag[1]), "text": self.text})
        elif tag == "p" and self.emphasis is False and self.text.startswith("Figure"):
            self.elements.append({"figure": self.text.removeprefix("Figure").removeprefix(": ")})
        elif tag == "p":
            self.elements.append({"paragraph": self.text})
        elif tag == "em" and self.emphasis:
            self.emphasis = False
        elif tag == "a" and self.link:
            self.elements.append({"link": (self.text or "")[self.link[1]:], "href": self.link[0]})
            self.link = None
        elif tag == "figcaption":
            self.elements.append({"figure": "" if self.text == "Figure" else self.text})
        elif tag == "code" and "pre" in self.stack:
            self.elements.append({"code": self.text.removesuffix("\n")})
        elif tag == "title":
            self.elements.append({"title": self.text})
        elif tag == "li":
            self.items.append(self.text)
        elif tag in ("ul", "ol"):
            self.elements.append({"list": "ordered" if tag == "ol" else "unordered", "items": self.items})
        elif tag in ("td", "th"):
            self.rows[-1].append(self.text)
        elif tag == "table":
            self.elements.append({"table": self.rows})

    def handle_data(self, data):
        if self.text is not None:
            self.text += data
        if self.emphasis is False:
            self.emphasis = None


reader = Reader()
text = open(sys.argv[1], encoding="utf-8").read()
if sys.argv[1].endswith(".md"):
    from markdown_it import MarkdownIt
    text = MarkdownIt("commonmark").enable("table").render(text)
reader.feed(text)
reader.close()
print(json.dumps(reader.elements, ensure_ascii=False))
