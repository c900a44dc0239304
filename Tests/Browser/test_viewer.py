"""The viewer in a real browser: Debian's headless Chromium, driven by Selenium, against a
real `hostapp serve` on a free loopback port.

Run by `make test` as `python3 Tests/Browser/test_viewer.py HOSTAPP`. The witnesses are
independent of the viewer and the server: `pdftotext -bbox` gives the words' boxes,
`pngtopnm` decodes the screenshots, and `hostapp annotations list` (MuPDF, a separate
process) reads the file the viewer's edit was saved into. If Chromium cannot start, the
tests fail and say why; they never skip.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.request
import xml.etree.ElementTree as ElementTree

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "Fixtures")
HOSTAPP = None  # set from the command line
TOKEN = "browser-test-token-0123456789"
DOCUMENT = "docs/text.pdf"  # three pages; "fixture" is on page 2 only


def word_boxes(path, page):
    """The words of a page (1-based) and their boxes in points, from pdftotext -bbox."""
    xhtml = subprocess.run(["pdftotext", "-bbox", "-f", str(page), "-l", str(page), path, "-"],
                           check=True, capture_output=True, text=True).stdout
    root = ElementTree.fromstring(xhtml)
    words = []
    for element in root.iter():
        if element.tag.endswith("word"):
            words.append((element.text, {key: float(element.get(key)) for key in ("xMin", "yMin", "xMax", "yMax")}))
    return words


def pixel_spread(png):
    """How many distinct grey levels a PNG has (decoded by netpbm's pngtopnm)."""
    pnm = subprocess.run(["pngtopnm"], input=png, check=True, capture_output=True).stdout
    # Binary PPM: "P6 width height maxval" then the samples.
    header = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", pnm)
    samples = pnm[header.end():]
    return len(set(samples[::97]))


def serve(hostapp, arguments):
    """Starts `hostapp serve ARGUMENTS` on a free loopback port; returns the process and its
    address. What the server writes after its first line goes to a temporary file (`server.log` names it), never
    to a pipe nobody reads: a full pipe would stop the server at its next log line."""
    log = tempfile.NamedTemporaryFile(prefix="hostapp-serve-", suffix=".log", delete=False)
    server = subprocess.Popen([hostapp, "serve", "--port", "0"] + arguments, stdout=subprocess.PIPE, stderr=log, text=True)
    server.log = log.name
    log.close()
    line = server.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        server.kill()
        server.wait()
        raise RuntimeError("hostapp serve did not start: " + line + log_tail(server))
    server.drain = threading.Thread(target=server.stdout.read, daemon=True)
    server.drain.start()
    return server, "http://127.0.0.1:" + match.group(1)


def log_tail(server):
    """The end of what `server` logged."""
    with open(server.log, errors="replace") as f:
        return f.read()[-4000:]


def stop(server, grace=20):
    """Stops `server` with SIGTERM as a service manager would; a server still running after
    `grace` seconds is killed and the test fails with what it logged. Stopping a stopped
    server does nothing."""
    if server.stdout.closed:
        return
    failure = None
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
            failure = "hostapp serve did not stop within %d s of SIGTERM; it logged:\n%s" % (grace, log_tail(server))
    # The process has ended: its output pipe reaches its end and the drain returns.
    server.drain.join(timeout=grace)
    server.stdout.close()
    os.unlink(server.log)
    if failure:
        raise AssertionError(failure)


class ViewerTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="viewer-test-")
        cls.docs = os.path.join(cls.folder, "docs")
        os.mkdir(cls.docs)
        for name in ("text.pdf", "outline.pdf", "long.pdf", "truncated.pdf", "encrypted.pdf", "mixed-sizes.pdf", "restricted.pdf", "forms.pdf"):
            shutil.copy(os.path.join(FIXTURES, name), cls.docs)
        shutil.copy(os.path.join(HERE, "..", "..", "Samples", "sample.pdf"), cls.docs)
        token_file = os.path.join(cls.folder, "token")
        with open(token_file, "w") as f:
            f.write(TOKEN + "\n")
        cls.readers = os.path.join(cls.folder, "readers.sqlite")
        cls.server, cls.base = serve(HOSTAPP, [cls.docs, "--token-file", token_file, "--reader-state", cls.readers])
        cls.browser = cls.start_browser()

    @classmethod
    def start_browser(cls, language=None):
        try:
            from selenium import webdriver
            from selenium.webdriver.chrome.service import Service
        except ImportError as error:
            raise RuntimeError("Selenium is not installed (make setup installs it from PyPI): %s" % error)
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1280,1000", "--no-proxy-server", "--force-device-scale-factor=1"):
            options.add_argument(argument)
        if language:
            options.add_argument("--lang=" + language)
            options.add_experimental_option("prefs", {"intl.accept_languages": language})
        driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
        try:
            return webdriver.Chrome(service=Service(driver_path), options=options)
        except Exception as error:
            raise RuntimeError("Chromium could not start (Debian's chromium and chromium-driver, make setup installs them): %s" % error)

    @classmethod
    def tearDownClass(cls):
        browser = getattr(cls, "browser", None)
        if browser:
            browser.quit()
        stop(cls.server)
        if not os.environ.get("VIEWER_TEST_KEEP"):
            shutil.rmtree(cls.folder, ignore_errors=True)
        else:
            print("screenshots kept in", cls.folder)

    # Helpers

    def run_js(self, script, *arguments):
        return self.browser.execute_script(script, *arguments)

    def wait_for(self, script, what, timeout=20, *arguments):
        deadline = time.time() + timeout
        while time.time() < deadline:
            value = self.run_js(script, *arguments)
            if value:
                return value
            time.sleep(0.1)
        shown = self.run_js("return [document.getElementById('page-number').value, document.getElementById('find-status').textContent, "
                            "document.getElementById('status-text').textContent, document.getElementById('export-status').textContent, location.hash]")
        self.fail("timed out waiting for %s (page box, find status, status line, export status, address: %s)" % (what, shown))

    def serve_another(self, arguments):
        """Starts a second server on the test documents with `arguments` besides, stopped when
        the test ends; returns its address."""
        token_file = os.path.join(self.folder, "token")
        server, base = serve(HOSTAPP, [self.docs, "--token-file", token_file, "--reader-state", ":memory:"] + arguments)
        self.addCleanup(stop, server)
        return base

    def open_alone(self, path, pages, fragment=""):
        """Serves the PDF at `path` alone (a server of its own, stopped after the test) and
        opens the viewer on it, once its `pages` pages are laid out."""
        name = os.path.basename(path)
        server, base = serve(HOSTAPP, [path, "--token-file", os.path.join(self.folder, "token"), "--reader-state", ":memory:"])
        self.addCleanup(stop, server)
        self.browser.get(base + "/?token=" + TOKEN + "#doc=" + name + fragment)
        self.wait_for("return document.querySelectorAll('.page').length === %d" % pages, "the document's pages laid out")

    def open_viewer(self):
        """Opens the viewer on the test document and goes to page 1 (the reader's position
        from an earlier test is restored first)."""
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=" + DOCUMENT.replace("/", "%2F"))
        self.wait_for("return document.querySelectorAll('.page').length === 3", "three pages laid out")
        self.go_to_page(1)

    def go_to_page(self, number):
        from selenium.webdriver.common.keys import Keys
        # Typed over the box's selected text, never into an emptied box: the viewer writes the
        # current page into the box whenever it is empty and not focused.
        page_number = self.browser.find_element("id", "page-number")
        page_number.click()
        page_number.send_keys(Keys.CONTROL, "a")
        page_number.send_keys("%d\n" % number)
        self.wait_page_drawn(number - 1)
        self.wait_for("return document.getElementById('page-number').value === '%d'" % number, "the page box to say %d" % number)

    def wait_page_drawn(self, index):
        self.wait_for("const i = document.querySelector('.page[data-index=\"' + arguments[0] + '\"] canvas.render');"
                      "return i && i.dataset.state === 'drawn' && document.querySelectorAll('.page[data-index=\"' + arguments[0] + '\"] .text-layer span').length > 0",
                      "page %d drawn with its text layer" % (index + 1), 20, index)

    def find_venables_on_the_scan(self, source):
        """Finds "Venables" on the scan of R-intro's page 7 shown as page 1: two hits, the first
        where `source`'s own text has the word (pdftotext's boxes, the witness)."""
        find = self.browser.find_element("id", "find")
        find.send_keys("Venables\n")
        self.wait_for("return /1 of 2$/.test(document.getElementById('find-status').textContent)", "two hits on the scan")
        hit = self.run_js("""
            const page = document.querySelector('.page[data-index="0"]').getBoundingClientRect();
            const hit = document.querySelector('.page[data-index="0"] .hit').getBoundingClientRect();
            return [hit.left - page.left, hit.top - page.top];
        """)
        box = [b for word, b in word_boxes(source, 7) if word == "Venables"][0]
        self.assertAlmostEqual(hit[0] / self.scale(0), box["xMin"], delta=2)
        self.assertAlmostEqual(hit[1] / self.scale(0), box["yMin"], delta=3)

    def scale(self, index):
        """CSS pixels per point on page `index` (the page element's width over the page's)."""
        return self.run_js("return document.querySelector('.page[data-index=\"' + arguments[0] + '\"]').getBoundingClientRect().width", index) / 612.0

    # `layerWords(index)`: the words of page `index`'s text layer in order, each as a range
    # over its characters (a span holds a run of words, separated by spaces).
    LAYER_WORDS = """
        const layerWords = (index) => {
          const layer = document.querySelector('.page[data-index="' + index + '"] .text-layer');
          const words = [];
          for (const span of layer ? layer.children : []) {
            const text = span.firstChild;
            if (!text) continue;
            for (const word of text.data.matchAll(/\\S+/g)) {
              const range = document.createRange();
              range.setStart(text, word.index);
              range.setEnd(text, word.index + word[0].length);
              words.push(range);
            }
          }
          return words;
        };
    """

    # Selects the text layer's words arguments[1]...arguments[2] (0-based) of page
    # arguments[0], once the layer has them; null when it has not.
    SELECT_WORDS = LAYER_WORDS + """
        const words = layerWords(arguments[0]);
        if (words.length <= arguments[2]) return null;
        const range = document.createRange();
        range.setStart(words[arguments[1]].startContainer, words[arguments[1]].startOffset);
        range.setEnd(words[arguments[2]].endContainer, words[arguments[2]].endOffset);
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
    """

    def select_words(self, index, first, last):
        """Selects the text layer's words `first`...`last` (0-based) of page `index` and
        returns the selection's text, once the layer has them: the page's image may be drawn
        before its words are laid over it, and a page drawn again (the view's scale settled)
        builds its words anew, which ends a selection made on the old ones."""
        return self.wait_for(self.SELECT_WORDS + "return window.getSelection().toString().trim() || null;",
                             "words %d to %d of page %d selected" % (first + 1, last + 1, index + 1), 20, index, first, last)

    def saved_state(self, document):
        """The viewing state the server keeps for this browser's reader in `document`."""
        return self.browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch('/api/documents/' + encodeURIComponent(arguments[0]) + '/state').then((r) => r.json()).then(done, () => done(null));
        """, document)

    def wait_saved_page(self, document, index, timeout=20):
        """Waits until the server keeps page `index` as this reader's place in `document`
        (the viewer saves it shortly after scrolling stops)."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            state = self.saved_state(document)
            if state and state.get("pageIndex") == index:
                return
            time.sleep(0.1)
        self.fail("timed out waiting for the server to keep page %d" % (index + 1))

    def screenshot_is_not_blank(self, name):
        png = self.browser.get_screenshot_as_png()
        with open(os.path.join(self.folder, name), "wb") as f:
            f.write(png)
        self.assertGreater(pixel_spread(png), 8, name + " is blank")

    # The tests, in the order a reader would go

    def test_1_reads_scrolls_and_restores_the_position(self):
        self.open_viewer()
        self.screenshot_is_not_blank("first-page.png")
        # One text layer per page: the words pdftotext finds, each once, however often the page
        # was drawn while the viewer opened (it was filled twice before).
        words = len(word_boxes(os.path.join(self.docs, "text.pdf"), 1))
        self.wait_for("return performance.getEntriesByType('resource').some((e) => /\\/pages\\/0\\/text/.test(e.name))", "page 1's text loaded")
        self.assertEqual(self.run_js(self.LAYER_WORDS + "return layerWords(0).length"), words)
        from selenium.webdriver.support.ui import Select
        Select(self.browser.find_element("id", "zoom")).select_by_value("1.5")
        self.go_to_page(3)
        top = self.run_js("return document.querySelector('.page[data-index=\"2\"]').getBoundingClientRect().top "
                          "- document.getElementById('viewer').getBoundingClientRect().top")
        self.assertLess(abs(top), 40, "page 3 is not at the top of the view")
        self.wait_saved_page(DOCUMENT, 2)
        self.browser.refresh()
        self.wait_for("return document.querySelectorAll('.page').length === 3", "the pages after reload")
        self.wait_for("return document.getElementById('page-number').value === '3'", "page 3 restored after reload")
        self.assertEqual(self.run_js("return document.getElementById('zoom').value"), "1.5", "the zoom is not restored")
        self.assertAlmostEqual(self.scale(2), 1.5 * 96 / 72, delta=0.02)

    def test_2_finds_a_word_where_it_is(self):
        self.open_viewer()
        find = self.browser.find_element("id", "find")
        find.send_keys("fixture\n")
        self.wait_for("return document.querySelectorAll('.page[data-index=\"1\"] .hit').length > 0", "a hit on page 2")
        self.wait_for("return /1 of 1$/.test(document.getElementById('find-status').textContent)", "one hit in all")
        self.assertEqual(self.run_js("return document.querySelectorAll('.hit').length"), 1)
        hit = self.run_js("""
            const page = document.querySelector('.page[data-index="1"]').getBoundingClientRect();
            const hit = document.querySelector('.page[data-index="1"] .hit').getBoundingClientRect();
            return [hit.left - page.left, hit.top - page.top, hit.right - page.left, hit.bottom - page.top];
        """)
        scale = self.scale(1)
        box = dict(word_boxes(os.path.join(self.docs, "text.pdf"), 2))["fixture"]
        self.assertAlmostEqual(hit[0] / scale, box["xMin"], delta=2)
        self.assertAlmostEqual(hit[2] / scale, box["xMax"], delta=2)
        self.assertAlmostEqual(hit[1] / scale, box["yMin"], delta=3)
        self.assertAlmostEqual(hit[3] / scale, box["yMax"], delta=3)
        self.screenshot_is_not_blank("find.png")
        # A phrase: the viewer's address writes its space as "+", which the server reads as
        # a space. pdftotext, the witness, finds the phrase once in the whole file.
        text = subprocess.run(["pdftotext", os.path.join(self.docs, "text.pdf"), "-"], capture_output=True, text=True, check=True).stdout
        self.assertEqual(text.count("provider fixture"), 1)
        find.clear()
        find.send_keys("provider fixture\n")
        self.wait_for("return /1 of 1$/.test(document.getElementById('find-status').textContent)", "the phrase found once")
        self.assertGreaterEqual(self.run_js("return document.querySelectorAll('.page[data-index=\"1\"] .hit').length"), 1)

    def test_3_selects_and_copies_text(self):
        self.open_viewer()
        self.select_words(0, 1, 3)
        self.assertEqual(re.sub(r"\s+", " ", self.run_js("return window.getSelection().toString()")).strip(), "quick brown fox")
        copied = self.run_js("""
            const data = new DataTransfer();
            document.dispatchEvent(new ClipboardEvent('copy', {clipboardData: data, bubbles: true, cancelable: true}));
            return data.getData('text/plain');
        """)
        self.assertEqual(copied, "quick brown fox")

    def test_4_switches_engine_in_place(self):
        self.open_viewer()
        before = self.run_js("return document.querySelector('.page[data-index=\"0\"] canvas.render').dataset.src")
        self.assertIn("renderer=mupdf", before)
        from selenium.webdriver.support.ui import Select
        Select(self.browser.find_element("id", "engine")).select_by_value("poppler")
        self.wait_for("const i = document.querySelector('.page[data-index=\"0\"] canvas.render');"
                      "return i && /renderer=poppler/.test(i.dataset.src) && i.dataset.state === 'drawn'", "Poppler's page image")
        # The image's own response says which engine drew it.
        drawn_by = self.run_js("return fetch(document.querySelector('.page[data-index=\"0\"] canvas.render').dataset.src)"
                               ".then(r => r.headers.get('X-Renderer'))")
        self.assertEqual(drawn_by, "poppler")
        self.screenshot_is_not_blank("poppler.png")

    def test_5_highlights_a_selection_into_the_file(self):
        self.open_viewer()
        self.select_words(0, 1, 2)  # "quick brown"
        self.browser.find_element("css selector", "#tools [data-tool=highlight]").click()
        self.wait_for("return document.querySelectorAll('.page[data-index=\"0\"] svg .annotation').length > 0", "the highlight drawn")
        listed = subprocess.run([HOSTAPP, "--renderer", "mupdf", "annotations", "list", "--json", os.path.join(self.docs, "text.pdf")],
                                check=True, capture_output=True, text=True).stdout
        highlights = [a for a in json.loads(listed) if a["kind"] == "Highlight"]
        self.assertEqual(len(highlights), 1, listed)
        highlight = highlights[0]
        self.assertEqual(highlight["pageIndex"], 0)
        self.assertEqual(len(highlight["quads"]), 1)
        quad = highlight["quads"][0]
        words = dict(word_boxes(os.path.join(self.docs, "text.pdf"), 1))
        self.assertAlmostEqual(quad["upperLeft"]["x"], words["quick"]["xMin"], delta=2)
        self.assertAlmostEqual(quad["upperRight"]["x"], words["brown"]["xMax"], delta=2)
        self.assertAlmostEqual(quad["upperLeft"]["y"], words["quick"]["yMin"], delta=3)
        self.assertAlmostEqual(quad["lowerLeft"]["y"], words["quick"]["yMax"], delta=3)
        self.screenshot_is_not_blank("highlight.png")

    def test_5b_text_under_an_annotation_is_selected_and_a_click_chooses_it(self):
        # test_5 highlighted "quick brown" on page 1. A drag that starts inside the highlight
        # selects text, as pdf.js lets it; a click that selects nothing chooses the highlight.
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        self.open_viewer()
        self.wait_for("return document.querySelectorAll('.page[data-index=\"0\"] svg .annotation[data-kind=\"Highlight\"]').length === 1", "the highlight")
        quick, fox = self.run_js(self.LAYER_WORDS + """
            const words = layerWords(0);
            const box = (text) => { const r = words.find((word) => word.toString() === text).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
            return [box('quick'), box('fox')];
        """)
        drag = ActionBuilder(self.browser)
        drag.pointer_action.move_to_location(int(quick[0]) + 2, int((quick[1] + quick[3]) / 2)).pointer_down() \
            .move_to_location(int(fox[2]) - 1, int((fox[1] + fox[3]) / 2)).pointer_up()
        drag.perform()
        selected = self.run_js("return window.getSelection().toString()")
        self.assertIn("quick", selected)
        self.assertIn("brown", selected)
        self.assertTrue(self.browser.find_element("id", "editor").get_attribute("hidden"), "a drag chose the annotation")
        self.run_js("window.getSelection().removeAllRanges()")
        click = ActionBuilder(self.browser)
        click.pointer_action.move_to_location(int((quick[0] + quick[2]) / 2), int((quick[1] + quick[3]) / 2)).click()
        click.perform()
        self.wait_for("return !document.getElementById('editor').hidden", "the editor of the clicked highlight")
        self.assertEqual(self.run_js("return document.getElementById('editor-kind').textContent"), "Highlight on page 1")
        self.browser.find_element("id", "editor-close").click()

    def test_6_compares_the_engines(self):
        self.open_viewer()
        self.browser.find_element("id", "compare").click()
        self.wait_for("const f = document.querySelector('.page[data-index=\"0\"] .figures');"
                      "return f && /agree|differ/.test(f.textContent)", "the comparison figures")
        images = self.run_js("return [...document.querySelectorAll('.page[data-index=\"0\"] .comparison img')].map(i => i.src)")
        self.assertTrue(any("renderer=mupdf" in s for s in images) and any("renderer=poppler" in s for s in images), images)
        self.assertTrue(any("heatmap" in s for s in images), images)
        self.screenshot_is_not_blank("compare.png")

    def test_7_follows_internal_links_and_only_shows_external_ones(self):
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=" + "docs/sample.pdf".replace("/", "%2F"))
        self.wait_for("return document.querySelectorAll('.page').length === 3", "the sample's pages")
        self.go_to_page(1)
        self.wait_for("return document.querySelectorAll('.page[data-index=\"0\"] .link-layer a').length >= 2", "the links of page 1")
        before = self.browser.current_url
        self.run_js("document.querySelector('.page[data-index=\"0\"] .link-layer a.external').click()")
        self.wait_for("return !document.getElementById('status').hidden", "the external link shown")
        self.assertIn("https://www.example.org/", self.run_js("return document.getElementById('status-text').textContent"))
        self.assertEqual(self.browser.current_url, before)
        self.assertEqual(len(self.browser.window_handles), 1)
        self.run_js("document.querySelector('.page[data-index=\"0\"] .link-layer a:not(.external)').click()")
        self.wait_for("return document.getElementById('page-number').value === '3'", "the internal link to page 3 followed")
        # The jump is in the browser's history, and the address names the page.
        self.assertIn("page=3", self.browser.current_url)
        self.browser.back()
        self.wait_for("return document.getElementById('page-number').value === '1'", "Back to page 1")
        self.assertIn("docs%2Fsample.pdf", self.browser.current_url)
        self.browser.forward()
        self.wait_for("return document.getElementById('page-number').value === '3'", "Forward to page 3 again")

    def test_9_opens_the_place_an_address_names(self):
        # A shared address, as pdf.js reads it: a page, a zoom and a search.
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=" + DOCUMENT.replace("/", "%2F") + "&page=2&zoom=150&search=fixture")
        self.wait_for("return document.querySelectorAll('.page').length === 3", "three pages laid out")
        self.wait_for("return document.getElementById('page-number').value === '2'", "page 2 from the address")
        self.assertEqual(self.run_js("return document.getElementById('zoom').value"), "1.5")
        self.wait_for("return /1 of 1$/.test(document.getElementById('find-status').textContent)", "the search from the address")
        self.assertIn("page=2", self.browser.current_url)
        # An address a stranger wrote: a page past the end, a zoom that is no zoom, markup.
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=" + DOCUMENT.replace("/", "%2F") + "&page=99999&zoom=-5&search=%3Cimg%20src%3Dx%3E")
        self.wait_for("return document.querySelectorAll('.page').length === 3", "three pages laid out")
        self.wait_for("return document.getElementById('page-number').value === '3'", "the last page for a page past the end")
        self.assertNotEqual(self.run_js("return document.getElementById('zoom').value"), "-0.05")
        self.wait_for("return document.getElementById('find-status').textContent === 'No hits'", "the markup searched for as text")
        self.assertEqual(self.run_js("return document.getElementById('find').value"), "<img src=x>")
        self.assertEqual(self.run_js("return document.querySelectorAll('img[src=\"x\"], img[src$=\"/x\"]').length"), 0)
        # A named destination, as pdf.js reads #nameddest: outline.pdf's "sec12" is page 3.
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=docs%2Foutline.pdf&nameddest=sec12")
        self.wait_for("return document.querySelectorAll('.page').length === 4", "outline.pdf's pages")
        self.wait_for("return document.getElementById('page-number').value === '3'", "page 3 from the named destination")
        self.assertIn("page=3", self.browser.current_url)
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=docs%2Foutline.pdf&nameddest=%3Cb%3Enowhere")
        self.wait_for("return /no destination named/.test(document.getElementById('status-text').textContent)", "the missing name said")
        self.assertIn("<b>nowhere", self.run_js("return document.getElementById('status-text').textContent"))
        self.assertEqual(self.run_js("return document.querySelectorAll('#status b').length"), 0)

    def test_10_a_document_that_fails_to_open_says_why_and_shows_nothing_else(self):
        from selenium.webdriver.support.ui import Select
        self.open_viewer()
        self.wait_for("return document.querySelectorAll('#thumbnails .thumbnail').length === 3", "the thumbnails")
        Select(self.browser.find_element("id", "document")).select_by_value("docs/truncated.pdf")
        self.wait_for("return document.querySelector('#pages .open-failure') !== null", "the reason the damaged file does not open")
        reason = self.run_js("return document.querySelector('#pages .open-failure').textContent")
        self.assertIn("docs/truncated.pdf cannot be opened", reason)
        self.assertIn("damaged", reason)
        self.assertNotIn(self.folder, reason, "the server's path in a message")
        self.assertEqual(self.run_js("return document.querySelectorAll('.page, #thumbnails .thumbnail, #outline li').length"), 0)
        Select(self.browser.find_element("id", "document")).select_by_value(DOCUMENT)
        self.wait_for("return document.querySelectorAll('.page').length === 3 && !document.querySelector('.open-failure')", "the good file again")

    def test_11_shows_the_properties_and_downloads_the_file(self):
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=" + "docs/sample.pdf".replace("/", "%2F"))
        self.wait_for("return document.querySelectorAll('.page').length === 3", "the sample's pages")
        self.browser.find_element("id", "properties-open").click()
        self.wait_for("return document.getElementById('properties').open", "the properties dialog")
        shown = self.run_js("return Object.fromEntries([...document.querySelectorAll('#properties-facts dd')].map((d) => [d.dataset.fact, d.textContent]))")
        path = os.path.join(self.docs, "sample.pdf")
        witness = dict(line.split(":", 1) for line in subprocess.run(["pdfinfo", path], check=True, capture_output=True, text=True).stdout.splitlines() if ":" in line)
        witness = {key.strip(): value.strip() for key, value in witness.items()}
        self.assertEqual(shown["Title"], witness["Title"])
        self.assertEqual(shown["Pages"], witness["Pages"])
        self.assertEqual(shown["PDF version"], witness["PDF version"])
        self.assertTrue(shown["Page size"].startswith(witness["Page size"].split(" pts")[0] + " pt"), shown["Page size"])
        self.assertEqual(witness["File size"], str(os.path.getsize(path)) + " bytes")
        self.assertEqual(shown["File size"].replace(",", "").split(" ")[0], str(os.path.getsize(path)))
        # The fonts, as pdffonts lists them: name, kind, embedded, subset.
        self.wait_for("return !document.getElementById('properties-fonts').hidden", "the fonts listed")
        fonts = self.run_js("return [...document.querySelectorAll('#properties-fonts tbody tr')].map((r) => [...r.cells].map((c) => c.textContent))")
        listed = subprocess.run(["pdffonts", path], check=True, capture_output=True, text=True).stdout.splitlines()[2:]
        self.assertEqual([font[0] for font in fonts], [line.split()[0] for line in listed])
        self.assertEqual([font[1:] for font in fonts], [["Type 1", "no", "no"]] * len(listed))
        # A status line that fills in later (what is kept offline) has the height of its text
        # while empty, so the Close button below it does not move under the pointer.
        heights = self.run_js("""
            const line = document.getElementById('offline-usage');
            const said = line.textContent;
            line.textContent = '';
            const empty = line.offsetHeight;
            line.textContent = said || 'x';
            const full = line.offsetHeight;
            line.textContent = said;
            return [empty, full];
        """)
        self.assertEqual(heights[0], heights[1], "an empty status line takes no room and moves what follows when it fills")
        self.browser.find_element("id", "properties-close").click()
        self.wait_for("return !document.getElementById('properties').open", "the dialog closed")
        # The download is the file as the server holds it, byte for byte.
        downloaded = self.browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch(document.getElementById('download').href).then((r) => r.arrayBuffer()).then((b) => done(b.byteLength));
        """)
        self.assertEqual(downloaded, os.path.getsize(path))
        self.assertEqual(self.run_js("return document.getElementById('download').getAttribute('download')"), "sample.pdf")

    def test_12_find_options_narrow_the_hits(self):
        self.open_viewer()
        text = subprocess.run(["pdftotext", os.path.join(self.docs, "text.pdf"), "-"], capture_output=True, text=True, check=True).stdout
        words = re.findall(r"\w+", text)
        def hits(term, case=False, whole=False):
            find = self.browser.find_element("id", "find")
            find.clear()
            for option, wanted in (("find-case", case), ("find-whole", whole)):
                if self.run_js("return document.getElementById(arguments[0]).checked", option) != wanted:
                    self.browser.find_element("id", option).click()
            find.send_keys(term + "\n")
            self.wait_for("return /^(No hits|\\d+ of \\d+)$/.test(document.getElementById('find-status').textContent)", "the search for " + term)
            return self.run_js("return document.getElementById('find-status').textContent")
        # pdftotext, the witness: "the" twice in any case, once in lower case; "he" only inside words.
        self.assertEqual(sum(w.lower() == "the" for w in words), 2)
        self.assertEqual(hits("the"), "1 of %d" % len(re.findall("the", text, re.I)))
        self.assertEqual(hits("the", case=True), "1 of %d" % len(re.findall("the", text)))
        self.assertEqual(hits("he", whole=True), "No hits")
        self.assertEqual(hits("he"), "1 of %d" % len(re.findall("he", text, re.I)))

    def test_13_asks_for_the_password_of_an_encrypted_document(self):
        # encrypted.pdf: text.pdf under AES-256, user password "user-secret" (make-fixtures.sh).
        self.open_viewer()
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=" + "docs/encrypted.pdf".replace("/", "%2F"))
        self.wait_for("return document.getElementById('password-field') !== null", "the password prompt")
        self.assertEqual(self.run_js("return document.querySelectorAll('.page').length"), 0, "pages of the document before")
        self.assertEqual(self.run_js("return document.activeElement.id"), "password-field")
        field = self.browser.find_element("id", "password-field")
        field.send_keys("not-it\n")
        self.wait_for("return document.querySelector('.password-problem').textContent !== ''", "the wrong password said")
        self.assertEqual(self.run_js("return document.querySelector('.password-problem').textContent"), "That password is not right. Try again.")
        self.assertEqual(self.run_js("return document.getElementById('password-field').value"), "")
        self.browser.find_element("id", "password-field").send_keys("user-secret\n")
        self.wait_for("return document.querySelectorAll('.page').length === 3 && !document.getElementById('password-field')", "the unlocked pages")
        self.wait_page_drawn(0)
        self.go_to_page(2)
        self.wait_for("return /fixture/.test(document.querySelector('.page[data-index=\"1\"] .text-layer').textContent)", "page 2's text")
        # Its user password does not allow printing (make-fixtures.sh): no print command.
        self.assertFalse(self.browser.find_element("id", "print").is_displayed())
        self.assertTrue(self.browser.find_element("id", "download").is_displayed())
        # The password is nowhere the page can read, and the key only in an HttpOnly cookie.
        kept = self.run_js("return document.documentElement.outerHTML + JSON.stringify(sessionStorage) + JSON.stringify(localStorage) + document.cookie + location.href")
        self.assertNotIn("user-secret", kept)
        self.assertNotIn("renderer_key_", self.run_js("return document.cookie"))
        # Without the key (another client with the server's token only), nothing of it is served.
        from urllib.request import Request, build_opener, ProxyHandler
        from urllib.error import HTTPError
        with self.assertRaises(HTTPError) as caught:
            build_opener(ProxyHandler({})).open(Request(self.base + "/api/documents/docs%2Fencrypted.pdf/pages/1/text", headers={"Authorization": "Bearer " + TOKEN}))
        self.assertEqual(json.loads(caught.exception.read())["error"]["code"], "password-required")

    def printed(self, document):
        """Prints `document` with the viewer's Print command into a PDF (headless Chromium's
        printing, asked to keep the sheet sizes the page's CSS sets); returns its path."""
        import base64
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=" + document.replace("/", "%2F"))
        self.wait_for("return document.querySelectorAll('.page').length > 0", "the pages laid out")
        self.wait_for("return !document.getElementById('print').hidden", "the print command")
        # The browser's dialog stands in for the printer: the test prints what it would.
        self.run_js("window.printRequested = false; window.print = () => { window.printRequested = true; };")
        self.browser.find_element("id", "print").click()
        self.wait_for("return window.printRequested", "the sheets prepared", timeout=60)
        self.assertEqual(self.run_js("return document.querySelectorAll('#print-view .print-page img').length"),
                         self.run_js("return document.querySelectorAll('.page').length"))
        pdf = self.browser.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True, "printBackground": True})
        path = os.path.join(self.folder, "printed-" + os.path.basename(document))
        with open(path, "wb") as f:
            f.write(base64.b64decode(pdf["data"]))
        return path

    @staticmethod
    def page_sizes(path):
        info = subprocess.run(["pdfinfo", "-f", "1", "-l", "999", path], check=True, capture_output=True, text=True).stdout
        return [(float(w), float(h)) for w, h in re.findall(r"Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts", info)]

    def test_14_prints_the_pages_one_per_sheet_at_their_sizes(self):
        printed = self.printed("docs/mixed-sizes.pdf")
        original = self.page_sizes(os.path.join(self.docs, "mixed-sizes.pdf"))
        self.assertGreater(len(set(original)), 1, "the fixture's pages differ in size")
        sizes = self.page_sizes(printed)
        self.assertEqual(len(sizes), len(original), "one sheet per page")
        for (width, height), (want_width, want_height) in zip(sizes, original):
            self.assertAlmostEqual(width, want_width, delta=1)
            self.assertAlmostEqual(height, want_height, delta=1)
        # The text of page 1 prints as text (pdftotext is the witness on both files), and
        # the sheet is not blank.
        printed = self.printed(DOCUMENT)
        self.assertEqual(len(self.page_sizes(printed)), 3)
        def words(path, page):
            return subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), path, "-"], check=True, capture_output=True, text=True).stdout.split()
        self.assertEqual(words(printed, 1), words(os.path.join(self.docs, "text.pdf"), 1))
        self.assertIn("fixture", words(printed, 2))
        png = subprocess.run(["pdftocairo", "-png", "-singlefile", "-r", "30", "-f", "1", "-l", "1", printed, "-"], check=True, capture_output=True).stdout
        self.assertGreater(pixel_spread(png), 2, "a blank printed page")
        # The viewer's own screen (toolbar, sidebar) is not on the sheets.
        self.assertNotIn("Engine", words(printed, 1))

    def test_45_finds_and_selects_on_a_scan_served_with_ocr(self):
        # Page 7 of R-intro drawn at 300 dpi into an image-only PDF (make-scan.py), served with
        # --ocr: the text layer holds what Tesseract read, so find and selection work where
        # the picture shows the words (the source's own boxes, pdftotext's witness).
        source = "/usr/share/R/doc/manual/R-intro.pdf"
        scan = os.path.join(self.folder, "scan.pdf")
        subprocess.run([sys.executable, os.path.join(FIXTURES, "make-scan.py"), source, "7", "300", scan], check=True)
        token_file = os.path.join(self.folder, "token")
        server, base = serve(HOSTAPP, [scan, "--token-file", token_file, "--reader-state", ":memory:", "--ocr"])
        self.addCleanup(stop, server)
        self.browser.get(base + "/?token=" + TOKEN + "#doc=scan.pdf")
        self.wait_for("return document.querySelectorAll('.page').length === 1", "the scan's page laid out")
        self.wait_page_drawn(0)
        self.find_venables_on_the_scan(source)
        self.select_words(0, 2, 4)
        self.assertEqual(re.sub(r"\s+", " ", self.run_js("return window.getSelection().toString()")).strip(), "This introduction to")
        # Reading mode reads the scan's recognised text too, re-laid as paragraphs.
        self.browser.find_element("id", "reading-toggle").click()
        self.wait_for("return /Venables/.test(document.getElementById('reading-text').textContent)", "the scan's words in reading mode")
        self.assertIn("This introduction to", re.sub(r"\s+", " ", self.run_js("return document.getElementById('reading-text').textContent")))
        self.assertGreater(self.run_js("return document.querySelectorAll('#reading-text .reading-page > p').length"), 3)

    def test_46_exports_the_page_and_the_document_as_markdown(self):
        # The properties dialog saves the page read, then the whole document, as Markdown;
        # the files the browser is given, read by markdown-it-py, hold structure.json's
        # headings (the page alone ranks its own two sizes) and the table's cells.
        from markdown_it import MarkdownIt
        path = os.path.join(self.folder, "structure.pdf")
        shutil.copy(os.path.join(FIXTURES, "structure.pdf"), path)
        self.open_alone(path, 2, "&page=2")
        self.wait_page_drawn(1)
        # "This page" is the page the page box names: page 2 is the last, and on a loaded
        # machine the view may settle on it after its image is in.
        self.wait_for("return document.getElementById('page-number').value === '2'", "page 2 named in the page box")
        self.run_js("""
            window.exported = [];
            const create = URL.createObjectURL;
            URL.createObjectURL = (blob) => { window.exported.push(blob); return create(blob); };
        """)
        def saved(number):
            return self.browser.execute_async_script("""
                const done = arguments[arguments.length - 1];
                window.exported[arguments[0]].text().then(done);
            """, number)
        def read(markdown):
            rendered = MarkdownIt("commonmark").enable("table").render(markdown)
            return re.findall(r"<h([1-6])>(.*?)</h\1>", rendered), re.findall(r"<t[hd]>(.*?)</t[hd]>", rendered)
        self.browser.find_element("id", "properties-open").click()
        self.browser.find_element("id", "export-page").click()
        self.wait_for("return /structure-page-2\\.md$/.test(document.getElementById('export-status').textContent)", "the page saved")
        self.assertEqual(read(saved(0)), ([("1", "Field Notes"), ("2", "Spring Survey"), ("2", "Autumn Survey")], []))
        self.browser.find_element("id", "export-document").click()
        self.wait_for("return /structure\\.md$/.test(document.getElementById('export-status').textContent)", "the document saved")
        with open(os.path.join(FIXTURES, "structure.json")) as source:
            pages = json.load(source)["pages"]
        headings, cells = read(saved(1))
        self.assertEqual(headings, [(str(e["heading"]), e["text"]) for page in pages for e in page if "heading" in e])
        self.assertEqual(cells, [cell for page in pages for e in page if "table" in e for row in e["table"] for cell in row])

    def test_47_recognises_a_scan_when_the_reader_asks(self):
        # The same scan served without --ocr, by a server that reads scans when asked: its
        # page has no text, so the viewer offers "Recognise text"; once the reading is done
        # the text layer holds the words and find finds them where the picture shows them.
        source = "/usr/share/R/doc/manual/R-intro.pdf"
        scan = os.path.join(self.folder, "scan-on-request.pdf")
        subprocess.run([sys.executable, os.path.join(FIXTURES, "make-scan.py"), source, "7", "300", scan], check=True)
        token_file = os.path.join(self.folder, "token")
        server, base = serve(HOSTAPP, [scan, "--token-file", token_file, "--reader-state", ":memory:"])
        self.addCleanup(stop, server)
        self.browser.get(base + "/?token=" + TOKEN + "#doc=scan-on-request.pdf")
        self.wait_for("const i = document.querySelector('.page[data-index=\"0\"] canvas.render'); return i && i.dataset.state === 'drawn'",
                      "the scan's picture drawn")
        self.wait_for("return !document.getElementById('recognition').hidden", "the offer to recognise the text")
        self.assertEqual(self.run_js("return document.querySelectorAll('.page[data-index=\"0\"] .text-layer span').length"), 0)
        start = self.browser.find_element("id", "recognition-start")
        self.assertEqual(start.text, "Recognise text")
        start.click()
        self.wait_for("return /^Text recognised on 1 scanned page/.test(document.getElementById('recognition-message').textContent)",
                      "the reading done")
        self.wait_for(self.LAYER_WORDS + "return layerWords(0).length > 100", "the words in the text layer")
        self.find_venables_on_the_scan(source)

    def test_48_copies_nothing_where_the_pdf_forbids_copying(self):
        # text.pdf with copying forbidden by qpdf (--extract=n): a selection on its pages
        # copies nothing and no Markdown export is offered, while find and selection (the
        # text a screen reader reads) still work.
        path = os.path.join(self.folder, "locked.pdf")
        subprocess.run(["qpdf", "--encrypt", "", "owner-secret", "256", "--extract=n", "--",
                        os.path.join(FIXTURES, "text.pdf"), path], check=True)
        self.open_alone(path, 3)
        self.wait_page_drawn(0)
        # Selected and copied in one script, so that no drawing of the page comes between.
        copied = self.wait_for(self.SELECT_WORDS + """
            const selected = window.getSelection().toString().replace(/\\s+/g, ' ').trim();
            if (!selected) return null;
            const data = new DataTransfer();
            const event = new ClipboardEvent('copy', {clipboardData: data, bubbles: true, cancelable: true});
            document.dispatchEvent(event);
            return [selected, data.getData('text/plain'), event.defaultPrevented];
        """, "words 2 to 4 selected and copied", 20, 0, 1, 3)
        self.assertEqual(copied, ["quick brown fox", "", True])
        self.assertTrue(self.run_js("return document.getElementById('export').hidden"))
        find = self.browser.find_element("id", "find")
        find.send_keys("lazy dog\n")
        self.wait_for("return /1 of 1$/.test(document.getElementById('find-status').textContent)", "the phrase found")

    def test_49_gives_screen_readers_the_structure_of_each_page(self):
        # tagged.pdf (make-tagged.py: two pages, headings of two levels, a table, a list, a
        # link) served alone: Chromium's accessibility tree holds its headings with their
        # levels in the tree's order, as tagged.json (the engine's reading) and pypdf's walk
        # of the structure tree (levels only: its text is in the content) have them; its
        # table has header cells, its link its address; the words drawn for selection are out
        # of the tree, and axe-core finds no violation. An untagged page's structure is said
        # to be inferred.
        import pypdf
        path = os.path.join(self.folder, "tagged.pdf")
        shutil.copy(os.path.join(FIXTURES, "tagged.pdf"), path)
        self.open_alone(path, 2)
        self.wait_for("return document.querySelectorAll('.page .structure').length === 2", "both pages' structure")
        with open(os.path.join(FIXTURES, "tagged.json")) as f:
            stated = [(e["level"], e["text"]) for page in json.load(f)["pages"] for e in page["elements"] if e["kind"] == "heading"]
        reader = pypdf.PdfReader(path)
        tree = reader.trailer["/Root"]["/StructTreeRoot"].get_object()
        roles = tree.get("/RoleMap", {})
        levels = []
        def walk(node):
            node = node.get_object()
            if isinstance(node, pypdf.generic.ArrayObject):
                for kid in node:
                    walk(kid)
            elif isinstance(node, pypdf.generic.DictionaryObject):
                role = str(roles.get(node.get("/S"), node.get("/S")))
                if re.fullmatch(r"/H[1-6]", role):
                    levels.append(int(role[2]))
                if "/K" in node:
                    walk(node["/K"])
        walk(tree)
        nodes = self.browser.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
        def level(node):
            return next(int(p["value"]["value"]) for p in node.get("properties", []) if p["name"] == "level")
        headings = [(level(n), n["name"]["value"]) for n in nodes if not n.get("ignored") and n["role"]["value"] == "heading"]
        self.assertEqual(headings, stated)
        self.assertEqual([l for l, _ in headings], levels)
        roles_seen = {n["role"]["value"] for n in nodes if not n.get("ignored")}
        self.assertTrue({"table", "columnheader", "cell", "list", "listitem", "link"} <= roles_seen, roles_seen)
        self.assertEqual(self.run_js("return document.querySelector('.page[data-index=\"0\"] .structure a').href"), "https://example.org/staff")
        self.assertEqual(self.run_js("return document.querySelector('.page[data-index=\"0\"] .text-layer').getAttribute('aria-hidden')"), "true")
        self.assertEqual(self.run_js("return [...document.querySelectorAll('.structure')].map((s) => s.lang)"), [str(reader.trailer["/Root"]["/Lang"])] * 2)
        # A word of the text layer ("Guide", the heading's first) is no text of the tree.
        spoken = [n["name"]["value"].strip() for n in nodes if not n.get("ignored") and n["role"]["value"] == "StaticText"]
        self.assertIn("Guide to the Reading Room", spoken)
        self.assertNotIn("Guide", spoken, "the words drawn for selection are read twice")
        self.assertEqual(self.accessibility_violations(), [])
        # An untagged page's structure is inferred from its layout, and says so.
        self.open_viewer()
        self.wait_for("return document.querySelector('.page[data-index=\"0\"] .structure') !== null", "page 1's structure")
        label = self.run_js("return document.querySelector('.page[data-index=\"0\"] .structure').getAttribute('aria-label')")
        self.assertIn("inferred", label)

    def test_50_reading_mode_relays_the_text_for_a_phone(self):
        # On a phone's screen (390 x 844 CSS pixels), reading mode shows tagged.pdf's text as
        # HTML: its headings with their levels in the structure's order (as tagged.json, the
        # engine's reading, has them), its table with header cells, its list and its figure
        # with its description, no wider than the screen; an untagged document's figures as
        # the parts of their pages they cover. The reader's text size, line
        # spacing and width apply and are kept for the next visit; axe-core finds no
        # violation. On the hundred-page document the page read is kept both ways: reading
        # starts at the page shown, and the pages come back at the page read.
        self.browser.set_window_size(390, 844)
        self.addCleanup(self.browser.set_window_size, 1280, 1000)
        path = os.path.join(self.folder, "tagged.pdf")
        shutil.copy(os.path.join(FIXTURES, "tagged.pdf"), path)
        self.open_alone(path, 2)
        self.run_js("localStorage.removeItem('reading')")
        self.browser.find_element("id", "reading-toggle").click()
        self.wait_for("return document.querySelectorAll('#reading-text .reading-page').length === 2", "both pages' text")
        self.assertTrue(self.run_js("return document.getElementById('viewer').hidden && !document.getElementById('reading').hidden"))
        self.assertEqual(self.run_js("return document.getElementById('reading-toggle').getAttribute('aria-pressed')"), "true")
        with open(os.path.join(FIXTURES, "tagged.json")) as f:
            stated = json.load(f)["pages"]
        headings = [(e["level"], e["text"]) for page in stated for e in page["elements"] if e["kind"] == "heading"]
        shown = self.run_js("return [...document.querySelectorAll('#reading-text h1, #reading-text h2, #reading-text h3')]"
                            ".map((h) => [Number(h.tagName[1]), h.textContent])")
        self.assertEqual([tuple(h) for h in shown], headings)
        kinds = self.run_js("return [...document.querySelectorAll('#reading-text .reading-page')].map((page) => "
                            "[...page.children].slice(1).map((e) => e.tagName.toLowerCase()))")
        tags = {"heading": None, "paragraph": "p", "table": "table", "list": "ul", "figure": "figure"}
        for page, listed in zip(stated, kinds):
            expected = [tags[e["kind"]] or "h%d" % e["level"] for e in page["elements"]]
            if any(e["kind"] == "list" and e["ordered"] for e in page["elements"]):
                expected = ["ol" if t == "ul" else t for t in expected]
            self.assertEqual(listed, expected)
        self.assertGreater(self.run_js("return document.querySelectorAll('#reading-text th').length"), 0)
        self.assertTrue(self.run_js("return document.querySelector('#reading-text figure figcaption').textContent.length > 0"))
        # Nothing wider than the phone's screen: the text wraps, the view never scrolls sideways.
        self.assertLessEqual(self.run_js("return document.getElementById('reading').scrollWidth - document.getElementById('reading').clientWidth"), 0)
        self.assertLessEqual(self.run_js("return document.getElementById('reading-text').getBoundingClientRect().right"), 390)
        # The reader's settings: larger text, wide lines, a narrow measure.
        size = lambda: self.run_js("return parseFloat(getComputedStyle(document.querySelector('#reading-text .reading-page > p:not(.reading-page-number)')).fontSize)")
        before = size()
        self.browser.find_element("id", "reading-larger").click()
        self.browser.find_element("id", "reading-larger").click()
        self.assertEqual(size(), before + 4)
        from selenium.webdriver.support.ui import Select
        Select(self.browser.find_element("id", "reading-spacing")).select_by_value("2")
        self.assertAlmostEqual(self.run_js("return parseFloat(getComputedStyle(document.querySelector('#reading-text .reading-page > p:not(.reading-page-number)')).lineHeight)"), (before + 4) * 2, delta=0.5)
        self.browser.set_window_size(1280, 1000)
        Select(self.browser.find_element("id", "reading-width")).select_by_value("28em")
        self.assertAlmostEqual(self.run_js("return document.getElementById('reading-text').getBoundingClientRect().width"), 28 * (before + 4), delta=1)
        self.assertEqual(self.run_js("return JSON.parse(localStorage.getItem('reading'))"), {"fontSize": before + 4, "lineSpacing": "2", "width": "28em"})
        self.assertEqual(self.accessibility_violations(), [], "reading mode")
        self.browser.set_window_size(390, 844)
        # The sample's figures (a drawing on page 1, a picture on page 2), untagged: each is
        # shown as the part of its page the structure gives as its area, drawn by the server.
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=docs%2Fsample.pdf")
        self.wait_page_drawn(0)
        self.browser.find_element("id", "reading-toggle").click()
        self.wait_for("return document.querySelectorAll('#reading-text .reading-page').length === 3", "the sample's three pages")
        structure = self.browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch('/api/documents/docs%2Fsample.pdf/structure?first=1&last=3').then((r) => r.json()).then(done, () => done(null));
        """)
        areas = [area for page in structure["pages"] for area in page.get("figureAreas", [])]
        self.assertEqual(len(areas), 2, structure)
        self.wait_for("return [...document.querySelectorAll('#reading-text figure img')].filter((i) => i.complete && i.naturalWidth > 0).length === 2",
                      "both figures' images drawn")
        drawn = self.run_js("return [...document.querySelectorAll('#reading-text figure img')].map((i) => [i.naturalWidth, i.naturalHeight, i.alt])")
        for (width, height, alt), area in zip(drawn, areas):
            self.assertAlmostEqual(width / height, area["size"]["width"] / area["size"]["height"], delta=0.03)
            self.assertTrue(alt)
        self.assertLessEqual(self.run_js("return document.getElementById('reading').scrollWidth - document.getElementById('reading').clientWidth"), 0)
        # The hundred pages: reading starts at the page read (page 5 gone to, or the one the
        # viewer counts as read once it is laid out on this screen), at the top of the view,
        # with the pages before it read for scrolling back; scrolled to page 7's text, the
        # pages come back at page 7.
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=docs%2Flong.pdf&page=5")
        self.wait_page_drawn(4)
        read = int(self.run_js("return document.getElementById('page-number').value"))
        self.browser.find_element("id", "reading-toggle").click()
        self.wait_for("return document.querySelector('#reading-text .reading-page[data-index=\"%d\"]') && "
                      "document.querySelector('#reading-text .reading-page[data-index=\"%d\"]')" % (read - 1, read - 2), "the page read and the one before")
        placed = self.run_js("""
            const bar = document.querySelector('#reading .reading-settings').getBoundingClientRect();
            return document.querySelector('#reading-text .reading-page[data-index="' + arguments[0] + '"]').getBoundingClientRect().top - bar.bottom;
        """, read - 1)
        self.assertLess(abs(placed), 40, "the page read at the top of the view")
        self.assertEqual(self.run_js("return document.getElementById('page-number').value"), str(read))
        self.wait_for("return document.querySelector('#reading-text .reading-page[data-index=\"6\"]')", "page 7's text")
        self.run_js("const reading = document.getElementById('reading'); const page = document.querySelector('#reading-text .reading-page[data-index=\"6\"]');"
                    "reading.scrollTop += page.getBoundingClientRect().top - reading.getBoundingClientRect().top;")
        self.wait_for("return document.getElementById('page-number').value === '7'", "the page box to follow the reading")
        # Earlier pages are read as the reader scrolls back to the top.
        self.run_js("document.getElementById('reading').scrollTop = 0")
        self.wait_for("return document.querySelector('#reading-text .reading-page[data-index=\"3\"]')", "page 4's text, before the first read")
        self.run_js("const reading = document.getElementById('reading'); const page = document.querySelector('#reading-text .reading-page[data-index=\"6\"]');"
                    "reading.scrollTop += page.getBoundingClientRect().top - reading.getBoundingClientRect().top;")
        self.wait_for("return document.getElementById('page-number').value === '7'", "the page box at 7 again")
        self.browser.find_element("id", "reading-toggle").click()
        self.wait_for("return !document.getElementById('viewer').hidden", "the pages back")
        self.wait_page_drawn(6)
        top = self.run_js("const view = document.getElementById('viewer').getBoundingClientRect();"
                          "return document.querySelector('.page[data-index=\"6\"]').getBoundingClientRect().top - view.top")
        self.assertLess(abs(top), 20, "page 7 at the top of the view")

    # A stand-in for the browser's speech synthesis (headless Chromium speaks nothing), put in
    # place before the viewer's scripts run: it records each utterance (its text, speed,
    # voice, the page box's page and how many cancels came before) and fires a word boundary
    # at each word, then the end; in manual mode one boundary (or the end) a step().
    SPEECH_STAND_IN = """
        (() => {
          class Utterance extends EventTarget {
            constructor(text) { super(); this.text = text; this.rate = 1; this.voice = null; this.lang = ''; }
          }
          const voices = [{ name: 'Test English', lang: 'en-US', default: true }, { name: 'Test Deutsch', lang: 'de-DE', default: false }];
          const record = { utterances: [], cancels: 0, manual: false };
          const queue = [];
          const fire = (utterance, type, charIndex) => {
            const event = new Event(type);
            event.charIndex = charIndex;
            event.name = 'word';
            utterance.dispatchEvent(event);
          };
          class Synthesis extends EventTarget {
            constructor() { super(); this.paused = false; }
            get speaking() { return queue.length > 0; }
            getVoices() { return voices; }
            speak(utterance) {
              const page = document.getElementById('page-number').value;
              record.utterances.push({ text: utterance.text, rate: utterance.rate, voice: utterance.voice && utterance.voice.name, page, cancels: record.cancels });
              const words = [...utterance.text.matchAll(/\\S+/g)].map((m) => m.index);
              queue.push({ utterance, words, next: 0 });
              if (!record.manual) setTimeout(() => this.pump(), 0);
            }
            cancel() { queue.length = 0; record.cancels += 1; }
            pause() { this.paused = true; }
            resume() { this.paused = false; if (!record.manual) setTimeout(() => this.pump(), 0); }
            step() {
              if (this.paused || queue.length === 0) return false;
              const spoken = queue[0];
              if (spoken.next < spoken.words.length) {
                fire(spoken.utterance, 'boundary', spoken.words[spoken.next]);
                spoken.next += 1;
              } else {
                queue.shift();
                fire(spoken.utterance, 'end', spoken.utterance.text.length);
              }
              return true;
            }
            pump() { while (!record.manual && this.step()) {} }
          }
          const synthesis = new Synthesis();
          Object.defineProperty(window, 'speechSynthesis', { value: synthesis, configurable: true });
          Object.defineProperty(window, 'SpeechSynthesisUtterance', { value: Utterance, configurable: true });
          window.speech = record;
        })();
    """

    def test_51_reads_aloud_from_the_page_read_marking_each_word(self):
        # text.pdf's three pages read aloud through the stand-in: the words asked for are each
        # page's text in reading order (pdftotext's), the word spoken is marked on the page
        # (over its text layer's word) and in reading mode, pause and resume, a new speed
        # goes on from the word spoken, the pages turn, and reading stops after the last.
        added = self.browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": self.SPEECH_STAND_IN})
        self.addCleanup(self.browser.execute_cdp_cmd, "Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})
        # A new document, not a move within the viewer's page, so that the stand-in is there.
        self.browser.get("about:blank")
        self.open_viewer()
        self.assertFalse(self.run_js("return document.getElementById('read-aloud-controls').hidden"))
        self.assertEqual(self.run_js("return [...document.getElementById('read-aloud-voice').options].map((o) => o.value)"), ["Test English", "Test Deutsch"])
        self.assertEqual(self.run_js("return document.getElementById('read-aloud-voice').value"), "Test English")
        self.select_words(0, 0, 0)  # the text layer's words are there to compare with
        self.run_js("window.speech.manual = true")
        self.browser.find_element("id", "read-aloud").click()
        self.wait_for("return window.speech.utterances.length === 1", "page 1 asked for")
        for _ in range(3):
            self.run_js("speechSynthesis.step()")
        self.wait_for("return document.querySelector('.page[data-index=\"0\"] .hit-layer .speaking')", "the third word marked")
        mark, third = self.run_js(self.LAYER_WORDS + """
            const mark = document.querySelector('.page[data-index="0"] .hit-layer .speaking').getBoundingClientRect();
            const word = layerWords(0)[2].getBoundingClientRect();
            return [[mark.left, mark.top, mark.right], [word.left, word.top, word.right]];
        """)
        for marked, laid in zip(mark, third):
            self.assertAlmostEqual(marked, laid, delta=2)
        # Paused, nothing more is spoken; resumed, it goes on.
        self.browser.find_element("id", "read-aloud-pause").click()
        self.assertTrue(self.run_js("return speechSynthesis.paused && document.getElementById('read-aloud-pause').getAttribute('aria-pressed') === 'true'"))
        self.assertFalse(self.run_js("return speechSynthesis.step()"))
        self.browser.find_element("id", "read-aloud-pause").click()
        self.assertFalse(self.run_js("return speechSynthesis.paused"))
        # A new speed: the page is spoken again from the word being spoken, at that speed.
        from selenium.webdriver.support.ui import Select
        Select(self.browser.find_element("id", "read-aloud-rate")).select_by_value("1.5")
        self.wait_for("return window.speech.utterances.length === 2", "the page asked for again")
        again = self.run_js("return window.speech.utterances[1]")
        self.assertEqual((again["rate"], again["voice"], again["text"].split()[0]), (1.5, "Test English", "brown"))
        # To the end: each page asked for once more, in turn, as the page box turns.
        self.run_js("window.speech.manual = false; speechSynthesis.pump()")
        self.wait_for("return document.getElementById('read-aloud').getAttribute('aria-pressed') === 'false'", "reading to stop after the last page")
        utterances = self.run_js("return window.speech.utterances")
        self.assertEqual([u["page"] for u in utterances], ["1", "1", "2", "3"])
        source = os.path.join(self.docs, "text.pdf")
        def witness(page):
            return " ".join(subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-raw", source, "-"],
                                           capture_output=True, text=True, check=True).stdout.split())
        self.assertEqual(utterances[0]["text"], witness(1))
        self.assertEqual(utterances[1]["text"], " ".join(witness(1).split()[2:]))
        self.assertEqual([u["text"] for u in utterances[2:]], [witness(2), witness(3)])
        self.assertFalse(self.run_js("return document.querySelector('.hit-layer .speaking')"), "no mark left")
        # In reading mode the word spoken is highlighted in the text too.
        self.go_to_page(1)
        self.browser.find_element("id", "reading-toggle").click()
        self.wait_for("return document.querySelector('#reading-text .reading-page[data-index=\"0\"] p')", "page 1's text")
        self.run_js("window.speech.manual = true")
        self.browser.find_element("id", "read-aloud").click()
        self.wait_for("return window.speech.utterances.length === 5", "page 1 asked for in reading mode")
        self.run_js("speechSynthesis.step(); speechSynthesis.step()")
        self.wait_for("return CSS.highlights.has('speaking')", "the word highlighted in reading mode")
        self.assertEqual(self.run_js("return [...CSS.highlights.get('speaking')][0].toString()"), "quick")
        self.browser.find_element("id", "read-aloud").click()
        self.assertFalse(self.run_js("return CSS.highlights.has('speaking')"))
        self.assertEqual(self.accessibility_violations(), [], "reading aloud")

    def touch(self, kind, points, at):
        """One touch event through Chromium's touch emulation: `points` are (x, y) in CSS
        pixels, `at` its time in seconds (the time the viewer measures gestures by)."""
        self.browser.execute_cdp_cmd("Input.dispatchTouchEvent", {
            "type": kind, "timestamp": at,
            "touchPoints": [{"x": x, "y": y, "id": number} for number, (x, y) in enumerate(points)]})

    def test_53_fills_the_form_offline(self):
        # A reader loses the network with a form open: the viewer opens again from what it
        # kept, takes their entries and keeps them in the browser; back online, an entry whose
        # field nobody changed meanwhile reaches the file once, and one whose field another
        # client changed is shown to the reader with both values, not written over the other's;
        # the reader then applies theirs. In English and in German.
        for language in ("en", "de"):
            with self.subTest(language=language):
                browser = self.browser if language == "en" else self.start_browser("de-DE")
                try:
                    self.fill_offline(browser, "offline-form-%s.pdf" % language, language)
                finally:
                    if browser is not self.browser:
                        browser.quit()

    def fill_offline(self, browser, name, language):
        sys.path.insert(0, HERE)
        from devtools import DevTools
        from pypdf import PdfReader
        copy = os.path.join(self.docs, name)
        shutil.copy(os.path.join(FIXTURES, "forms.pdf"), copy)
        self.addCleanup(os.remove, copy)
        document = "docs%2F" + name
        values = lambda: {key: field.get("/V") for key, field in (PdfReader(copy).get_fields() or {}).items()}
        run = browser.execute_script
        def wait(script, what, *arguments):
            deadline = time.time() + 30
            while time.time() < deadline:
                value = run(script, *arguments)
                if value:
                    return value
                time.sleep(0.1)
            self.fail("timed out waiting for " + what)
        browser.get(self.base + "/?token=" + TOKEN + "#doc=" + document)
        wait("return document.querySelector('.form-control[data-field=\"name\"]') !== null", "the form's controls")
        kept = """
            const done = arguments[arguments.length - 1];
            caches.open('renderer-viewer-kept').then((cache) => cache.keys()).then((requests) => {
              const urls = requests.map((r) => r.url);
              done(urls.some((u) => u.endsWith(arguments[0] + '/form')) && urls.some((u) => u.includes(arguments[0] + '/pages/0/image?dpi')));
            }, () => done(false));"""
        deadline = time.time() + 30
        while not browser.execute_async_script(kept, document):
            self.assertLess(time.time(), deadline, "the viewer's service worker never kept the form")
            time.sleep(0.2)
        network = DevTools(browser)
        try:
            network.offline(True)
            wait("return navigator.onLine === false", "the browser offline")
            browser.refresh()
            wait("const c = document.querySelector('.form-control[data-field=\"name\"]'); return c && c.value === 'Ada Lovelace'", "the kept form")
            from selenium.webdriver.common.keys import Keys
            for field, value in (("name", "Offline Ada"), ("address", "Offline street")):
                control = browser.find_element("css selector", '.form-control[data-field="%s"]' % field)
                control.clear()
                control.send_keys(value + Keys.TAB)
                wait("return document.getElementById('status-text').textContent.length > 0 && !document.getElementById('status').hidden", "the entry kept")
            # Nothing reached the file.
            self.assertEqual(str(values()["name"]), "Ada Lovelace")
            # Another client changes the address meanwhile.
            request = urllib.request.Request(self.base + "/api/documents/" + document + "/form", method="POST",
                                             data=json.dumps({"address": "Their street"}).encode(),
                                             headers={"Authorization": "Bearer " + TOKEN, "Content-Type": "application/json"})
            urllib.request.urlopen(request, timeout=30).close()
            # Kept in the browser, not the tab: a reload offline shows the entries again.
            browser.refresh()
            wait("const c = document.querySelector('.form-control[data-field=\"name\"]'); return c && c.value === 'Offline Ada'", "the waiting entry after a reload")
            network.offline(False)
            wait("return !document.getElementById('conflicts').hidden", "the refused entry shown")
            self.assertEqual(str(values()["name"]), "Offline Ada")
            self.assertEqual(str(values()["address"]), "Their street")
            shown = run("return document.getElementById('conflicts').innerText")
            self.assertIn({"en": "not applied", "de": "nicht übernommen"}[language], shown)
            self.assertIn("Offline street", shown)
            self.assertIn("Their street", shown)
            self.assertNotIn("name", run("return [...document.querySelectorAll('#conflicts li')].map((li) => li.dataset.id).join()"))
            browser.find_element("css selector", "#conflicts .resend").click()
            wait("return document.getElementById('conflicts').hidden", "the conflict settled")
            self.assertEqual(str(values()["address"]), "Offline street")
            self.assertEqual(str(values()["name"]), "Offline Ada")
        finally:
            network.offline(False)
            network.close()

    def test_52_works_on_a_phone_by_touch(self):
        # A phone: 390 x 844 CSS pixels at a device scale factor of 3, touch events only. The
        # toolbar fits in one row with the rest behind More; two fingers spreading to twice
        # their distance zoom the pages twice as large around them; a double tap zooms to 200%
        # around it and another goes back to the page's width; in page-by-page scrolling a
        # swipe turns the page either way; a long press selects the word under the finger.
        self.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
        self.addCleanup(self.browser.execute_cdp_cmd, "Emulation.clearDeviceMetricsOverride", {})
        self.browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        self.addCleanup(self.browser.execute_cdp_cmd, "Emulation.setTouchEmulationEnabled", {"enabled": False})
        self.open_viewer()
        self.assertEqual(self.run_js("return window.devicePixelRatio"), 3)
        visible = """return [...document.querySelectorAll('#toolbar button, #toolbar select, #toolbar input:not([type=file]), #toolbar a')]
            .filter((e) => e.offsetParent !== null).map((e) => [e.id, e.getBoundingClientRect().right])"""
        shown = self.run_js(visible)
        self.assertTrue(all(right <= 390.5 for _, right in shown), shown)
        self.assertIn("reading-toggle", [name for name, _ in shown])
        self.assertLessEqual(self.run_js("return document.getElementById('toolbar').getBoundingClientRect().height"), 60, self.run_js("""return [...document.querySelectorAll('#toolbar button, #toolbar select, #toolbar input:not([type=file]), #toolbar a')]
            .filter((e) => e.offsetParent !== null).map((e) => [e.id, Math.round(e.getBoundingClientRect().left), Math.round(e.getBoundingClientRect().top), Math.round(e.getBoundingClientRect().width)])"""))
        self.assertFalse(self.run_js("return document.getElementById('print').offsetParent"), "print is behind More")
        self.browser.find_element("id", "toolbar-more").click()
        self.assertTrue(self.run_js("return document.getElementById('print').offsetParent !== null"))
        self.assertEqual(self.run_js("return document.getElementById('toolbar-more').getAttribute('aria-expanded')"), "true")
        self.assertTrue(all(right <= 390.5 for _, right in self.run_js(visible)), "the open menu wraps within the screen")
        self.browser.find_element("id", "toolbar-more").click()
        self.assertFalse(self.run_js("return document.getElementById('print').offsetParent"))
        # Pinch: the point of page 1 between the fingers stays between them.
        page_point = """
            const box = document.querySelector('.page[data-index="0"]').getBoundingClientRect();
            const scale = box.width / 612;
            return [(arguments[0] - box.left) / scale, (arguments[1] - box.top) / scale, scale];"""
        before = self.run_js(page_point, 195, 400)
        now = time.time()
        self.touch("touchStart", [(150, 400), (240, 400)], now)
        self.touch("touchMove", [(130, 400), (260, 400)], now + 0.05)
        self.touch("touchMove", [(105, 400), (285, 400)], now + 0.1)
        self.touch("touchEnd", [], now + 0.15)
        self.wait_for("return !document.getElementById('pages').style.transform", "the pinch to end")
        after = self.run_js(page_point, 195, 400)
        self.assertAlmostEqual(after[2] / before[2], 2, delta=0.03)
        self.assertAlmostEqual(after[0], before[0], delta=3)
        self.assertAlmostEqual(after[1], before[1], delta=3)
        # Double tap: 200% around the tap, then the page's width again.
        def double_tap(x, y):
            start = time.time()
            for offset in (0, 0.12):
                self.touch("touchStart", [(x, y)], start + offset)
                self.touch("touchEnd", [], start + offset + 0.05)
        double_tap(195, 300)
        self.wait_for("return document.getElementById('zoom').value === '2'", "200% after a double tap")
        double_tap(195, 300)
        self.wait_for("return document.getElementById('zoom').value === 'fit-width'", "the page's width after another")
        # Page by page, a swipe to the left turns to page 2 and one to the right back to 1.
        self.browser.find_element("id", "toolbar-more").click()
        from selenium.webdriver.support.ui import Select
        Select(self.browser.find_element("id", "scroll-mode")).select_by_value("page")
        self.browser.find_element("id", "toolbar-more").click()
        def swipe(x0, x1):
            start = time.time()
            self.touch("touchStart", [(x0, 450)], start)
            self.touch("touchMove", [((x0 + x1) / 2, 452)], start + 0.05)
            self.touch("touchMove", [(x1, 455)], start + 0.1)
            self.touch("touchEnd", [], start + 0.15)
        swipe(320, 80)
        self.wait_for("return document.getElementById('page-number').value === '2'", "page 2 after a swipe to the left")
        swipe(80, 320)
        self.wait_for("return document.getElementById('page-number').value === '1'", "page 1 after a swipe to the right")
        # A long press on page 1's second word selects it.
        self.select_words(0, 0, 0)
        self.run_js("window.getSelection().removeAllRanges()")
        x, y, word = self.run_js(self.LAYER_WORDS + """
            const word = layerWords(0)[1];
            const box = word.getBoundingClientRect();
            return [box.left + box.width / 2, box.top + box.height / 2, word.toString()];""")
        self.touch("touchStart", [(x, y)], time.time())
        self.wait_for("return window.getSelection().toString().trim() === arguments[0]", "the word pressed selected", 20, word)
        self.touch("touchEnd", [], time.time())
        self.assertEqual(self.run_js("return window.getSelection().toString().trim()"), word)
        self.assertEqual(self.accessibility_violations(), [], "the phone's toolbar")
        # The reader's scrolling is kept for the document: the next tests read it vertically.
        self.browser.find_element("id", "toolbar-more").click()
        Select(self.browser.find_element("id", "scroll-mode")).select_by_value("vertical")

    def test_44_draws_the_next_pages_ahead_of_the_reader(self):
        # At 800% a page is far taller than the view and its margin: the two pages after it are
        # drawn only because the viewer draws two pages ahead once those in view are in.
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=docs%2Flong.pdf&page=5&zoom=800")
        self.wait_page_drawn(4)
        self.wait_page_drawn(5)
        self.wait_page_drawn(6)
        below = self.run_js("""
            const view = document.getElementById('viewer').getBoundingClientRect();
            return document.querySelector('.page[data-index="5"]').getBoundingClientRect().top - view.bottom;
        """)
        self.assertGreater(below, 400, "the next page is in the view's margin: this shows nothing")
        # Two pages ahead only: the one after them is not asked for.
        self.assertFalse(self.run_js("return document.querySelector('.page[data-index=\"7\"] canvas.render')"))

    def test_57_a_page_gone_to_is_asked_for_before_what_waits_for_it(self):
        # The page a jump goes to is what the reader waits for: its text and links, and the
        # thumbnails that follow it in the sidebar, are asked for once its image is in, not
        # beside it (on a server of two cores they made the image come later).
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=docs%2Flong.pdf&page=1")
        self.wait_page_drawn(0)
        self.wait_for("return document.querySelectorAll('#thumbnails .thumbnail').length === 100", "the thumbnails")
        self.run_js("""
            performance.clearResourceTimings();
            window.jumped = performance.now();
            location.hash = 'doc=docs%2Flong.pdf&page=60';
        """)
        self.wait_page_drawn(59)
        # An image without a source counts as complete: wait for the thumbnail's own picture.
        self.wait_for("const image = document.querySelector('#thumbnails .thumbnail[data-index=\"59\"] img');"
                      " return image.src !== '' && image.complete && image.naturalWidth > 0", "the page's thumbnail")
        entries = self.run_js("""
            return performance.getEntriesByType('resource').filter((e) => e.startTime >= window.jumped)
              .map((e) => [new URL(e.name).pathname + new URL(e.name).search, e.startTime, e.responseEnd]);
        """)
        image = [e for e in entries if e[0].startswith("/api/documents/docs%2Flong.pdf/pages/59/image?dpi=")]
        self.assertEqual(len(image), 1, entries)
        image_in = image[0][2]
        waiting = [e for e in entries if e[0].startswith(("/api/documents/docs%2Flong.pdf/pages/59/text", "/api/documents/docs%2Flong.pdf/pages/59/links"))
                   or "/image?width=" in e[0]]
        self.assertGreaterEqual(len(waiting), 3, entries)
        for address, started, _ in waiting:
            self.assertGreaterEqual(started, image_in, "%s was asked for before the page's image was in" % address)

    def test_59_moves_only_the_kinds_the_api_changes(self):
        # What a kind is comes from the library's table (/api/annotation-kinds): a square gets
        # grips to move it by; a caret and a file attachment, which the API only reads, are
        # chosen and shown but get none, so no move is sent that the server would refuse.
        self.open_copy("annotations.pdf", "kinds.pdf")
        self.wait_page_drawn(0)
        self.browser.find_element("id", "tab-annotations").click()
        self.wait_for("return document.querySelectorAll('#annotations li .entry').length >= 8", "the annotations listed")
        grips = "return document.querySelectorAll('.page[data-index=\"0\"] svg .arrange.grip').length"
        shapes = "return [...document.querySelectorAll('.page[data-index=\"0\"] svg .annotation')].map((s) => s.dataset.kind + ':' + s.firstElementChild.tagName)"
        drawn = self.run_js(shapes)
        for expected in ["Square:rect", "Ink:polyline", "Line:polyline", "PolyLine:polyline", "Highlight:polygon", "Caret:rect", "FileAttachment:rect"]:
            self.assertIn(expected, drawn)
        for kind, movable in [("Square", True), ("Caret", False), ("FileAttachment", False), ("Ink", True)]:
            entry = [e for e in self.browser.find_elements("css selector", "#annotations li .entry") if kind in e.text][0]
            entry.click()
            self.wait_for("return document.getElementById('editor-kind').textContent.includes(%r)" % kind, "the %s chosen" % kind)
            self.wait_for(grips + (" === 4" if movable else " === 0"), "the %s %s grips" % (kind, "with" if movable else "without"))

    def test_58_the_place_holds_while_the_pages_are_out_of_view(self):
        # In reading mode the pages are not laid out (each starts at 0): the page read is still
        # the one gone to, in the address and when the pages come back, not the last page.
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=docs%2Flong.pdf&page=3")
        self.wait_page_drawn(2)
        self.browser.find_element("id", "reading-toggle").click()
        self.wait_for("return !document.getElementById('reading').hidden && document.getElementById('viewer').hidden", "reading mode")
        # A scroll event saves the place (the address, then the server's reader state).
        self.run_js("window.scrolled = performance.now(); document.getElementById('viewer').dispatchEvent(new Event('scroll'))")
        self.wait_for("return performance.getEntriesByType('resource').some((e) => e.name.endsWith('/state') && e.startTime > window.scrolled)",
                      "the place saved")
        self.assertIn("&page=3&", self.run_js("return location.hash + '&'"))
        self.browser.find_element("id", "reading-toggle").click()
        self.wait_for("return !document.getElementById('viewer').hidden", "the pages back")
        self.wait_page_drawn(2)
        self.assertIn("&page=3&", self.run_js("return location.hash + '&'"))
        self.assertEqual(self.run_js("return document.getElementById('page-number').value"), "3")

    def test_42_prints_a_long_document_in_batches_with_progress_and_a_cancel(self):
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=docs%2Flong.pdf")
        self.wait_for("return document.querySelectorAll('.page').length === 100", "the hundred pages")
        self.wait_for("return !document.getElementById('print').hidden", "the print command")
        # The browser's dialog stands in for the printer: each print records the pages on
        # its sheets, then ends as a print does.
        self.run_js("""
            window.printed = [];
            window.print = () => {
              window.printed.push([...document.querySelectorAll('#print-view .print-page')].map((sheet) => Number(sheet.dataset.index)));
              dispatchEvent(new Event('afterprint'));
            };
            import('/viewer/print.js').then((module) => module.printInBrowser(null, 40));
        """)
        self.wait_for("return window.printed.length === 1 && !document.getElementById('print-continue').hidden", "the first batch printed")
        self.assertEqual(self.run_js("return window.printed[0]"), list(range(40)))
        self.assertIn("41", self.run_js("return document.getElementById('print-progress-text').textContent"))
        self.assertFalse(self.run_js("return document.getElementById('print-view')"), "the printed sheets are kept")
        self.browser.find_element("id", "print-continue").click()
        self.wait_for("return window.printed.length === 2", "the second batch printed")
        self.browser.find_element("id", "print-continue").click()
        self.wait_for("return window.printed.length === 3 && !document.getElementById('print-progress').open", "the last batch printed")
        self.assertEqual(self.run_js("return window.printed.slice(1)"), [list(range(40, 80)), list(range(80, 100))])
        # A Cancel while pages are fetched: the images asked for are held until it is clicked.
        self.run_js("""
            window.printed = [];
            window.held = [];
            window.printImages = 0;
            const fetched = window.fetch;
            window.fetch = (address, options) => {
              if (!String(address).includes('purpose=print')) return fetched(address, options);
              window.printImages += 1;
              return new Promise((resolve) => window.held.push(() => resolve(fetched(address, options))));
            };
            import('/viewer/print.js').then((module) => module.printInBrowser(null, 40));
        """)
        self.wait_for("return window.printImages === 4 && document.getElementById('print-progress').open", "the first pages asked for")
        self.browser.find_element("id", "print-stop").click()
        self.run_js("window.held.forEach((release) => release())")
        self.wait_for("return /cancelled/.test(document.getElementById('status-text').textContent)", "the cancel said")
        self.assertEqual(self.run_js("return window.printImages"), 4, "pages asked for after the cancel")
        self.assertEqual(self.run_js("return window.printed"), [])
        self.assertFalse(self.run_js("return document.getElementById('print-view') || document.getElementById('print-progress').open"))

    def test_43_a_print_from_the_browsers_menu_says_so_then_prints_the_document(self):
        import base64
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=" + DOCUMENT.replace("/", "%2F"))
        self.wait_page_drawn(0)
        self.run_js("window.printRequested = false; window.print = () => { window.printRequested = true; };")
        # The browser's menu prints at once, with no Print command before it (printToPDF
        # sends the page its beforeprint and afterprint as that print does).
        pdf = self.browser.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True})
        path = os.path.join(self.folder, "menu-printed.pdf")
        with open(path, "wb") as f:
            f.write(base64.b64decode(pdf["data"]))
        text = subprocess.run(["pdftotext", path, "-"], check=True, capture_output=True, text=True).stdout
        self.assertIn("stands for the document", " ".join(text.split()))
        # Then the viewer prints the document itself: its three pages prepared as sheets.
        self.wait_for("return window.printRequested", "the document's own print", timeout=60)
        self.assertEqual(self.run_js("return document.querySelectorAll('#print-view .print-page img').length"), 3)
        self.assertFalse(self.run_js("return document.getElementById('print-notice')"))

    def test_15_a_document_whose_permissions_forbid_printing_offers_no_print(self):
        # restricted.pdf opens without a password and forbids printing (make-fixtures.sh).
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=" + "docs/restricted.pdf".replace("/", "%2F"))
        self.wait_for("return document.querySelectorAll('.page').length > 0", "the pages laid out")
        self.assertTrue(self.run_js("return document.getElementById('print').hidden"))
        # Ctrl+P says why instead of printing the viewer.
        self.run_js("window.printRequested = false; window.print = () => { window.printRequested = true; };")
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys
        ActionChains(self.browser).key_down(Keys.CONTROL).send_keys("p").key_up(Keys.CONTROL).perform()
        self.wait_for("return /do not allow printing/.test(document.getElementById('status-text').textContent)", "the reason")
        self.assertFalse(self.run_js("return window.printRequested"))

    def test_16_each_reader_has_their_own_place_and_it_outlives_the_server(self):
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=" + "docs/long.pdf".replace("/", "%2F"))
        self.wait_for("return document.querySelectorAll('.page').length === 100", "the hundred pages")
        self.go_to_page(40)
        self.wait_saved_page("docs/long.pdf", 39)
        self.browser.find_element("id", "add-bookmark").click()
        self.wait_for("return document.querySelectorAll('#bookmarks li').length === 1", "the bookmark")
        # A second reader (another browser) starts at the beginning, with no bookmarks.
        other = self.start_browser()
        try:
            other.get(self.base + "/?token=" + TOKEN + "#doc=" + "docs/long.pdf".replace("/", "%2F"))
            deadline = time.time() + 20
            while time.time() < deadline and other.execute_script("return document.querySelectorAll('.page').length") != 100:
                time.sleep(0.1)
            self.assertEqual(other.execute_script("return document.querySelectorAll('.page').length"), 100)
            deadline = time.time() + 20
            while time.time() < deadline and other.execute_script("return document.getElementById('page-number').value") != "1":
                time.sleep(0.1)
            self.assertEqual(other.execute_script("return document.getElementById('page-number').value"), "1")
            self.assertEqual(other.execute_script("return document.querySelectorAll('#bookmarks li').length"), 0)
        finally:
            other.quit()
        # The server restarts on the same state database: the first reader is back at page 40.
        old = type(self).server
        try:
            stop(old)
        finally:
            # A server that had to be killed is replaced all the same: the tests after this
            # one are not its casualties.
            token_file = os.path.join(self.folder, "token")
            type(self).server, type(self).base = serve(HOSTAPP, [self.docs, "--token-file", token_file, "--reader-state", self.readers])
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=" + "docs/long.pdf".replace("/", "%2F"))
        self.wait_for("return document.getElementById('page-number').value === '40'", "page 40 after the restart")
        self.wait_for("return document.querySelectorAll('#bookmarks li').length === 1", "the bookmark after the restart")

    def form_values(self):
        """The form's values in the served file, as pypdf (an independent reader) reads them."""
        from pypdf import PdfReader
        fields = PdfReader(os.path.join(self.docs, "forms.pdf")).get_fields() or {}
        def plain(value):
            if value is None:
                return None
            return [str(v) for v in value] if isinstance(value, list) else str(value).lstrip("/")
        return {name: plain(field.get("/V")) for name, field in fields.items()}

    def wait_form_value(self, name, value, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if self.form_values().get(name) == value:
                    return
            except Exception:
                pass  # the file is being replaced; read it again
            time.sleep(0.1)
        self.fail("timed out waiting for %s = %r in the file (it holds %r)" % (name, value, self.form_values().get(name)))

    def test_17_fills_the_form_in_the_page(self):
        from selenium.webdriver.common.keys import Keys
        from selenium.webdriver.support.ui import Select
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=" + "docs/forms.pdf".replace("/", "%2F"))
        self.wait_for("return document.querySelector('.form-control[data-field=\"name\"]') !== null", "the form's controls")
        control = lambda name: self.browser.find_element("css selector", '.form-control[data-field="%s"]' % name)
        self.assertEqual(control("name").get_attribute("value"), "Ada Lovelace")
        self.assertEqual(control("name").get_attribute("maxlength"), "40")
        self.assertEqual(control("id").get_attribute("readonly"), "true")
        self.assertEqual(control("secret").get_attribute("type"), "password")
        self.assertEqual(control("address").tag_name, "textarea")
        # The controls lie over the widgets: "name" at x 72 pt from the page's left.
        left = self.run_js("const c = document.querySelector('.form-control[data-field=\"name\"]'); "
                           "return c.getBoundingClientRect().left - c.closest('.page').getBoundingClientRect().left")
        self.assertAlmostEqual(left, 72 * self.scale(0), delta=2)
        name = control("name")
        name.clear()
        name.send_keys("Grace Hopper" + Keys.TAB)
        self.wait_form_value("name", "Grace Hopper")
        control("subscribe").click()
        self.wait_form_value("subscribe", "Off")
        self.browser.find_element("css selector", '.form-control[data-field="size"][value="L"]').click()
        self.wait_form_value("size", "L")
        colors = Select(control("colors"))
        colors.deselect_all()
        self.wait_form_value("colors", "")
        colors.select_by_value("green")
        self.wait_form_value("colors", "green")
        # A value the server refuses (past /MaxLen, set by a script past the box's own limit):
        # said in words, and the box shows the file's value again.
        self.run_js("const c = document.querySelector('.form-control[data-field=\"name\"]'); c.value = 'x'.repeat(41); "
                    "c.dispatchEvent(new Event('change'))")
        self.wait_for("return /The form was not saved/.test(document.getElementById('status-text').textContent)", "the refusal")
        self.wait_for("return document.querySelector('.form-control[data-field=\"name\"]').value === 'Grace Hopper'", "the value again")
        self.assertEqual(self.form_values()["name"], "Grace Hopper")
        # Ctrl+Z takes the last fill back (the refused one was none): no colour chosen again,
        # in the file and in the list; Ctrl+Y makes it again.
        from selenium.webdriver.common.action_chains import ActionChains
        chord = lambda key: ActionChains(self.browser).key_down(Keys.CONTROL).send_keys(key).key_up(Keys.CONTROL).perform()
        self.run_js("document.activeElement.blur(); document.getElementById('viewer').focus()")
        chord("z")
        self.wait_form_value("colors", "")
        self.wait_for("return document.querySelector('.form-control[data-field=\"colors\"]').selectedOptions.length === 0", "no colour chosen in the list")
        chord("y")
        self.wait_form_value("colors", "green")

    def accessibility_violations(self):
        """What axe-core (axe-selenium-python's copy) finds against WCAG 2.0 and 2.1, levels A
        and AA, on the page as it is now: one line per violation and element. No rule is off."""
        import axe_selenium_python
        script = os.path.join(os.path.dirname(axe_selenium_python.__file__), "node_modules", "axe-core", "axe.min.js")
        with open(script, encoding="utf-8") as f:
            self.run_js(f.read())
        self.browser.set_script_timeout(120)
        result = self.browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa"] } })
              .then(done, (error) => done({ error: String(error) }));
        """)
        self.assertNotIn("error", result, result.get("error"))
        self.assertGreater(len(result["passes"]), 10, "axe checked next to nothing")
        return ["%s (%s): %s" % (v["id"], v["impact"], node["target"]) for v in result["violations"] for node in v["nodes"]]

    def test_18_every_view_passes_axe_and_works_from_the_keyboard(self):
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=docs%2Foutline.pdf&page=1")
        self.wait_for("return document.querySelectorAll('.page').length === 4", "outline.pdf's pages")
        self.wait_page_drawn(0)
        self.assertEqual(self.accessibility_violations(), [], "the pages")
        # axe scrolls the pages as it checks the text drawn ahead: back to page 1 first.
        self.run_js("document.getElementById('viewer').scrollTop = 0")
        self.wait_for("return document.getElementById('page-number').value === '1'", "page 1 again")
        # The keyboard works without a first click: Page Down turns the page.
        self.assertEqual(self.run_js("return document.activeElement.id"), "viewer")
        ActionChains(self.browser).send_keys(Keys.PAGE_DOWN).perform()
        self.wait_for("return document.getElementById('page-number').value === '2'", "page 2 by Page Down")
        # The sidebar's tabs by arrow keys, the outline's entries by Tab and Enter.
        self.run_js("document.getElementById('tab-thumbnails').focus()")
        ActionChains(self.browser).send_keys(Keys.ARROW_RIGHT).perform()
        self.wait_for("return document.getElementById('tab-outline').getAttribute('aria-selected') === 'true'", "the outline tab")
        self.assertEqual(self.run_js("return document.activeElement.id"), "tab-outline")
        self.wait_for("return document.querySelectorAll('#outline .entry').length > 3", "the outline's entries")
        self.assertEqual(self.accessibility_violations(), [], "the outline")
        # Chapter 1 is open in the file, Chapter 2 closed: each has a toggle before its entry.
        ActionChains(self.browser).send_keys(Keys.TAB).perform()
        self.assertEqual(self.run_js("return document.activeElement.getAttribute('aria-expanded')"), "true")
        ActionChains(self.browser).send_keys(Keys.TAB).perform()
        self.assertEqual(self.run_js("return document.activeElement.textContent"), "Chapter 1")
        self.assertFalse(self.browser.find_element("xpath", "//button[text()='Section 2.1']").is_displayed())
        ActionChains(self.browser).send_keys(Keys.TAB, Keys.TAB).perform()
        self.assertEqual(self.run_js("return document.activeElement.textContent"), "Section 1.2")
        ActionChains(self.browser).send_keys(Keys.ENTER).perform()
        self.wait_for("return document.getElementById('page-number').value === '3'", "Section 1.2's page by Enter")
        # Focus is seen: the focused entry has an outline.
        self.assertNotEqual(self.run_js("return getComputedStyle(document.activeElement).outlineStyle"), "none")
        # A closed chapter opens by its toggle.
        ActionChains(self.browser).send_keys(Keys.TAB, Keys.ENTER).perform()
        self.wait_for("return [...document.querySelectorAll('#outline .entry')].some((e) => e.textContent === 'Section 2.1' && e.offsetParent)", "Chapter 2 opened")
        for tab in ("bookmarks", "annotations"):
            self.browser.find_element("id", "tab-" + tab).click()
            self.wait_for("return !document.getElementById(arguments[0]).hidden", "the %s tab" % tab, 20, tab)
            self.assertEqual(self.accessibility_violations(), [], tab)
        self.browser.find_element("id", "properties-open").click()
        self.wait_for("return document.getElementById('properties').open", "the properties dialog")
        self.assertEqual(self.accessibility_violations(), [], "the properties")
        self.browser.find_element("id", "properties-close").click()
        # The form in the page and the password prompt.
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=docs%2Fforms.pdf")
        self.wait_for("return document.querySelectorAll('.form-control').length > 5", "the form's controls")
        self.assertEqual(self.accessibility_violations(), [], "the form")
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=docs%2Fencrypted.pdf")
        self.wait_for("return document.getElementById('password-field') !== null", "the password prompt")
        self.assertEqual(self.accessibility_violations(), [], "the password prompt")

    def test_19_speaks_the_readers_language(self):
        # Both catalogs hold every key, and every key the page names is in them.
        self.open_viewer()
        keys = self.browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            Promise.all([import("/viewer/locale-en.js"), import("/viewer/locale-de.js")]).then(([en, de]) => {
              const named = [...document.querySelectorAll("[data-i18n], [data-i18n-title], [data-i18n-label], [data-i18n-placeholder]")]
                .flatMap((e) => [e.dataset.i18n, e.dataset.i18nTitle, e.dataset.i18nLabel, e.dataset.i18nPlaceholder]).filter(Boolean);
              done({ en: Object.keys(en.default).sort(), de: Object.keys(de.default).sort(), named });
            });
        """)
        self.assertEqual(keys["en"], keys["de"])
        self.assertEqual([key for key in keys["named"] if key not in keys["en"]], [])
        self.assertEqual(self.run_js("return document.documentElement.lang"), "en")
        # A reader whose browser asks for German reads German, numbers in its form.
        german = self.start_browser("de-DE")
        try:
            german.get(self.base + "/?token=" + TOKEN + "#doc=docs%2Fsample.pdf")
            deadline = time.time() + 20
            while time.time() < deadline and german.execute_script("return document.querySelectorAll('.page').length") == 0:
                time.sleep(0.1)
            self.assertEqual(german.execute_script("return document.documentElement.lang"), "de")
            self.assertEqual(german.find_element("id", "print").text, "Drucken")
            self.assertEqual(german.find_element("id", "tab-outline").text, "Inhalt")
            # Reading for everyone, in German too: reading mode, read aloud and its speed,
            # the phone's More; reading mode's page markers.
            self.assertEqual(german.find_element("id", "reading-toggle").text, "Lesemodus")
            self.assertEqual(german.find_element("id", "read-aloud").text, "Vorlesen")
            self.assertEqual(german.find_element("id", "read-aloud-rate").get_attribute("aria-label"), "Tempo des Vorlesens")
            self.assertEqual(german.find_element("id", "toolbar-more").get_attribute("aria-label"), "Weitere Werkzeuge")
            german.find_element("id", "reading-toggle").click()
            deadline = time.time() + 20
            while time.time() < deadline and not german.execute_script("return document.querySelector('#reading-text .reading-page-number')"):
                time.sleep(0.1)
            self.assertEqual(german.execute_script("return document.querySelector('#reading-text .reading-page-number').textContent"), "Seite 1")
            self.assertEqual(german.find_element("id", "reading-larger").get_attribute("aria-label"), "Größere Schrift")
            german.find_element("id", "reading-toggle").click()
            self.assertEqual(german.find_element("id", "find").get_attribute("placeholder"), "Suchen (Strg+F)")
            find = german.find_element("id", "find")
            find.send_keys("the\n")
            deadline = time.time() + 20
            while time.time() < deadline and not re.match(r"^(\d+ von \d+|Keine Treffer)$", german.find_element("id", "find-status").text):
                time.sleep(0.1)
            self.assertRegex(german.find_element("id", "find-status").text, r"^1 von \d+$")
            german.find_element("id", "properties-open").click()
            size = os.path.getsize(os.path.join(self.docs, "sample.pdf"))
            shown = german.execute_script("return document.querySelector('#properties-facts dd[data-fact=\"File size\"]').textContent")
            self.assertEqual(shown, "{:,}".format(size).replace(",", ".") + " Bytes")
            self.assertIn("Dateigröße", german.execute_script("return document.getElementById('properties-facts').textContent"))
        finally:
            german.quit()

    def test_20_reading_tools(self):
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.support.ui import Select
        self.open_viewer()
        # Find as you type: no Enter needed. "the" twice on page 1 (test 12's witness).
        find = self.browser.find_element("id", "find")
        find.clear()
        find.send_keys("the")
        self.wait_for("return /^1 of \\d+$/.test(document.getElementById('find-status').textContent)", "the hits as typed")
        marked = lambda: self.run_js("return document.querySelectorAll('.page[data-index=\"0\"] .hit').length")
        self.assertGreaterEqual(marked(), 2)
        self.browser.find_element("id", "find-highlight-all").click()
        self.wait_for("return document.querySelectorAll('.page[data-index=\"0\"] .hit').length === 1", "only the current hit")
        self.assertEqual(self.run_js("return document.querySelectorAll('.hit.current').length"), 1)
        self.browser.find_element("id", "find-highlight-all").click()
        self.wait_for("return document.querySelectorAll('.page[data-index=\"0\"] .hit').length >= 2", "every hit again")
        find.clear()
        # Automatic zoom: a portrait page at its width, at most 125%.
        Select(self.browser.find_element("id", "zoom")).select_by_value("auto")
        width = self.run_js("return document.getElementById('viewer').clientWidth")
        self.assertAlmostEqual(self.scale(0), min((width - 40) / 612, 1.25 * 96 / 72), delta=0.01)
        # Ctrl and the wheel zoom in.
        before = self.scale(0)
        self.run_js("document.getElementById('viewer').dispatchEvent(new WheelEvent('wheel', { deltaY: -100, ctrlKey: true, bubbles: true, cancelable: true }))")
        self.assertGreater(self.scale(0), before + 0.01)
        # Fit width stays fit width after a reload.
        Select(self.browser.find_element("id", "zoom")).select_by_value("fit-width")
        self.browser.refresh()
        self.wait_for("return document.querySelectorAll('.page').length === 3", "the pages after reload")
        self.assertEqual(self.run_js("return document.getElementById('zoom').value"), "fit-width")
        # A document this browser never zoomed opens at fit width.
        self.run_js("localStorage.removeItem('zoom-mode:docs/long.pdf')")
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=docs%2Flong.pdf")
        self.wait_for("return document.querySelectorAll('.page').length === 100", "the hundred pages")
        self.assertEqual(self.run_js("return document.getElementById('zoom').value"), "fit-width")
        # The thumbnails follow the page read.
        self.go_to_page(80)
        self.wait_for("""const t = document.querySelector('#thumbnails .thumbnail[data-index="79"]').getBoundingClientRect();
                         const p = document.getElementById('thumbnails').getBoundingClientRect();
                         return t.top >= p.top - 1 && t.bottom <= p.bottom + 1""", "page 80's thumbnail in view")
        self.assertEqual(self.run_js("return document.querySelector('#thumbnails [aria-current=page]').dataset.index"), "79")
        # The hand tool drags the pages.
        self.browser.find_element("css selector", "#tools [data-tool=hand]").click()
        top = self.run_js("return document.getElementById('viewer').scrollTop")
        page = self.browser.find_element("css selector", '.page[data-index="79"]')
        ActionChains(self.browser).move_to_element(page).click_and_hold().move_by_offset(0, -200).release().perform()
        self.assertAlmostEqual(self.run_js("return document.getElementById('viewer').scrollTop"), top + 200, delta=5)
        self.assertEqual(self.run_js("return window.getSelection().toString()"), "", "a drag with the hand selects nothing")
        self.browser.find_element("css selector", "#tools [data-tool=select]").click()

    def test_21_fast_scrolling_asks_only_for_the_pages_it_stops_at(self):
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=docs%2Flong.pdf&zoom=400")
        self.wait_for("return document.querySelectorAll('.page').length === 100", "the hundred pages")
        # Forty jumps at 400% (large images, slow to draw), each shown for two frames: long
        # enough for its page to be asked for, not to be drawn.
        in_flight = self.browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const viewer = document.getElementById('viewer');
            const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
            (async () => {
              for (let page = 0; page < 40; page++) {
                viewer.scrollTop = document.querySelector('.page[data-index="' + page * 2 + '"]').offsetTop;
                await frame();
                await frame();
              }
              await frame();
              await frame();
              const view = viewer.getBoundingClientRect();
              const far = [...document.querySelectorAll('.page')].filter((p) => {
                const r = p.getBoundingClientRect();
                return r.bottom < view.top - 500 || r.top > view.bottom + 500;
              });
              done({
                far: far.length,
                loading: far.filter((p) => { const i = p.querySelector('canvas.render'); return i && !i.dataset.state; }).length,
                failures: document.querySelectorAll('.page .error').length,
              });
            })();
        """)
        self.assertGreater(in_flight["far"], 50)
        self.assertEqual(in_flight["loading"], 0, "images still asked for on pages that left the view")
        self.assertEqual(in_flight["failures"], 0, "a stopped page shown as a failure")
        # The page stopped at is drawn, and pages passed come back when scrolled to.
        self.wait_page_drawn(78)
        self.go_to_page(31)
        self.wait_page_drawn(30)

    def test_41_reading_far_keeps_only_the_pages_near_the_view_drawn(self):
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=docs%2Flong.pdf&page=1&zoom=page-fit")
        self.wait_page_drawn(0)
        for number in range(2, 41):
            self.go_to_page(number)
        drawn = self.run_js("""
            const pages = [...document.querySelectorAll('.page')];
            return {
              withContent: pages.filter((p) => p.childElementCount > 0).map((p) => Number(p.dataset.index)),
              images: document.querySelectorAll('.page canvas.render').length,
              spans: document.querySelectorAll('.page .text-layer span').length,
            };
        """)
        # The viewer keeps ten drawn pages out of view, besides those in view (a page and the
        # margin around it at page-fit): none of the first pages read is still drawn.
        self.assertLessEqual(len(drawn["withContent"]), 14, drawn["withContent"])
        self.assertLessEqual(drawn["images"], 14)
        self.assertFalse([index for index in drawn["withContent"] if index < 20], drawn["withContent"])
        self.assertIn(39, drawn["withContent"])
        # A page emptied comes back whole when read again: its image and its text layer.
        self.go_to_page(3)
        self.assertIn("Page 3", self.run_js("return document.querySelector('.page[data-index=\"2\"] .text-layer').textContent"))

    def page_luminance(self, selector):
        """The mean luminance (0 to 255) of the page image `selector` names, once drawn."""
        return self.browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const image = document.querySelector(arguments[0]);
            const check = () => {
              if (image.dataset.state !== 'drawn') return requestAnimationFrame(check);
              const canvas = document.createElement('canvas');
              canvas.width = 64; canvas.height = 64;
              const context = canvas.getContext('2d');
              context.drawImage(image, 0, 0, 64, 64);
              const pixels = context.getImageData(0, 0, 64, 64).data;
              let sum = 0;
              for (let i = 0; i < pixels.length; i += 4) sum += 0.2126 * pixels[i] + 0.7152 * pixels[i + 1] + 0.0722 * pixels[i + 2];
              done(sum / (pixels.length / 4));
            };
            check();
        """, selector)

    def test_22_presentation_and_dark_mode(self):
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys
        self.open_viewer()
        # Presentation: one page at a time, fitted to the screen; keys and clicks go on.
        self.browser.find_element("id", "presentation-open").click()
        self.wait_for("return !document.getElementById('presentation').hidden", "the presentation")
        shown = lambda: self.run_js("return document.getElementById('presentation-page').dataset.index")
        self.assertEqual(shown(), "0")
        self.wait_for("const i = document.getElementById('presentation-page'); return i.complete && i.naturalWidth > 0", "page 1 shown")
        self.assertGreater(self.run_js("return document.getElementById('presentation-page').getBoundingClientRect().height"),
                           0.9 * self.run_js("return document.getElementById('presentation').clientHeight"))
        ActionChains(self.browser).send_keys(Keys.ARROW_RIGHT).perform()
        self.assertEqual(shown(), "1")
        self.browser.find_element("id", "presentation").click()
        self.assertEqual(shown(), "2")
        ActionChains(self.browser).send_keys(Keys.ARROW_RIGHT).perform()
        self.assertEqual(shown(), "2", "past the last page")
        ActionChains(self.browser).send_keys(Keys.PAGE_UP).perform()
        self.assertEqual(shown(), "1")
        ActionChains(self.browser).send_keys(Keys.ESCAPE).perform()
        self.wait_for("return document.getElementById('presentation').hidden", "the presentation left")
        self.wait_for("return document.getElementById('page-number').value === '2'", "the viewer at the page presented last")
        # Dark mode: the interface dark, and the pages drawn dark by the engine.
        light = self.page_luminance('.page[data-index="1"] canvas.render')
        self.browser.find_element("id", "dark-toggle").click()
        self.wait_for("return document.querySelector('.page[data-index=\"1\"] canvas.render').dataset.src.includes('dark=true')", "the page drawn dark")
        dark = self.page_luminance('.page[data-index="1"] canvas.render')
        self.assertGreater(light, 200)
        self.assertLess(dark, 80)
        self.assertTrue(self.run_js("return document.body.classList.contains('dark')"))
        # The find status is checked with text in it.
        find = self.browser.find_element("id", "find")
        find.clear()
        find.send_keys("the\n")
        self.wait_for("return /^(No hits|\\d+ of \\d+)$/.test(document.getElementById('find-status').textContent)", "the find status")
        self.assertEqual(self.accessibility_violations(), [], "the dark interface")
        self.browser.refresh()
        self.wait_for("return document.body.classList.contains('dark')", "dark mode kept after a reload")
        self.browser.find_element("id", "dark-toggle").click()
        self.wait_for("return !document.body.classList.contains('dark')", "light again")

    def test_39_keys_readers_expect(self):
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys
        self.open_viewer()
        self.run_js("document.activeElement.blur(); document.getElementById('viewer').focus()")
        page = lambda: self.run_js("return document.getElementById('page-number').value")
        for key, expected in (("n", "2"), ("j", "3"), ("k", "2"), ("p", "1")):
            ActionChains(self.browser).send_keys(key).perform()
            self.wait_for("return document.getElementById('page-number').value === arguments[0]", "page %s after %s" % (expected, key), 20, expected)
        # Ctrl with = and - zooms the pages; Ctrl+0 goes back to the automatic zoom.
        before = self.scale(0)
        def chord(key):
            ActionChains(self.browser).key_down(Keys.CONTROL).send_keys(key).key_up(Keys.CONTROL).perform()
        chord("=")
        deadline = time.time() + 20
        while time.time() < deadline and not self.scale(0) > before:
            time.sleep(0.1)
        self.assertGreater(self.scale(0), before, "Ctrl+= zooms in")
        larger = self.scale(0)
        chord("-")
        deadline = time.time() + 20
        while time.time() < deadline and not self.scale(0) < larger:
            time.sleep(0.1)
        self.assertLess(self.scale(0), larger, "Ctrl+- zooms out")
        chord("0")
        self.wait_for("return document.getElementById('zoom').value === 'auto'", "Ctrl+0: the automatic zoom")
        # F3 and Ctrl+G step through the hits, Shift+F3 back.
        find = self.browser.find_element("id", "find")
        find.clear()
        find.send_keys("e\n")
        self.wait_for("return /^1 of \\d+$/.test(document.getElementById('find-status').textContent)", "the first hit")
        self.run_js("document.activeElement.blur(); document.getElementById('viewer').focus()")
        status = lambda: self.run_js("return document.getElementById('find-status').textContent")
        ActionChains(self.browser).send_keys(Keys.F3).perform()
        self.wait_for("return /^2 of /.test(document.getElementById('find-status').textContent)", "F3: the next hit")
        chord("g")
        self.wait_for("return /^3 of /.test(document.getElementById('find-status').textContent)", "Ctrl+G: the next hit")
        ActionChains(self.browser).key_down(Keys.SHIFT).send_keys(Keys.F3).key_up(Keys.SHIFT).perform()
        self.wait_for("return /^2 of /.test(document.getElementById('find-status').textContent)", "Shift+F3: the hit before")
        self.assertRegex(status(), r"^2 of \d+$")

    def test_38_forced_colours_leave_the_text_layer_invisible(self):
        # A contrast theme (Windows' forced colours) must not paint the words' boxes over the page.
        self.browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "forced-colors", "value": "active"}]})
        try:
            self.open_viewer()
            self.wait_page_drawn(0)
            self.wait_for("return document.querySelectorAll('.page[data-index=\"0\"] .text-layer span').length > 0", "page 1's text")
            self.assertTrue(self.run_js("return matchMedia('(forced-colors: active)').matches"), "forced colours emulated")
            styles = self.run_js("const s = getComputedStyle(document.querySelector('.page[data-index=\"0\"] .text-layer span'));"
                                 "return [s.color, s.backgroundColor, s.forcedColorAdjust]")
            self.assertEqual(styles, ["rgba(0, 0, 0, 0)", "rgba(0, 0, 0, 0)", "none"])
        finally:
            self.browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    def test_23_rotates_the_view(self):
        from selenium.webdriver.common.action_chains import ActionChains
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=docs%2Foutline.pdf&page=1&zoom=100")
        self.wait_for("return document.querySelectorAll('.page').length === 4", "outline.pdf's pages")
        self.wait_page_drawn(0)
        self.wait_for("return document.querySelectorAll('.page[data-index=\"0\"] .text-layer span').length > 0", "page 1's text")
        scale = self.scale(0)
        ActionChains(self.browser).send_keys("r").perform()
        self.wait_for("const p = document.querySelector('.page[data-index=\"0\"]'); "
                      "return p !== null && p.getBoundingClientRect().width > p.getBoundingClientRect().height", "the page turned")
        # The turned page is drawn anew: its text layer comes back once the new image has loaded.
        self.wait_for("return document.querySelectorAll('.page[data-index=\"0\"] .text-layer span').length > 0", "page 1's text, turned")
        box = self.run_js("const r = document.querySelector('.page[data-index=\"0\"]').getBoundingClientRect(); return [r.width, r.height]")
        self.assertAlmostEqual(box[0], 792 * scale, delta=2)
        self.assertAlmostEqual(box[1], 612 * scale, delta=2)
        # The first run of words turned with the page: (x, y) in the page goes to (H - y, x) on
        # screen. Its box in points is that of the words it holds, as the server gives them.
        word = self.browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const page = document.querySelector('.page[data-index="0"]').getBoundingClientRect();
            const span = document.querySelector('.page[data-index="0"] .text-layer span');
            const r = span.getBoundingClientRect();
            const count = span.textContent.trim().split(' ').length;
            fetch('/api/documents/docs%2Foutline.pdf/pages/0/text').then((answer) => answer.json()).then((text) => {
              const boxes = text.lines[0].words.slice(0, count).map((w) => w.bounds);
              const x = Math.min(...boxes.map((b) => b.origin.x)), y = Math.min(...boxes.map((b) => b.origin.y));
              done({ left: r.left - page.left, top: r.top - page.top, width: r.width, height: r.height, x, y,
                     w: Math.max(...boxes.map((b) => b.origin.x + b.size.width)) - x, h: Math.max(...boxes.map((b) => b.origin.y + b.size.height)) - y });
            });
        """)
        height = 792 * scale
        self.assertAlmostEqual(word["left"], height - (word["y"] + word["h"]) * scale, delta=3)
        self.assertAlmostEqual(word["top"], word["x"] * scale, delta=3)
        self.assertAlmostEqual(word["width"], word["h"] * scale, delta=3)
        # Its length runs down the page now (the span holds the space after the run too).
        self.assertGreaterEqual(word["height"], word["w"] * scale - 3)
        self.assertLess(word["height"], word["w"] * scale * 1.5)
        # A note put on the turned page lands where it was put, in page space.
        self.browser.find_element("css selector", "#tools [data-tool=note]").click()
        self.click_page(0, 300, 100)
        notes = lambda: self.browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch('/api/documents/docs%2Foutline.pdf/annotations').then((r) => r.json()).then((all) => done(all.filter((a) => a.kind === 'Text')));
        """)
        deadline = time.time() + 20
        while time.time() < deadline and not notes():
            time.sleep(0.1)
        note = notes()[0]
        self.assertAlmostEqual(note["rect"]["origin"]["x"], 100 / scale, delta=2)
        self.assertAlmostEqual(note["rect"]["origin"]["y"], (height - 300) / scale, delta=2)
        self.browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch('/api/documents/docs%2Foutline.pdf/annotations/' + encodeURIComponent(arguments[0]), { method: 'DELETE' }).then(() => done());
        """, note["id"])
        # Back a quarter twice (Shift+R), then forward once: unturned again.
        self.browser.find_element("id", "rotate-ccw").click()
        self.browser.find_element("id", "rotate-ccw").click()
        self.assertAlmostEqual(self.run_js("return document.querySelector('.page[data-index=\"0\"]').getBoundingClientRect().width"), 792 * scale, delta=2)
        self.browser.find_element("id", "rotate-cw").click()
        self.assertAlmostEqual(self.run_js("return document.querySelector('.page[data-index=\"0\"]').getBoundingClientRect().width"), 612 * scale, delta=2)

    def test_24_scroll_modes(self):
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys
        from selenium.webdriver.support.ui import Select
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=docs%2Flong.pdf&page=1&zoom=50")
        self.wait_for("return document.querySelectorAll('.page').length === 100", "the hundred pages")
        place = lambda index: self.run_js("const e = document.querySelector('.page[data-index=\"' + arguments[0] + '\"]'); return [e.offsetLeft, e.offsetTop]", index)
        # Horizontal: the pages in a row, Page Down moves sideways.
        Select(self.browser.find_element("id", "scroll-mode")).select_by_value("horizontal")
        self.assertEqual(place(0)[1], place(1)[1])
        self.assertGreater(place(1)[0], place(0)[0])
        self.run_js("document.getElementById('viewer').focus()")
        ActionChains(self.browser).send_keys(Keys.PAGE_DOWN).perform()
        self.wait_for("return document.getElementById('page-number').value === '2'", "page 2 to the right")
        self.assertGreater(self.run_js("return document.getElementById('viewer').scrollLeft"), 0)
        self.go_to_page(30)
        self.wait_page_drawn(29)
        # Wrapped: rows of pages, the page read kept.
        Select(self.browser.find_element("id", "scroll-mode")).select_by_value("wrapped")
        self.wait_for("return document.getElementById('page-number').value === '30'", "page 30 kept")
        rows = self.run_js("return new Set([...document.querySelectorAll('.page')].slice(0, 6).map((e) => e.offsetTop)).size")
        self.assertLess(rows, 6, "more than one page a row")
        self.assertEqual(place(0)[1], place(1)[1])
        Select(self.browser.find_element("id", "scroll-mode")).select_by_value("vertical")
        self.assertGreater(place(1)[1], place(0)[1])
        self.assertEqual(place(1)[0], place(0)[0])

    def test_25_page_by_page_and_spreads(self):
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys
        from selenium.webdriver.support.ui import Select
        # The layout is kept in this browser: the tests after this one read vertically.
        self.addCleanup(lambda: self.run_js("localStorage.removeItem('scroll-mode'); localStorage.removeItem('spreads')"))
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=docs%2Flong.pdf&page=5&zoom=page-fit")
        self.wait_for("return document.querySelectorAll('.page').length === 100", "the hundred pages")
        self.wait_page_drawn(4)
        shown = lambda: self.run_js("return [...document.querySelectorAll('.page')].filter((e) => e.offsetParent !== null).map((e) => Number(e.dataset.index))")
        row = lambda index: self.run_js("return document.querySelector('.page[data-index=\"' + arguments[0] + '\"]').offsetTop", index)
        # Page by page: page 5 alone; Page Down shows page 6 alone, drawn.
        Select(self.browser.find_element("id", "scroll-mode")).select_by_value("page")
        self.assertEqual(shown(), [4])
        self.run_js("document.getElementById('viewer').focus()")
        ActionChains(self.browser).send_keys(Keys.PAGE_DOWN).perform()
        self.wait_for("return document.getElementById('page-number').value === '6'", "page 6")
        self.assertEqual(shown(), [5])
        self.wait_page_drawn(5)
        self.screenshot_is_not_blank("page-by-page.png")
        # The wheel past the end of a page that fits turns to the next.
        self.run_js("document.getElementById('viewer').dispatchEvent(new WheelEvent('wheel', { deltaY: 120, bubbles: true, cancelable: true }))")
        self.wait_for("return document.getElementById('page-number').value === '7'", "page 7 by the wheel")
        self.assertEqual(shown(), [6])
        self.wait_for("return location.hash.includes('&page=7&')", "the address at page 7")
        # Odd spreads, page by page: pages 7 and 8 side by side; Page Down shows 9 and 10.
        Select(self.browser.find_element("id", "spreads")).select_by_value("odd")
        self.assertEqual(shown(), [6, 7])
        self.assertEqual(row(6), row(7))
        self.run_js("document.getElementById('viewer').focus()")
        ActionChains(self.browser).send_keys(Keys.PAGE_DOWN).perform()
        self.wait_for("return document.getElementById('page-number').value === '9'", "page 9, the next spread")
        self.assertEqual(shown(), [8, 9])
        self.wait_page_drawn(9)
        self.screenshot_is_not_blank("spread.png")
        # Even spreads, every page laid out: page 1 alone, then 2-3 side by side, 4 below them.
        Select(self.browser.find_element("id", "scroll-mode")).select_by_value("vertical")
        Select(self.browser.find_element("id", "spreads")).select_by_value("even")
        self.assertEqual(len(shown()), 100)
        self.assertLess(row(0), row(1))
        self.assertEqual(row(1), row(2))
        self.assertLess(row(2), row(3))
        self.wait_for("return ['9', '8'].includes(document.getElementById('page-number').value)", "the spread read kept")
        # Fit page fits the spread: two pages across the viewer.
        widths = self.run_js("return [document.getElementById('viewer').clientWidth, document.querySelector('.page[data-index=\"1\"]').getBoundingClientRect().width]")
        self.assertLessEqual(2 * widths[1], widths[0])
        # Sideways, pages go one by one: spreads cannot be chosen.
        Select(self.browser.find_element("id", "scroll-mode")).select_by_value("horizontal")
        self.assertFalse(self.browser.find_element("id", "spreads").is_enabled())
        self.assertEqual(row(1), row(2))
        self.assertEqual(row(2), row(3))
        # The choice outlives a reload.
        Select(self.browser.find_element("id", "scroll-mode")).select_by_value("page")
        self.browser.refresh()
        self.wait_for("return document.querySelectorAll('.page').length === 100", "the hundred pages again")
        self.assertEqual(self.run_js("return [document.getElementById('scroll-mode').value, document.getElementById('spreads').value]"), ["page", "even"])
        self.wait_for("return [...document.querySelectorAll('.page')].filter((e) => e.offsetParent !== null).length === 2", "one spread shown")

    def test_26_opens_a_file_of_the_readers_machine(self):
        # The test server takes no uploads: no Open command.
        self.open_viewer()
        self.assertFalse(self.browser.find_element("id", "open-file").is_displayed())
        # One that takes them, at most 1 MiB each, kept in a folder of its own.
        uploads = os.path.join(self.folder, "uploads")
        base = self.serve_another(["--uploads", "--upload-folder", uploads, "--upload-limit-mib", "1"])
        self.browser.get(base + "/?token=" + TOKEN + "#doc=docs%2Ftext.pdf")
        self.wait_for("return document.querySelectorAll('.page').length === 3", "text.pdf's pages")
        self.wait_for("return !document.getElementById('open-file').hidden", "the Open command")
        def choose(path):
            self.run_js("document.getElementById('open-file-input').hidden = false")
            self.browser.find_element("id", "open-file-input").send_keys(path)
        chosen = os.path.join(self.folder, "mine.pdf")
        shutil.copy(os.path.join(FIXTURES, "fonts.pdf"), chosen)
        choose(chosen)
        self.wait_for("return document.getElementById('document').value.startsWith('uploads/')", "the upload chosen")
        self.wait_for("return document.querySelectorAll('.page').length === 1", "the upload's one page")
        self.wait_page_drawn(0)
        self.assertIn("mine.pdf", self.run_js("const s = document.getElementById('document'); return s.options[s.selectedIndex].textContent"))
        witness = subprocess.run(["pdftotext", "-f", "1", "-l", "1", chosen, "-"], check=True, capture_output=True, text=True).stdout.split()
        words = self.run_js(self.LAYER_WORDS + "return layerWords(0).map((word) => word.toString())")
        self.assertIn("Helvetica", words)
        self.assertIn("Helvetica", witness)
        kept = os.listdir(uploads)
        self.assertEqual(len(kept), 1)
        with open(os.path.join(uploads, kept[0]), "rb") as mine, open(chosen, "rb") as original:
            self.assertEqual(mine.read(), original.read())
        self.assertIn("uploads%2F" + kept[0].replace(".pdf", ""), self.run_js("return location.hash"))
        # Too large: said before anything is sent; not a PDF: said as the server refuses it.
        # The upload stays on screen either way.
        big = os.path.join(self.folder, "big.pdf")
        with open(big, "wb") as f:
            f.write(b"%PDF-1.7\n" + b" " * (2 << 20))
        choose(big)
        self.wait_for("return document.getElementById('status-text').textContent.includes('big.pdf') && !document.getElementById('status').hidden", "the size refused")
        self.assertIn("1 MiB", self.run_js("return document.getElementById('status-text').textContent"))
        not_pdf = os.path.join(self.folder, "notes.pdf")
        shutil.copy(os.path.join(FIXTURES, "not-a-pdf.pdf"), not_pdf)
        choose(not_pdf)
        self.wait_for("return document.getElementById('status-text').textContent.includes('not a PDF')", "the server's refusal")
        self.assertTrue(self.run_js("return document.getElementById('document').value.startsWith('uploads/')"))
        self.assertEqual(len(os.listdir(uploads)), 1)
        # The address opens the upload again after a reload.
        self.browser.refresh()
        self.wait_for("return document.querySelectorAll('.page').length === 1", "the upload after a reload")
        self.wait_page_drawn(0)

    def test_27_a_page_that_fails_and_a_server_that_goes_say_so(self):
        token_file = os.path.join(self.folder, "token")
        broken = os.path.join(self.folder, "broken")
        os.makedirs(broken, exist_ok=True)
        shutil.copy(os.path.join(FIXTURES, "broken-page-tree.pdf"), broken)
        servers = []
        for arguments in ([self.docs, "--max-megapixels", "1"], [broken]):
            server, base = serve(HOSTAPP, arguments + ["--token-file", token_file, "--reader-state", ":memory:"])
            servers.append((server, base))
        for server, _ in servers:
            self.addCleanup(stop, server)
        (limited, limited_base), (_, broken_base) = servers
        failure = "const e = document.querySelector('.page[data-index=\"' + arguments[0] + '\"] .error'); return e && e.offsetParent !== null ? e.textContent : ''"
        # A server that draws at most a million pixels an image: at 400% the page is drawn
        # within them, the viewer asking for no more.
        self.browser.get(limited_base + "/?token=" + TOKEN + "#doc=docs%2Flong.pdf&page=1&zoom=400")
        self.wait_for("return document.querySelectorAll('.page').length === 100", "the hundred pages")
        self.wait_page_drawn(0)
        pixels = self.run_js("const image = document.querySelector('.page[data-index=\"0\"] canvas.render'); return image.width * image.height")
        self.assertTrue(0 < pixels <= 1_000_000, "%d pixels from a server that draws at most a million" % pixels)
        # A page the engine cannot load says the server's reason, not a blank.
        self.browser.get(broken_base + "/?token=" + TOKEN + "#doc=broken%2Fbroken-page-tree.pdf&page=4")
        said = self.wait_for(failure.replace("return e &&", "return e && e.textContent.includes('page 4') &&"), "the page's failure in words", 20, 3)
        self.assertIn("could not load", said)
        # The server stops: a page not drawn yet says the server cannot be reached.
        self.browser.get(limited_base + "/?token=" + TOKEN + "#doc=docs%2Flong.pdf&page=1&zoom=50")
        self.wait_page_drawn(0)
        stop(limited)
        self.run_js("document.getElementById('page-number').value = '60'; document.getElementById('page-number').dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))")
        said = self.wait_for(failure.replace("return e &&", "return e && e.textContent.includes('cannot be reached') &&"), "page 60 saying the server is gone", 20, 59)
        self.assertIn("reload", said)
        self.screenshot_is_not_blank("server-gone.png")

    def click_page(self, index, x, y):
        """Clicks at (x, y) CSS pixels from the top-left corner of page `index`'s box, as a
        pointer does (at a point of the window: an element's offsets count from its centre)."""
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        left, top = self.run_js("const r = document.querySelector('.page[data-index=\"' + arguments[0] + '\"]').getBoundingClientRect(); return [r.left, r.top]", index)
        click = ActionBuilder(self.browser)
        click.pointer_action.move_to_location(int(left + x), int(top + y))
        click.pointer_action.click()
        click.perform()

    def open_copy(self, fixture, name=None):
        """Copies `fixture` into the served folder as `name` (removed after the test), opens it
        in the viewer and returns the copy's path."""
        name = name or fixture
        copy = os.path.join(self.docs, name)
        shutil.copy(os.path.join(FIXTURES, fixture), copy)
        self.addCleanup(os.remove, copy)
        self.browser.get(self.base + "/?token=" + TOKEN + "#doc=docs%2F" + name)
        return copy

    def test_28_lists_and_downloads_the_documents_files(self):
        copy = self.open_copy("attachments.pdf")
        self.wait_for("return document.querySelectorAll('.page').length === 1", "the page")
        self.browser.find_element("id", "tab-attachments").click()
        self.wait_for("return document.querySelectorAll('#attachments li').length === 3", "three files listed")
        names = self.run_js("return [...document.querySelectorAll('#attachments li .entry')].map((e) => e.textContent)")
        listed = subprocess.run(["pdfdetach", "-list", copy], check=True, capture_output=True, text=True).stdout.splitlines()[1:]
        self.assertEqual(names, [line.split(": ", 1)[1] for line in listed])
        self.assertIn("Reading notes", self.run_js("return document.querySelectorAll('#attachments li small')[1].textContent"))
        # A download of the file's own bytes, saved under its last name component only.
        self.assertEqual(self.run_js("return document.querySelectorAll('#attachments li .entry')[2].getAttribute('download')"), "evil.txt")
        fetched = self.browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch(document.querySelectorAll('#attachments li .entry')[1].href).then((r) => r.text()).then(done, (e) => done(String(e)));
        """)
        self.assertEqual(fetched, "Notes on the fixture.\n")
        self.assertEqual(self.accessibility_violations(), [], "the files panel")

    def image_color_at(self, selector, fx, fy):
        """The RGB colour of the page image `selector` names at the fractions (fx, fy) of its
        width and height, once drawn."""
        return self.browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const [selector, fx, fy] = arguments;
            const check = () => {
              const image = document.querySelector(selector);
              if (!image || image.dataset.state !== 'drawn') return requestAnimationFrame(check);
              const canvas = document.createElement('canvas');
              canvas.width = image.width; canvas.height = image.height;
              const context = canvas.getContext('2d');
              context.drawImage(image, 0, 0);
              done([...context.getImageData(Math.floor(fx * image.width), Math.floor(fy * image.height), 1, 1).data.slice(0, 3)]);
            };
            check();
        """, selector, fx, fy)

    def test_31_shows_and_hides_the_documents_layers(self):
        self.open_copy("layers.pdf")
        self.wait_for("const i = document.querySelector('.page canvas.render'); return i && i.dataset.state === 'drawn'", "the page")
        self.browser.find_element("id", "tab-layers").click()
        self.wait_for("return document.querySelectorAll('#layers li input').length === 4", "four layers listed")
        names = self.run_js("return [...document.querySelectorAll('#layers li label')].map((l) => l.textContent.trim())")
        self.assertEqual(names, ["Red", "Blue", "L\u00e9gende", "Orange (not in Order)"])
        self.assertEqual(self.run_js("return [...document.querySelectorAll('#layers li input')].map((b) => b.checked)"), [True, False, True, True])
        self.assertIn("Default view", self.run_js("return document.querySelector('#layers .configuration').textContent"))
        # The middle of Red's rectangle (172, 142 of a 612 x 792 page) and of Blue's (172, 342).
        red, blue = (172 / 612, 142 / 792), (172 / 612, 342 / 792)
        self.assertEqual(self.image_color_at(".page canvas.render", *red), [255, 0, 0])
        self.assertEqual(self.image_color_at(".page canvas.render", *blue), [255, 255, 255])
        boxes = self.browser.find_elements("css selector", "#layers li input")
        boxes[0].click()
        boxes[1].click()
        self.wait_for("const i = document.querySelector('.page canvas.render'); return /hide=0/.test(i.dataset.src) && /show=1/.test(i.dataset.src) && i.dataset.state === 'drawn'",
                      "the page drawn with Red hidden and Blue shown")
        self.assertEqual(self.image_color_at(".page canvas.render", *red), [255, 255, 255])
        self.assertEqual(self.image_color_at(".page canvas.render", *blue), [0, 0, 255])
        self.wait_for("const i = document.querySelector('#thumbnails img'); return i && /hide=0/.test(i.src)", "the thumbnail too")
        self.assertEqual(self.accessibility_violations(), [], "the layers panel")

    def test_36_shows_each_signatures_verdict_in_colour_and_words(self):
        self.open_copy("signed.pdf")
        self.wait_for("return document.querySelectorAll('.page').length === 1", "the page")
        self.browser.find_element("id", "tab-signatures").click()
        self.wait_for("return document.querySelectorAll('#signatures li.signature').length === 2", "two signature fields listed")
        first = "document.querySelector('#signatures li.signature')"
        self.assertTrue(self.run_js("return %s.classList.contains('verdict-unknown')" % first))
        self.assertEqual(self.run_js("return %s.querySelector('.verdict').textContent" % first), "Not verified")
        self.assertIn("Fixture Signer", self.run_js("return %s.querySelector('.fact').textContent" % first))
        self.assertEqual(self.run_js("return [...%s.querySelectorAll('.reasons li')].map((l) => l.dataset.code)" % first),
                         ["intact", "noTrustAnchor", "coversWholeFile"])
        grey = self.run_js("return getComputedStyle(%s.querySelector('.verdict')).backgroundColor" % first)
        self.assertEqual(self.accessibility_violations(), [], "the signatures panel")
        # A server given the signer's certificate as a trust anchor calls it valid, in green.
        der, pem = os.path.join(self.folder, "signature.der"), os.path.join(self.folder, "signer.pem")
        with open(os.path.join(FIXTURES, "signed.pdf"), "rb") as f:
            data = f.read()
        start = data.index(b"/Contents <") + len(b"/Contents <")
        with open(der, "wb") as f:
            f.write(bytes.fromhex(data[start:data.index(b">", start)].decode()))
        subprocess.run(["openssl", "pkcs7", "-inform", "DER", "-in", der, "-print_certs", "-out", pem], check=True, capture_output=True)
        base = self.serve_another(["--trust", pem])
        self.browser.get(base + "/?token=" + TOKEN + "#doc=docs%2Fsigned.pdf")
        self.wait_for("return document.querySelectorAll('.page').length === 1", "the page on the trusting server")
        self.browser.find_element("id", "tab-signatures").click()
        self.wait_for("const s = document.querySelector('#signatures li.signature'); return s && s.classList.contains('verdict-valid')", "a valid verdict")
        self.assertEqual(self.run_js("return %s.querySelector('.verdict').textContent" % first), "Valid")
        green = self.run_js("return getComputedStyle(%s.querySelector('.verdict')).backgroundColor" % first)
        self.assertNotEqual(green, grey)

    def test_37_signs_a_field_with_the_servers_identity(self):
        # Identities from the test CA the signing tests use; the server is given the signer's
        # PKCS#12 file and the CA as its trust anchor. The key never reaches the browser.
        identities = os.path.join(self.folder, "identities")
        os.makedirs(identities)
        subprocess.run(["python3", os.path.join(FIXTURES, "Signing", "make-identities.py"), identities], check=True)
        copy = os.path.join(self.docs, "to-sign.pdf")
        shutil.copy(os.path.join(FIXTURES, "signed.pdf"), copy)
        self.addCleanup(os.remove, copy)
        base = self.serve_another(["--signing-identity", os.path.join(identities, "signer.p12"),
                                   "--signing-password-file", os.path.join(identities, "password.txt"),
                                   "--trust", os.path.join(identities, "ca.pem")])
        self.browser.get(base + "/?token=" + TOKEN + "#doc=docs%2Fto-sign.pdf")
        self.wait_for("const i = document.querySelector('.page canvas.render'); return i && i.dataset.state === 'drawn'", "the page")
        self.browser.find_element("id", "tab-signatures").click()
        self.wait_for("return document.querySelectorAll('#signatures li.signature').length === 2", "two signature fields listed")
        # Only the unsigned field offers signing; the document can be signed in a new field too.
        self.assertEqual(self.run_js("return document.querySelectorAll('#signatures button.sign').length"), 1)
        self.assertTrue(self.run_js("return document.getElementById('sign-document') !== null"))
        self.assertEqual(self.accessibility_violations(), [], "the signatures panel with its sign buttons")
        # Signing asks for a reason and a location; certifying is not offered, since a field
        # is signed already.
        self.run_js("document.querySelector('#signatures button.sign').click()")
        self.wait_for("return document.getElementById('sign-dialog').open", "the sign dialog")
        self.assertFalse(self.run_js("return document.getElementById('sign-certify').checkVisibility()"))
        self.assertEqual(self.accessibility_violations(), [], "the sign dialog")
        self.browser.find_element("id", "sign-reason").send_keys("Approved in the browser")
        self.browser.find_element("id", "sign-location").send_keys("Lisbon")
        self.browser.find_element("id", "sign-send").click()
        self.wait_for("const s = document.querySelectorAll('#signatures li.signature')[1]; return s && s.classList.contains('verdict-valid')",
                      "the field signed and valid")
        said = subprocess.run(["python3", "-c", "import sys, pypdf\n"
                               "values = [f.get('/V') for f in pypdf.PdfReader(sys.argv[1]).get_fields().values()]\n"
                               "values = [v.get_object() for v in values if isinstance(v, pypdf.generic.PdfObject)]\n"
                               "print([(v.get('/Reason'), v.get('/Location')) for v in values if isinstance(v, dict) and v.get('/Type') == '/Sig'])", copy],
                              capture_output=True, text=True, check=True).stdout
        self.assertIn("('Approved in the browser', 'Lisbon')", said)
        self.assertIn("Ada Signer", self.run_js("return document.querySelectorAll('#signatures li.signature')[1].querySelector('.fact').textContent"))
        self.assertEqual(self.run_js("return document.querySelectorAll('#signatures button.sign').length"), 0)
        # The witnesses read the file the server saved: pdfsig finds both signatures intact.
        pdfsig = subprocess.run(["pdfsig", copy], capture_output=True, text=True).stdout
        self.assertEqual(pdfsig.count("Signature is Valid"), 2, pdfsig)
        self.assertIn("Signer Certificate Common Name: Ada Signer", pdfsig)
        # The page image is asked for again and shows the signature's appearance.
        self.wait_for("return [...document.querySelectorAll('.page canvas.render')].some((i) => /[?&]v=[1-9]/.test(i.dataset.src))", "the page drawn again")
        # A signature with a timestamp from the test authority (OpenSSL's ts on loopback) says when.
        authority = subprocess.Popen(["python3", os.path.join(FIXTURES, "Signing", "tsa-server.py"), identities],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.addCleanup(authority.stdout.close)
        self.addCleanup(authority.wait, 60)
        self.addCleanup(authority.terminate)
        port = authority.stdout.readline().split()[-1]
        stamped = os.path.join(self.docs, "stamped.pdf")
        self.addCleanup(os.remove, stamped)
        subprocess.run([HOSTAPP, "sign", os.path.join(FIXTURES, "forms.pdf"), "--cert", os.path.join(identities, "signer.p12"),
                        "--password-file", os.path.join(identities, "password.txt"), "--page", "1",
                        "--tsa", "http://127.0.0.1:%s/" % port, "-o", stamped], check=True, capture_output=True)
        self.browser.get(base + "/?token=" + TOKEN + "#doc=docs%2Fstamped.pdf")
        self.wait_for("return document.querySelectorAll('.page').length === 1", "the timestamped document")
        self.browser.find_element("id", "tab-signatures").click()
        self.wait_for("const s = document.querySelector('#signatures li.signature'); return s && s.classList.contains('verdict-valid')",
                      "the timestamped signature valid")
        facts = self.run_js("return [...document.querySelectorAll('#signatures li.signature .fact')].map((f) => f.textContent)")
        self.assertTrue(any(fact.startswith("Timestamped ") for fact in facts), facts)
        self.assertIn("timestamped", self.run_js("return [...document.querySelectorAll('#signatures .reasons li')].map((l) => l.dataset.code)"))

    def test_32_undoes_and_redoes_annotation_edits(self):
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys
        self.open_copy("text.pdf", "undo.pdf")
        self.wait_for("const i = document.querySelector('.page canvas.render'); return i && i.dataset.state === 'drawn'", "the page")
        stored = lambda: self.browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch('/api/documents/docs%2Fundo.pdf/annotations').then((r) => r.json()).then((all) => done(all.map((a) => [a.kind, a.contents || ''])));
        """)
        def wait_stored(expected, what):
            deadline = time.time() + 20
            while time.time() < deadline and stored() != expected:
                time.sleep(0.1)
            self.assertEqual(stored(), expected, what)
        def keys(*chord):
            actions = ActionChains(self.browser)
            for key in chord[:-1]:
                actions.key_down(key)
            actions.send_keys(chord[-1])
            for key in reversed(chord[:-1]):
                actions.key_up(key)
            actions.perform()
        self.browser.find_element("css selector", "#tools [data-tool=note]").click()
        self.click_page(0, 200, 150)
        wait_stored([["Text", ""]], "the note made")
        # A new note opens its editor, ready for its text.
        self.wait_for("return !document.getElementById('editor').hidden", "the new note's editor")
        self.run_js("document.activeElement.blur(); document.getElementById('viewer').focus()")
        keys(Keys.CONTROL, "z")
        wait_stored([], "Ctrl+Z took the note back")
        keys(Keys.CONTROL, Keys.SHIFT, "z")
        wait_stored([["Text", ""]], "Ctrl+Shift+Z made it again")
        # A change of its text, taken back and made again.
        self.browser.find_element("id", "tab-annotations").click()
        self.wait_for("return document.querySelectorAll('#annotations li .entry').length === 1", "the note listed")
        self.browser.find_element("css selector", "#annotations li .entry").click()
        self.browser.find_element("id", "editor-contents").send_keys("Second thoughts")
        self.browser.find_element("id", "editor-save").click()
        wait_stored([["Text", "Second thoughts"]], "the note's text changed")
        self.run_js("document.activeElement.blur(); document.getElementById('viewer').focus()")
        keys(Keys.CONTROL, "z")
        wait_stored([["Text", ""]], "the old text back")
        keys(Keys.CONTROL, "y")
        wait_stored([["Text", "Second thoughts"]], "Ctrl+Y made the change again")
        keys(Keys.CONTROL, "z")
        keys(Keys.CONTROL, "z")
        wait_stored([], "both edits taken back")
        keys(Keys.CONTROL, "z")
        self.wait_for("return /Nothing to undo/.test(document.getElementById('status-text').textContent)", "nothing left to undo")

    def test_33_replies_and_review_states_form_a_thread(self):
        from selenium.webdriver.support.ui import Select
        self.open_copy("text.pdf", "thread.pdf")
        self.wait_for("const i = document.querySelector('.page canvas.render'); return i && i.dataset.state === 'drawn'", "the page")
        self.browser.find_element("css selector", "#tools [data-tool=note]").click()
        self.click_page(0, 200, 150)
        self.browser.find_element("id", "tab-annotations").click()
        self.wait_for("return document.querySelectorAll('#annotations li .entry').length === 1", "the note listed")
        self.browser.find_element("css selector", "#annotations li .entry").click()
        self.wait_for("return !document.getElementById('editor').hidden", "the editor")
        self.browser.find_element("id", "editor-reply").send_keys("I agree")
        self.browser.find_element("id", "editor-reply-send").click()
        self.wait_for("return document.querySelector('#annotations ul.thread li') !== null", "the reply in the thread")
        Select(self.browser.find_element("id", "editor-state")).select_by_value("Accepted")
        self.wait_for("return document.querySelectorAll('#annotations ul.thread li').length === 2", "the review state in the thread")
        replies = self.run_js("return [...document.querySelectorAll('#annotations ul.thread li')].map((l) => l.textContent)")
        self.assertEqual(replies[0], "I agree")
        self.assertIn("Accepted", replies[1])
        self.assertEqual(self.run_js("return [...document.querySelectorAll('#editor-replies li')].length"), 2, "the editor lists the thread")
        stored = self.browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch('/api/documents/docs%2Fthread.pdf/annotations').then((r) => r.json()).then(done);
        """)
        root = [a for a in stored if not a.get("inReplyTo")]
        self.assertEqual(len(root), 1)
        self.assertEqual(sorted((a.get("contents") or "", a.get("reviewState") or "") for a in stored if a.get("inReplyTo") == root[0]["id"]),
                         [("", "Accepted"), ("I agree", "")])
        # Only the note is drawn on the page; its replies are in its thread.
        self.assertEqual(self.run_js("return document.querySelectorAll('.page[data-index=\"0\"] svg .annotation').length"), 1)
        self.assertEqual(self.accessibility_violations(), [], "the thread in the editor")

    @staticmethod
    def quadrant_png(path, width=200, height=100):
        """Writes a PNG of four quadrants: red, green on top; blue and, bottom right, fully
        transparent black below (RGBA, 8 bits, written here with zlib)."""
        import struct
        import zlib
        rows = b""
        for y in range(height):
            row = b"\x00"
            for x in range(width):
                left, top = x < width // 2, y < height // 2
                row += (b"\xff\x00\x00\xff" if left else b"\x00\xff\x00\xff") if top else (b"\x00\x00\xff\xff" if left else b"\x00\x00\x00\x00")
            rows += row
        def chunk(kind, data):
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
                    + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))

    def test_34_places_a_picture_and_moves_and_resizes_annotations(self):
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        from selenium.webdriver.common.keys import Keys
        copy = self.open_copy("text.pdf", "picture.pdf")
        self.wait_page_drawn(0)
        scale = self.scale(0)
        stored = lambda: self.browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch('/api/documents/docs%2Fpicture.pdf/annotations').then((r) => r.json()).then(done);
        """)
        def wait_rect(expected, what, tolerance=1.0):
            deadline = time.time() + 20
            while time.time() < deadline:
                found = stored()
                if len(found) == 1:
                    r = found[0]["rect"]
                    box = (r["origin"]["x"], r["origin"]["y"], r["size"]["width"], r["size"]["height"])
                    if all(abs(a - b) <= tolerance for a, b in zip(box, expected)):
                        return box
                time.sleep(0.1)
            self.fail("%s: the stamp is %s, not %s" % (what, stored(), expected))
        def drawn_at(x, y):
            out = os.path.join(self.folder, "picture.pnm")
            subprocess.run(["mutool", "draw", "-q", "-r", "72", "-c", "rgb", "-o", out, copy, "1"], check=True, stderr=subprocess.DEVNULL)
            with open(out, "rb") as f:
                data = f.read()
            header = data.split(b"\n", 3)
            width = int(header[1].split()[0])
            pixels = header[3]
            offset = (int(y) * width + int(x)) * 3
            return tuple(pixels[offset:offset + 3])
        def drag(x0, y0, x1, y1):
            left, top = self.run_js("const r = document.querySelector('.page[data-index=\"0\"]').getBoundingClientRect(); return [r.left, r.top]")
            action = ActionBuilder(self.browser)
            action.pointer_action.move_to_location(int(left + x0), int(top + y0))
            action.pointer_action.pointer_down()
            action.pointer_action.move_to_location(int(left + (x0 + x1) / 2), int(top + (y0 + y1) / 2))
            action.pointer_action.move_to_location(int(left + x1), int(top + y1))
            action.pointer_action.pointer_up()
            action.perform()

        # The Picture tool, a click where it goes, and a PNG of this machine.
        picture = os.path.join(self.folder, "quadrants.png")
        self.quadrant_png(picture)
        self.browser.find_element("css selector", "#tools [data-tool=picture]").click()
        self.click_page(0, 100, 100)
        self.run_js("document.getElementById('picture-input').hidden = false")
        self.browser.find_element("id", "picture-input").send_keys(picture)
        x, y, w, h = wait_rect((100 / scale, 100 / scale, 180, 90), "the picture placed, 180 pt wide")
        self.assertEqual(stored()[0]["kind"], "Stamp")
        self.assertEqual(drawn_at(x + w / 4, y + h / 4), (255, 0, 0), "mutool draws the picture in the file")
        self.wait_for("return document.querySelectorAll('.page[data-index=\"0\"] svg .arrange.grip').length === 4", "the placed picture selected, with its grips")

        # Dragged by its middle, it moves; dragged by a corner, it grows from the other one.
        cx, cy = (x + w / 2) * scale, (y + h / 2) * scale
        moved_from = self.run_js("return document.querySelector('.page[data-index=\"0\"] canvas.render').dataset.src")
        drag(cx, cy, cx + 60, cy + 40)
        x, y, w, h = wait_rect((x + 60 / scale, y + 40 / scale, w, h), "moved with the mouse")
        self.wait_for("return document.querySelectorAll('.page[data-index=\"0\"] svg .arrange.grip').length === 4", "still selected after the move")
        # The page drawn again after the move (the file changed) before the next drag.
        self.wait_for("const i = document.querySelector('.page[data-index=\"0\"] canvas.render'); return i && i.dataset.state === 'drawn' && i.dataset.src !== arguments[0]",
                      "the page drawn again after the move", 20, moved_from)
        # Dragged from the corner grip where it is when the drag starts (the pointer moved
        # relative to it), so that a page that shifts before the drag moves the grip too.
        from selenium.common.exceptions import StaleElementReferenceException
        for attempt in range(5):
            try:
                grip = self.browser.find_element("css selector", '.page[data-index="0"] svg .arrange.grip[data-corner="se"]')
                ActionChains(self.browser).move_to_element(grip).click_and_hold().move_by_offset(15, 7).move_by_offset(15, 8).release().perform()
                break
            except StaleElementReferenceException:
                # The grips were drawn again between finding and pressing: nothing was pressed yet.
                continue
        x, y, w, h = wait_rect((x, y, w + 30 / scale, h + 15 / scale), "resized by its corner")
        self.assertEqual(drawn_at(x + w / 4, y + h / 4), (255, 0, 0), "the picture moved with the stamp")
        self.assertEqual(drawn_at(x + 3 * w / 4, y + h / 4), (0, 255, 0))

        # From the keyboard: Shift and an arrow move it ten points, Alt and an arrow resize it;
        # presses in a row are one edit, which Ctrl+Z takes back.
        self.run_js("document.activeElement.blur(); document.getElementById('viewer').focus()")
        ActionChains(self.browser).key_down(Keys.SHIFT).send_keys(Keys.ARROW_RIGHT).send_keys(Keys.ARROW_RIGHT).key_up(Keys.SHIFT) \
            .key_down(Keys.ALT).send_keys(Keys.ARROW_DOWN).key_up(Keys.ALT).perform()
        wait_rect((x + 20, y, w, h + 1), "moved and resized from the keyboard")
        # A press right after Ctrl+Z, before the undo has been answered, starts from what the
        # undo leaves (it once started from the annotation as the undo found it).
        ActionChains(self.browser).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL) \
            .key_down(Keys.SHIFT).send_keys(Keys.ARROW_RIGHT).key_up(Keys.SHIFT).perform()
        wait_rect((x + 10, y, w, h), "Ctrl+Z took the keyboard's edit back, and the next press moved it from there")
        # However slowly the presses come (each saved before the next), they stay one edit:
        # what groups them is that they are a run on one annotation, not the clock.
        ActionChains(self.browser).key_down(Keys.ALT).send_keys(Keys.ARROW_DOWN).key_up(Keys.ALT).perform()
        wait_rect((x + 10, y, w, h + 1), "the next slow press saved")
        ActionChains(self.browser).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        wait_rect((x, y, w, h), "one Ctrl+Z took back the whole run")
        ActionChains(self.browser).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        wait_rect((x, y, w - 30 / scale, h - 15 / scale), "the next took back the resize by the corner, and only it")
        self.assertEqual(self.accessibility_violations(), [], "the picture tool and a selected annotation")

    def test_35_types_free_text_in_place_and_styles_it(self):
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys
        from selenium.webdriver.support.ui import Select
        copy = self.open_copy("text.pdf", "typed.pdf")
        self.wait_page_drawn(0)
        stored = lambda: self.browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch('/api/documents/docs%2Ftyped.pdf/annotations').then((r) => r.json()).then(done);
        """)
        def wait_stored(check, what):
            deadline = time.time() + 20
            while time.time() < deadline:
                found = stored()
                if check(found):
                    return found
                time.sleep(0.1)
            self.fail("%s: %s" % (what, stored()))
        def type_at(x, y, text, end):
            self.browser.find_element("css selector", "#tools [data-tool=text]").click()
            self.click_page(0, x, y)
            self.wait_for("return document.activeElement && document.activeElement.classList.contains('typing')", "the typing box")
            ActionChains(self.browser).send_keys(text).send_keys(end).perform()

        # Typed where the click was; Enter keeps it, in the default style.
        type_at(150, 200, "Typed here", Keys.ENTER)
        found = wait_stored(lambda a: len(a) == 1, "the free text kept")[0]
        self.assertEqual((found["kind"], found["contents"]), ("FreeText", "Typed here"))
        self.assertEqual((found["textStyle"]["fontFamily"], found["textStyle"]["fontSize"], found["textStyle"]["alignment"]), ("Helvetica", 12, "left"))
        scale = self.scale(0)
        self.assertAlmostEqual(found["rect"]["origin"]["x"], 150 / scale, delta=1)
        self.assertAlmostEqual(found["rect"]["origin"]["y"], 200 / scale, delta=1)
        self.assertEqual(self.run_js("return document.querySelectorAll('textarea.typing').length"), 0)

        # Escape drops what was typed: the note made after it is the only other annotation.
        type_at(150, 400, "dropped", Keys.ESCAPE)
        self.wait_for("return document.querySelectorAll('textarea.typing').length === 0", "the box gone")
        self.browser.find_element("css selector", "#tools [data-tool=note]").click()
        self.click_page(0, 300, 500)
        kinds = [a["kind"] for a in wait_stored(lambda a: len(a) == 2, "the note after the dropped text")]
        self.assertEqual(sorted(kinds), ["FreeText", "Text"])

        # The editor styles it: Times, 20 points, red, centred; mutool draws it red.
        self.browser.find_element("id", "tab-annotations").click()
        entry = [e for e in self.browser.find_elements("css selector", "#annotations li .entry") if "Typed here" in e.text][0]
        entry.click()
        self.wait_for("return !document.getElementById('editor-text-style').hidden", "the text style fields")
        Select(self.browser.find_element("id", "editor-font")).select_by_value("Times")
        size = self.browser.find_element("id", "editor-font-size")
        size.clear()
        size.send_keys("20")
        Select(self.browser.find_element("id", "editor-alignment")).select_by_value("center")
        self.run_js("document.getElementById('editor-text-color').value = '#ff0000'")
        self.browser.find_element("id", "editor-save").click()
        styled = wait_stored(lambda a: any((x.get("textStyle") or {}).get("fontFamily") == "Times" for x in a), "the style saved")
        style = [a for a in styled if a["kind"] == "FreeText"][0]
        self.assertEqual((style["textStyle"]["fontSize"], style["textStyle"]["alignment"]), (20, "center"))
        # The box grew with its text: the browser's own Times at 20 points fits in it, margins and all.
        needed = self.run_js("const c = document.createElement('canvas').getContext('2d'); c.font = '20px Times, serif';"
                             "return c.measureText('Typed here').width")
        self.assertGreater(style["rect"]["size"]["width"], needed + 4, "wide enough for the text at 20 points")
        self.assertGreater(style["rect"]["size"]["height"], 20 * 1.2, "high enough for a line at 20 points")
        self.assertEqual(style["textStyle"]["color"]["red"], 1)
        self.assertNotIn("color", style, "no background colour was chosen")
        out = os.path.join(self.folder, "typed.pnm")
        subprocess.run(["mutool", "draw", "-q", "-r", "72", "-c", "rgb", "-o", out, copy, "1"], check=True, stderr=subprocess.DEVNULL)
        with open(out, "rb") as f:
            header = f.read().split(b"\n", 3)
        width, pixels = int(header[1].split()[0]), header[3]
        r = style["rect"]
        red = sum(1 for y in range(int(r["origin"]["y"]), int(r["origin"]["y"] + r["size"]["height"]))
                  for x in range(int(r["origin"]["x"]), int(r["origin"]["x"] + r["size"]["width"]))
                  if pixels[(y * width + x) * 3] > 200 and pixels[(y * width + x) * 3 + 1] < 90)
        self.assertGreater(red, 30, "mutool draws the text red")
        self.assertEqual(self.accessibility_violations(), [], "the free text's editor")

    def test_29_view_serves_one_tab_and_ends_with_it(self):
        environment = dict(os.environ, XDG_DATA_HOME=os.path.join(self.folder, "xdg-data"))
        viewer = subprocess.Popen([HOSTAPP, "view", os.path.join(self.docs, "text.pdf"), "--no-browser", "--linger", "2"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
        def stop():
            if viewer.poll() is None:
                viewer.kill()
                viewer.wait(timeout=60)
            viewer.stdout.close()
            viewer.stderr.close()
        self.addCleanup(stop)
        line = viewer.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:\d+/\?token=\S+)", line)
        self.assertIsNotNone(match, line + viewer.stderr.read() if viewer.poll() is not None else line)
        self.browser.get(match.group(1))
        self.wait_for("return document.querySelectorAll('.page').length === 3", "the one document's pages")
        self.wait_page_drawn(0)
        self.assertEqual(self.run_js("return [...document.getElementById('document').options].map((o) => o.value)"), ["text.pdf"])
        # A reload is the tab coming back: the server still answers.
        self.browser.refresh()
        self.wait_for("return document.querySelectorAll('.page').length === 3", "the pages after a reload")
        self.wait_page_drawn(0)
        self.assertIsNone(viewer.poll())
        # The tab goes: the server stops, by itself and cleanly.
        self.browser.get("about:blank")
        try:
            status = viewer.wait(timeout=120)
        except subprocess.TimeoutExpired:
            viewer.kill()
            self.fail("hostapp view outlived its tab; it said: " + viewer.communicate(timeout=60)[1])
        self.assertEqual(status, 0, viewer.stderr.read())

    def test_30_prints_to_a_printer_of_the_server(self):
        # A print server of its own (CUPS on loopback) with one PDF queue, and a server told to print there.
        sys.path.insert(0, HERE)
        from cups_server import CUPSServer
        cups = CUPSServer()
        self.addCleanup(cups.remove)
        cups.add_queue("office", "application/pdf")
        base = self.serve_another(["--print-server", cups.address])
        self.browser.get(base + "/?token=" + TOKEN + "#doc=docs%2Ftext.pdf")
        self.wait_for("return document.querySelectorAll('.page').length === 3", "text.pdf's pages")
        self.wait_page_drawn(0)
        self.browser.find_element("id", "print").click()
        self.wait_for("return document.getElementById('print-dialog').open", "the print dialog")
        choices = self.run_js("return [...document.getElementById('print-printer').options].map((o) => o.value)")
        self.assertEqual(choices, ["office", ""], "the server's printer, then this browser")
        self.assertEqual(self.accessibility_violations(), [], "the print dialog")
        # Pages that are not there are said in the dialog, which stays open; nothing is sent.
        self.browser.find_element("id", "print-pages").send_keys("2-9")
        self.browser.find_element("id", "print-send").click()
        self.wait_for("return document.getElementById('print-error').textContent.includes('1 to 3')", "the pages refused")
        self.assertTrue(self.run_js("return document.getElementById('print-dialog').open"))
        self.run_js("document.getElementById('print-pages').value = '2'; document.getElementById('print-copies').value = '2'; "
                    "document.getElementById('print-sides').value = 'two-sided-long-edge'")
        self.browser.find_element("id", "print-send").click()
        self.wait_for("return /office, job 1: printed/.test(document.getElementById('status-text').textContent)", "the job printed", 60)
        self.assertFalse(self.run_js("return document.getElementById('print-dialog').open"))
        attributes = cups.job_attributes(1)
        self.assertEqual((attributes.get("page-ranges"), attributes.get("copies"), attributes.get("sides")), ("2-2", "2", "two-sided-long-edge"), attributes)
        received = os.path.join(self.folder, "received.pdf")
        with open(received, "wb") as f:
            f.write(cups.spooled(1))
        pages = subprocess.run(["pdfinfo", received], check=True, capture_output=True, text=True).stdout
        self.assertIn("Pages:           3", pages)
        # This browser is still a choice: it prints the sheets of the pages chosen (page 2).
        self.run_js("window.printed = []; window.print = () => { window.printed.push([...document.querySelectorAll('#print-view .print-page')].map((sheet) => Number(sheet.dataset.index))); };")
        self.browser.find_element("id", "print").click()
        self.wait_for("return document.getElementById('print-dialog').open", "the print dialog again")
        self.run_js("document.getElementById('print-printer').value = ''")
        self.browser.find_element("id", "print-send").click()
        self.wait_for("return window.printed.length === 1", "the browser's sheets prepared")
        self.assertEqual(self.run_js("return window.printed"), [[1]])

    def test_40_asks_only_for_what_the_server_allows(self):
        # The viewer holds no resolution of its own: a server that draws pages at most at 100
        # dpi gets requests within it at any zoom, and every page image comes.
        base = self.serve_another(["--max-dpi", "100"])
        self.browser.get(base + "/?token=" + TOKEN + "#doc=docs%2Ftext.pdf&zoom=400")
        self.wait_for("return document.querySelectorAll('.page canvas.render').length > 0 && "
                      "[...document.querySelectorAll('.page canvas.render')].some((image) => image.dataset.state === 'drawn')",
                      "a page image drawn at 400%")
        asked = self.run_js("return [...document.querySelectorAll('.page canvas.render')].map((image) => "
                            "[Number(new URL(image.dataset.src, location.href).searchParams.get('dpi')), image.dataset.state === 'failed'])")
        self.assertTrue(asked, "page images asked for")
        for dpi, broken in asked:
            self.assertTrue(0 < dpi <= 100, "asked for %s dpi of a server that draws at most 100" % dpi)
            self.assertFalse(broken, "a page image the server refused")

    def test_8_refuses_without_the_token(self):
        from urllib.request import Request, build_opener, ProxyHandler
        from urllib.error import HTTPError
        opener = build_opener(ProxyHandler({}))
        for path in ("/", "/api/documents", "/api/documents/docs%2Ftext.pdf/pages/0/image"):
            with self.assertRaises(HTTPError) as caught:
                opener.open(Request(self.base + path))
            self.assertEqual(caught.exception.code, 401, path)
            self.assertEqual(json.loads(caught.exception.read())["error"]["code"], "unauthorized")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_viewer.py HOSTAPP [unittest arguments]")
    HOSTAPP = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
