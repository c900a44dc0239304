#!/usr/bin/env python3
"""`hostapp mcp` held to the Model Context Protocol by an independent client: the Python
`mcp` package (PyPI), which starts the real hostapp on a folder of fixtures and speaks to it
over standard input and output, as an agent's host does.

The folder (made for each test class in a temporary directory) holds copies of fixtures whose
properties Tests/Fixtures/make-fixtures.sh states: text.pdf (3 pages, "The quick brown fox
jumps over the lazy dog" on page 1), outline.pdf (Chapter 1 > Section 1.1, 1.2; Chapter 2 >
Section 2.1; Website), forms.pdf (one field of each kind), restricted.pdf (opens without a
password, printing forbidden by its owner), search.pdf ("Apple apple APPLE pineapple"), a PDF
in a subfolder; and what must never be served: a hidden PDF, a file that is no PDF under a
.pdf name, a symbolic link to a PDF outside the folder. Witnesses: pypdf reads what a write
left in the file, and Poppler's pdftotext what the page says.

  test_mcp.py BIN_DIR [unittest arguments]     (BIN_DIR holds hostapp and hostapp-full)
"""
import asyncio
import base64
import json
import re
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

import pypdf
from markdown_it import MarkdownIt
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures")
BIN = None
# Every wait of these tests: the client's read timeout for one answer.
ANSWER_TIMEOUT = 120


def make_folder():
    """A folder of fixtures, and what lies beside it (outside what is served)."""
    base = tempfile.mkdtemp(prefix="hostapp-mcp-")
    folder = os.path.join(base, "served")
    os.makedirs(os.path.join(folder, "reports"))
    for name in ["text.pdf", "outline.pdf", "forms.pdf", "restricted.pdf", "search.pdf", "annotations.pdf", "images.pdf", "structure.pdf", "tagged.pdf"]:
        shutil.copy(os.path.join(FIXTURES, name), folder)
    shutil.copy(os.path.join(FIXTURES, "text.pdf"), os.path.join(folder, "reports", "q3.pdf"))
    shutil.copy(os.path.join(FIXTURES, "text.pdf"), os.path.join(folder, ".hidden.pdf"))
    shutil.copy(os.path.join(FIXTURES, "not-a-pdf.pdf"), os.path.join(folder, "fake.pdf"))
    outside = os.path.join(base, "outside.pdf")
    shutil.copy(os.path.join(FIXTURES, "text.pdf"), outside)
    os.symlink(outside, os.path.join(folder, "link.pdf"))
    return base, folder


class MCPClient:
    """One hostapp mcp process and a client session to it, for the length of a test."""

    def __init__(self, folder, extra=()):
        self.parameters = StdioServerParameters(
            command=os.path.join(BIN, "hostapp"), args=list(extra) + ["mcp", folder], env=dict(os.environ))

    async def __aenter__(self):
        self.streams = stdio_client(self.parameters)
        read, write = await self.streams.__aenter__()
        self.session = ClientSession(read, write, read_timeout_seconds=__import__("datetime").timedelta(seconds=ANSWER_TIMEOUT))
        await self.session.__aenter__()
        await self.session.initialize()
        return self

    async def __aexit__(self, *details):
        await self.session.__aexit__(*details)
        await self.streams.__aexit__(*details)

    async def call(self, tool, arguments):
        return await self.session.call_tool(tool, arguments)


def run(coroutine):
    return asyncio.run(coroutine)


def text_of(result):
    return "".join(item.text for item in result.content if item.type == "text")


class MCPTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.base, cls.folder = make_folder()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.base, ignore_errors=True)

    def ok(self, result):
        self.assertFalse(result.isError, text_of(result))
        return result.structuredContent

    def refused(self, result, code, words):
        self.assertTrue(result.isError, text_of(result))
        self.assertEqual(result.structuredContent["code"], code, text_of(result))
        self.assertIn(words, text_of(result))
        self.assertNotIn(self.base, text_of(result), "a message names the server's paths")

    def test_tools_are_listed_with_their_schemas(self):
        async def body():
            async with MCPClient(self.folder) as client:
                tools = {tool.name: tool for tool in (await client.session.list_tools()).tools}
                self.assertEqual(set(tools), {"list_documents", "document_info", "get_text", "search", "render_page", "get_outline",
                                              "list_annotations", "add_annotation", "list_form_fields", "fill_form", "list_images", "get_image"})
                self.assertEqual(tools["search"].inputSchema["required"], ["document", "query"])
                self.assertFalse(tools["search"].inputSchema["additionalProperties"])
                self.assertTrue(tools["get_text"].annotations.readOnlyHint)
                self.assertFalse(tools["fill_form"].annotations.readOnlyHint)
        run(body())

    def test_only_the_folders_pdfs_are_listed(self):
        async def body():
            async with MCPClient(self.folder) as client:
                listed = self.ok(await client.call("list_documents", {}))["documents"]
                self.assertEqual(listed, ["annotations.pdf", "forms.pdf", "images.pdf", "outline.pdf", "reports/q3.pdf", "restricted.pdf", "search.pdf", "structure.pdf", "tagged.pdf", "text.pdf"])
                resources = (await client.session.list_resources()).resources
                self.assertEqual(sorted(r.name for r in resources), listed)
                page = await client.session.read_resource([r.uri for r in resources if r.name == "reports/q3.pdf"][0])
                self.assertIn("The quick brown fox jumps over the lazy dog", page.contents[0].text)
                # Addresses a stranger writes: out of the folder, another scheme, a hidden file.
                for uri in ["hostapp://documents/..%2Foutside.pdf", "hostapp://documents/link.pdf", "file:///etc/passwd",
                            "hostapp://documents/.hidden.pdf", "hostapp://documents/%00"]:
                    with self.assertRaises(Exception, msg=uri) as refused:
                        await client.session.read_resource(uri)
                    self.assertNotIn(self.base, str(refused.exception))
        run(body())

    def test_facts_text_outline_and_fields_match_the_witnesses(self):
        async def body():
            async with MCPClient(self.folder) as client:
                info = self.ok(await client.call("document_info", {"document": "text.pdf"}))
                self.assertEqual(info["pages"], len(pypdf.PdfReader(os.path.join(self.folder, "text.pdf")).pages))
                self.assertEqual(info["firstPageSize"], {"width": 612, "height": 792})
                text = self.ok(await client.call("get_text", {"document": "text.pdf", "pages": "1-2"}))
                self.assertEqual([p["page"] for p in text["pages"]], [1, 2])
                for page in text["pages"]:
                    witness = subprocess.run(["pdftotext", "-f", str(page["page"]), "-l", str(page["page"]), os.path.join(self.folder, "text.pdf"), "-"],
                                             capture_output=True, text=True, check=True).stdout
                    self.assertEqual(page["text"].split(), witness.split())
                outline = self.ok(await client.call("get_outline", {"document": "outline.pdf"}))["outline"]
                self.assertEqual([item["title"] for item in outline], ["Chapter 1", "Chapter 2", "Website"])
                self.assertEqual([child["title"] for child in outline[0]["children"]], ["Section 1.1", "Section 1.2"])
                reader = pypdf.PdfReader(os.path.join(self.folder, "outline.pdf"))
                self.assertEqual(outline[0]["children"][0]["page"], reader.get_destination_page_number(reader.outline[1][0]) + 1)
                self.assertTrue(outline[2]["uri"].startswith("http"))
                fields = self.ok(await client.call("list_form_fields", {"document": "forms.pdf"}))["fields"]
                self.assertEqual({f["name"] for f in fields} - {"person"},
                                 set(pypdf.PdfReader(os.path.join(self.folder, "forms.pdf")).get_fields()) - {"person"})
        run(body())

    def test_markdown_has_the_structure_the_fixture_was_made_with(self):
        """get_text with format markdown: structure.json's headings, lists and table, read
        back from the Markdown by markdown-it-py."""
        async def body():
            async with MCPClient(self.folder) as client:
                answer = self.ok(await client.call("get_text", {"document": "structure.pdf", "format": "markdown"}))
                html = MarkdownIt("commonmark").enable("table").render("\n\n".join(page["text"] for page in answer["pages"]))
                with open(os.path.join(FIXTURES, "structure.json")) as source:
                    pages = json.load(source)["pages"]
                headings = [f"<h{e['heading']}>{e['text']}</h{e['heading']}>" for page in pages for e in page if "heading" in e]
                self.assertEqual(re.findall(r"<h[1-6]>.*?</h[1-6]>", html), headings)
                table = next(e["table"] for page in pages for e in page if "table" in e)
                self.assertEqual(re.findall(r"<t[hd]>(.*?)</t[hd]>", html), [cell for row in table for cell in row])
                self.assertIn("<li>Wardens who keep the records of every survey and send them to the regional office before the end of each quarter</li>", html)
                self.refused(await client.call("get_text", {"document": "structure.pdf", "format": "yaml"}), "invalid-argument", "format must be plain or markdown")
        run(body())

    def test_markdown_of_a_tagged_document_follows_its_structure_tree(self):
        """get_text with format markdown on tagged.pdf under Poppler: the headings its tree
        states (one set as body text), page 2's paragraphs in the tree's order, the link to a
        web address and none to javascript:; under MuPDF, which reads no tree, that heading
        is a paragraph."""
        async def body():
            async with MCPClient(self.folder, ["--renderer", "poppler"]) as client:
                answer = self.ok(await client.call("get_text", {"document": "tagged.pdf", "format": "markdown"}))
                html = MarkdownIt("commonmark").render("\n\n".join(page["text"] for page in answer["pages"]))
                self.assertEqual(re.findall(r"<h[1-6]>.*?</h[1-6]>", html),
                                 ["<h1>Guide to the Reading Room</h1>", "<h2>Opening hours</h2>", "<h2>Lending</h2>"])
                self.assertIn('<p>Ask the <a href="https://example.org/staff">staff</a> at the desk.</p>', html)
                self.assertNotIn("javascript", html)
                self.assertLess(html.index("Books from the open shelves"), html.index("Rare books are read"))
            async with MCPClient(self.folder, ["--renderer", "mupdf"]) as client:
                answer = self.ok(await client.call("get_text", {"document": "tagged.pdf", "format": "markdown", "pages": "1"}))
                html = MarkdownIt("commonmark").render(answer["pages"][0]["text"])
                self.assertIn("<p>Opening hours</p>", html)
        run(body())

    def test_search_gives_boxes_on_the_page_and_its_line(self):
        async def body():
            async with MCPClient(self.folder) as client:
                found = self.ok(await client.call("search", {"document": "search.pdf", "query": "apple", "pages": "1"}))
                # Case-insensitive: Apple, apple, APPLE and the apple inside pineapple.
                self.assertEqual(len(found["hits"]), 4, found)
                self.assertTrue(found["complete"])
                for hit in found["hits"]:
                    self.assertEqual(hit["page"], 1)
                    self.assertIn("pineapple", hit["line"])
                    self.assertTrue(0 < hit["bounds"]["size"]["width"] < 612 and 0 < hit["bounds"]["origin"]["y"] < 792, hit)
                whole = self.ok(await client.call("search", {"document": "search.pdf", "query": "apple", "pages": "1", "wholeWord": True, "caseSensitive": True}))
                self.assertEqual(len(whole["hits"]), 1)
                limited = self.ok(await client.call("search", {"document": "search.pdf", "query": "apple", "limit": 2}))
                self.assertEqual((len(limited["hits"]), limited["complete"]), (2, False))
        run(body())

    def test_with_ocr_a_scans_text_is_read_and_searched(self):
        # Page 7 of R-intro drawn at 300 dpi into an image-only PDF (make-scan.py): no text of
        # its own; with --ocr, Tesseract reads it, "Venables" twice where the source has it.
        folder = os.path.join(self.base, "scans")
        os.makedirs(folder, exist_ok=True)
        subprocess.run([sys.executable, os.path.join(FIXTURES, "make-scan.py"), "/usr/share/R/doc/manual/R-intro.pdf", "7", "300",
                        os.path.join(folder, "scan.pdf")], check=True)

        async def body():
            async with MCPClient(folder) as client:
                plain = self.ok(await client.call("get_text", {"document": "scan.pdf"}))
                self.assertEqual(" ".join(plain["pages"][0]["text"].split()), "", plain)
            async with MCPClient(folder, extra=["--ocr"]) as client:
                read = self.ok(await client.call("get_text", {"document": "scan.pdf"}))
                self.assertIn("This introduction to R is derived from an original set of notes", " ".join(read["pages"][0]["text"].split()))
                found = self.ok(await client.call("search", {"document": "scan.pdf", "query": "Venables"}))
                self.assertEqual(len(found["hits"]), 2, found)
                self.assertTrue(abs(found["hits"][0]["bounds"]["origin"]["x"] - 313.3) < 1.5, found)
        run(body())

    def test_a_page_image_is_a_png_of_the_page_size_asked(self):
        async def body():
            async with MCPClient(self.folder) as client:
                result = await client.call("render_page", {"document": "text.pdf", "page": 1, "dpi": 36})
                self.assertFalse(result.isError, text_of(result))
                image = result.content[0]
                self.assertEqual((image.type, image.mimeType), ("image", "image/png"))
                png = base64.b64decode(image.data)
                self.assertEqual(png[:8], b"\x89PNG\r\n\x1a\n")
                self.assertEqual(struct.unpack(">II", png[16:24]), (306, 396))  # 612 x 792 points at 36 dpi
                # An export: restricted.pdf's owner forbids printing.
                self.refused(await client.call("render_page", {"document": "restricted.pdf", "page": 1}), "not-permitted", "permission print")
        run(body())

    def test_images_are_listed_as_pdfimages_lists_them_and_given_as_files(self):
        # images.pdf (make-fixtures.sh): 15 images on 3 pages; number 2 is image.jpg's bytes,
        # number 0 a 4 x 2 RGB image.
        async def body():
            async with MCPClient(self.folder) as client:
                images = self.ok(await client.call("list_images", {"document": "images.pdf"}))["images"]
                rows = subprocess.run(["pdfimages", "-list", os.path.join(self.folder, "images.pdf")],
                                      capture_output=True, text=True, check=True).stdout.splitlines()[2:]
                self.assertEqual([(i["pageIndex"] + 1, i["role"], i["width"], i["height"]) for i in images],
                                 [(int(r.split()[0]), r.split()[2], int(r.split()[3]), int(r.split()[4])) for r in rows])
                third = self.ok(await client.call("list_images", {"document": "images.pdf", "pages": "3"}))["images"]
                self.assertEqual([i["number"] for i in third], [13, 14])
                jpeg = (await client.call("get_image", {"document": "images.pdf", "number": 2})).content[0]
                with open(os.path.join(FIXTURES, "image.jpg"), "rb") as original:
                    self.assertEqual((jpeg.mimeType, base64.b64decode(jpeg.data)), ("image/jpeg", original.read()))
                png = (await client.call("get_image", {"document": "images.pdf", "number": 0})).content[0]
                self.assertEqual(png.mimeType, "image/png")
                self.assertEqual(struct.unpack(">II", base64.b64decode(png.data)[16:24]), (4, 2))
                self.refused(await client.call("get_image", {"document": "images.pdf", "number": 15}), "invalid-argument", "image 15 does not exist")
                self.refused(await client.call("get_image", {"document": "images.pdf", "number": -1}), "invalid-argument", "number must be from 0")
                self.refused(await client.call("get_image", {"document": "images.pdf"}), "invalid-argument", "number is required")
        run(body())
        # A PDF whose owner forbids copying gives its list and search (reading), not its
        # images or its text (copying).
        locked = tempfile.mkdtemp(prefix="hostapp-mcp-locked-")
        try:
            subprocess.run(["qpdf", "--encrypt", "", "owner-secret", "256", "--extract=n", "--",
                            os.path.join(FIXTURES, "images.pdf"), os.path.join(locked, "locked.pdf")], check=True)
            async def refused():
                async with MCPClient(locked) as client:
                    self.assertEqual(len(self.ok(await client.call("list_images", {"document": "locked.pdf"}))["images"]), 15)
                    result = await client.call("get_image", {"document": "locked.pdf", "number": 2})
                    self.assertTrue(result.isError)
                    self.assertEqual(result.structuredContent["code"], "not-permitted", text_of(result))
                    for fmt in ("plain", "markdown"):
                        self.refused(await client.call("get_text", {"document": "locked.pdf", "format": fmt}), "not-permitted", "permission copy")
                    searched = await client.call("search", {"document": "locked.pdf", "query": "x"})
                    self.assertFalse(searched.isError, text_of(searched))
            run(refused())
        finally:
            shutil.rmtree(locked, ignore_errors=True)

    def test_each_renderer_answers_on_a_stream_that_carries_the_protocol_alone(self):
        # Ghostscript writes its own messages to standard output: they must not reach the client's.
        async def body():
            for renderer in ["mupdf", "poppler", "ghostscript"]:
                async with MCPClient(self.folder, ["--renderer", renderer]) as client:
                    text = self.ok(await client.call("get_text", {"document": "text.pdf", "pages": "1"}))
                    self.assertIn("lazy dog", text["pages"][0]["text"], renderer)
                    if renderer == "ghostscript":
                        # It reads neither metadata nor permissions, so a page image, an export the
                        # PDF's permissions govern, is refused with it, and says why.
                        self.refused(await client.call("document_info", {"document": "text.pdf"}), "unsupported", "Ghostscript cannot")
                        self.refused(await client.call("render_page", {"document": "text.pdf", "page": 1, "dpi": 20}), "unsupported", "Ghostscript cannot")
                        continue
                    self.assertEqual(self.ok(await client.call("document_info", {"document": "text.pdf"}))["renderer"], renderer)
                    self.assertFalse((await client.call("render_page", {"document": "text.pdf", "page": 1, "dpi": 20})).isError, renderer)
                # The global limits hold: a page past --max-dpi is refused.
                async with MCPClient(self.folder, ["--renderer", renderer, "--max-dpi", "50"]) as client:
                    self.refused(await client.call("render_page", {"document": "text.pdf", "page": 1, "dpi": 96}), "limit-exceeded", "limit of 50")
        run(body())

    def test_the_server_outlives_a_pause_longer_than_twice_its_time_limit(self):
        # A command ends when its engine makes no progress for twice --time-limit; a server
        # waiting for its next call is not an engine that stalls, and must go on.
        async def body():
            async with MCPClient(self.folder, ["--time-limit", "1"]) as client:
                self.ok(await client.call("get_text", {"document": "text.pdf", "pages": "1"}))
                await asyncio.sleep(3)
                self.ok(await client.call("get_text", {"document": "text.pdf", "pages": "1"}))
        run(body())

    def test_what_it_cannot_serve_is_refused_before_it_starts(self):
        for arguments, words in [(["mcp", os.path.join(self.folder, "text.pdf")], "is not a folder"),
                                 (["--vault", self.folder, "--key-file", os.path.join(self.folder, "text.pdf"), "mcp", self.folder], "leave out --vault")]:
            ended = subprocess.run([os.path.join(BIN, "hostapp")] + arguments, capture_output=True, text=True, timeout=ANSWER_TIMEOUT, stdin=subprocess.DEVNULL)
            self.assertNotEqual(ended.returncode, 0, arguments)
            self.assertIn(words, ended.stderr)
            self.assertEqual(ended.stdout, "", "standard output is the protocol's")

    def test_hostile_arguments_get_clear_errors_and_the_server_goes_on(self):
        async def body():
            async with MCPClient(self.folder) as client:
                for name in ["../outside.pdf", "/etc/passwd", self.base + "/outside.pdf", "reports/../../outside.pdf", "", "./text.pdf",
                             "text.pdf\u0000.pdf", ".hidden.pdf", "reports", "missing.pdf", "a" * 5000]:
                    result = await client.call("get_text", {"document": name})
                    self.assertTrue(result.isError, name)
                    self.assertIn(result.structuredContent["code"], ["file-not-found", "invalid-argument"], (name, text_of(result)))
                    if self.base not in name:  # the agent's own words may come back, never more
                        self.assertNotIn(self.base, text_of(result))
                self.refused(await client.call("get_text", {"document": "link.pdf"}), "not-permitted", "leads outside the served folder")
                self.refused(await client.call("get_text", {"document": "fake.pdf"}), "not-permitted", "is not a PDF document")
                self.refused(await client.call("get_text", {"document": "text.pdf", "pages": "7"}), "page-out-of-range", "")
                self.refused(await client.call("get_text", {"document": "text.pdf", "pages": "0-x"}), "page-out-of-range", "")
                self.refused(await client.call("get_text", {"document": "text.pdf", "extra": 1}), "invalid-argument", "takes no argument \"extra\"")
                self.refused(await client.call("get_text", {}), "invalid-argument", "document is required")
                self.refused(await client.call("get_text", {"document": 7}), "invalid-argument", "document must be a string")
                self.refused(await client.call("render_page", {"document": "text.pdf", "page": "1"}), "invalid-argument", "page must be a whole number")
                self.refused(await client.call("render_page", {"document": "text.pdf", "page": 0}), "invalid-argument", "page must be from 1")
                # A required argument left out or null (this once ended the server on a nil it unwrapped).
                self.refused(await client.call("render_page", {"document": "text.pdf"}), "invalid-argument", "page is required")
                self.refused(await client.call("render_page", {"document": "text.pdf", "page": None}), "invalid-argument", "page is required")
                self.refused(await client.call("search", {"document": "text.pdf"}), "invalid-argument", "query is required")
                self.refused(await client.call("render_page", {"document": "text.pdf", "page": 99}), "page-out-of-range", "")
                self.refused(await client.call("render_page", {"document": "text.pdf", "page": 1, "dpi": 1e9}), "invalid-argument", "dpi must be from 1")
                self.refused(await client.call("search", {"document": "text.pdf", "query": "fox", "limit": 10**12}), "invalid-argument", "limit")
                self.refused(await client.call("no_such_tool", {}), "invalid-argument", "there is no tool")
                self.refused(await client.call("add_annotation", {"document": "text.pdf", "page": 1, "annotation": {"kind": "Highlight"}}),
                             "invalid-argument", "annotation: missing \"rect\"")
                self.refused(await client.call("add_annotation", {"document": "text.pdf", "page": 1, "annotation": {
                    "kind": "Text", "rect": {"origin": {"x": 1, "y": 1}, "size": {"width": 20, "height": 20}}, "author": "The Director"}}), "invalid-argument", "author is set by the tool")
                self.refused(await client.call("fill_form", {"document": "forms.pdf", "values": {"no such field": "x"}}), "invalid-argument", "no such field")
                self.refused(await client.call("fill_form", {"document": "forms.pdf", "values": ["name"]}), "invalid-argument", "values")
                # Still answering, and nothing written: the fixtures are as they were.
                self.ok(await client.call("document_info", {"document": "text.pdf"}))
                for name in ["text.pdf", "forms.pdf"]:
                    with open(os.path.join(self.folder, name), "rb") as served, open(os.path.join(FIXTURES, name), "rb") as original:
                        self.assertEqual(served.read(), original.read(), name)
        run(body())


class MCPWritingTests(unittest.TestCase):
    """Writes, each class of them on a folder of its own."""

    def setUp(self):
        self.base, self.folder = make_folder()

    def tearDown(self):
        shutil.rmtree(self.base, ignore_errors=True)

    def test_concurrent_annotations_are_each_stored_once_by_the_servers_author(self):
        count = 20

        async def body():
            async with MCPClient(self.folder, ["--renderer", "mupdf"]) as client:
                calls = [client.call("add_annotation", {"document": "text.pdf", "page": 1 + i % 3, "annotation": {
                    "kind": "Text", "rect": {"origin": {"x": 20 + i, "y": 20}, "size": {"width": 20, "height": 20}}, "contents": f"note {i}"}}) for i in range(count)]
                results = await asyncio.gather(*calls)
                acknowledged = [r.structuredContent["annotation"]["contents"] for r in results if not r.isError]
                listed = [a for a in self.ok(await client.call("list_annotations", {"document": "text.pdf"}))["annotations"] if a["kind"] == "Text"]
                return acknowledged, listed

        acknowledged, listed = run(body())
        self.assertEqual(len(acknowledged), count, "every concurrent write was acknowledged")
        self.assertEqual(sorted(a["contents"] for a in listed), sorted(acknowledged))
        self.assertEqual({a["author"] for a in listed}, {"AI agent (hostapp mcp)"})
        # The witness: pypdf finds each acknowledged note once in the saved file.
        stored = [annotation.get_object().get("/Contents") for page in pypdf.PdfReader(os.path.join(self.folder, "text.pdf")).pages
                  for annotation in page.get("/Annots", []) if annotation.get_object().get("/Subtype") == "/Text"]
        self.assertEqual(sorted(stored), sorted(acknowledged))

    def ok(self, result):
        self.assertFalse(result.isError, text_of(result))
        return result.structuredContent

    def test_forms_are_filled_and_settings_forbid_what_they_forbid(self):
        settings = os.path.join(self.base, "settings.json")
        with open(settings, "w") as file:
            json.dump({"annotations": {"available": False}}, file)

        async def body():
            async with MCPClient(self.folder, ["--settings", settings]) as client:
                filled = self.ok(await client.call("fill_form", {"document": "forms.pdf", "values": {"name": "Grace Hopper"}}))
                self.assertEqual([f["name"] for f in filled["changed"]], ["name"])
                refused = await client.call("add_annotation", {"document": "text.pdf", "page": 1, "annotation": {
                    "kind": "Text", "rect": {"origin": {"x": 1, "y": 1}, "size": {"width": 20, "height": 20}}}})
                self.assertTrue(refused.isError)
                self.assertEqual(refused.structuredContent["code"], "not-permitted", text_of(refused))

        run(body())
        self.assertEqual(pypdf.PdfReader(os.path.join(self.folder, "forms.pdf")).get_fields()["name"].get("/V"), "Grace Hopper")
        with open(os.path.join(self.folder, "text.pdf"), "rb") as served, open(os.path.join(FIXTURES, "text.pdf"), "rb") as original:
            self.assertEqual(served.read(), original.read(), "a refused edit wrote nothing")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    BIN = os.path.abspath(sys.argv.pop(1))
    unittest.main()
