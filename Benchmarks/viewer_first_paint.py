#!/usr/bin/env python3
"""The viewer against pdf.js's own viewer, in Debian's headless Chromium, in one run on the
same machine and the same document (R's 2,415-page reference manual by default):

- first page painted: from navigation to page 1 drawn on screen (the viewer: its image
  decoded into the page's canvas; pdf.js 2.14 from Debian's libjs-pdf: its `pagerendered` event for page 1), each
  run on a cold server (a new `hostapp serve`; for pdf.js a new static server) with the
  browser's cache off;
- a jump to page 1,200 painted, once the viewer has the document open (ours: every page's
  facts in, the thumbnails built; pdf.js: its pages promise resolved): from the address
  naming the page to that page drawn (ours: its canvas marked drawn, seen by a mutation
  observer; pdf.js: its `pagerendered` event);
- fast scrolling: after 40 jumps two frames apart, how many page images are still being
  drawn for pages that left the view (the viewer gives them up);
- reading: pages 2 to BENCH_VIEWER_READ_PAGES (default 200) shown one at a time, each as soon
  as the one before is drawn with its text layer (ours: its image decoded and its text
  layer's spans in; pdf.js: its `textlayerrendered` event), the time of all the turns, then,
  after a garbage collection, the memory of the whole browser (the proportional set size of
  all its processes), the same after a critical memory-pressure notification (caches given
  back), and the DOM nodes of the tab. Each viewer reads in a browser of its own;
- on a phone's screen (390x844 CSS pixels at a device scale factor of 3, touch, in a browser
  of its own): the first page painted on a cold server, as above, and again from what the
  viewer kept for offline reading (the network taken from the page and its service worker,
  then the page reloaded; pdf.js's viewer is tried the same way); and reading mode's first
  paint: from the reading mode button pressed, the document open at page 1, to the page's
  text shown as HTML.

Issue 33's targets: first page at most 0.5 s, the jump at most 0.3 s; issue 56's: reading
at most pdf.js's time and memory. Medians of
BENCH_VIEWER_RUNS runs (default 5). Run through `make bench-viewer` (this section alone,
written into BENCHMARKS.md between its markers) or `make bench` (all sections).
Settings (environment variables):
  BENCH_VIEWER_DOC   the PDF (default: R's reference manual)
  BENCH_VIEWER_RUNS  runs per measure (default: 5)
  BENCH_VIEWER_READ_PAGES  the last page read one at a time (default: 200)
  HOSTAPP            the hostapp binary (default: .build/release/hostapp)
"""
import contextlib
import http.server
import os
import re
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from report_section import run

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Browser"))
from devtools import DevTools  # noqa: E402

HOSTAPP = os.path.abspath(os.environ.get("HOSTAPP", ".build/release/hostapp"))
DOC = os.environ.get("BENCH_VIEWER_DOC", "/usr/share/R/doc/manual/refman.pdf")
RUNS = int(os.environ.get("BENCH_VIEWER_RUNS", "5"))
PDFJS = "/usr/share/javascript/pdf"
JUMP = 1200
READ_PAGES = int(os.environ.get("BENCH_VIEWER_READ_PAGES", "200"))
BEGIN, END = "<!-- viewer-first-paint -->", "<!-- /viewer-first-paint -->"
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True}
# How long a viewer is given to open without the network before it is reported as not opening.
OFFLINE_DEADLINE = 30

# Installed before each page's own scripts: records when page 1 is drawn, for either viewer.
PROBE = """
window.__painted = {};
(function watch() {
  const image = document.querySelector('.page[data-index="0"] canvas.render[data-state="drawn"]');
  if (image && !window.__painted[1]) window.__painted[1] = performance.now();
  const app = window.PDFViewerApplication;
  if (app && app.eventBus && !window.__hooked) {
    window.__hooked = true;
    app.eventBus.on("pagerendered", (event) => {
      if (!window.__painted[event.pageNumber]) window.__painted[event.pageNumber] = performance.now();
    });
  }
  requestAnimationFrame(watch);
})();
"""


def browser(phone=False):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1000", "--no-proxy-server", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PROBE})
    if phone:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    driver.set_script_timeout(120)
    return driver


def wait(driver, script, deadline=120):
    end = time.time() + deadline
    while time.time() < end:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.02)
    raise RuntimeError("timed out: " + script)


class Server:
    """`hostapp serve DOC` on a free loopback port, new for each run (a cold server)."""

    def __init__(self, folder):
        self.token = secrets.token_hex(16)
        token_file = os.path.join(folder, "token")
        with open(token_file, "w") as f:
            f.write(self.token + "\n")
        self.process = subprocess.Popen(
            [HOSTAPP, "serve", DOC, "--port", "0", "--token-file", token_file, "--read-only", "--reader-state", ":memory:"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.base = re.search(r"(http://127\.0\.0\.1:\d+)/", self.process.stdout.readline()).group(1)

    def stop(self):
        # The server lets the requests in flight finish for up to its grace period (30 s by
        # default) before it ends; the wait outlasts that.
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=90)
        self.process.stdout.close()


class StaticServer:
    """pdf.js's viewer and the document, served as files on a free loopback port."""

    def __init__(self, folder):
        os.symlink(PDFJS, os.path.join(folder, "pdfjs"))
        os.symlink(DOC, os.path.join(folder, "document.pdf"))

        class Quiet(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *arguments, **keywords):
                super().__init__(*arguments, directory=folder, **keywords)

            def log_message(self, *_):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.base = "http://127.0.0.1:%d" % self.httpd.server_address[1]

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@contextlib.contextmanager
def opened(driver, make_server, address):
    """The document opened in the browser from a new server (`make_server(folder)`) at
    `address(server)`; yields the seconds to the first page painted."""
    folder = tempfile.mkdtemp(prefix="bench-viewer-")
    server = make_server(folder)
    try:
        driver.get(address(server))
        yield wait(driver, "return window.__painted[1]") / 1000
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def our_address(server):
    return server.base + "/?token=" + server.token + "#doc=" + os.path.basename(DOC)


def ours(driver):
    """First paint and the jump, in the viewer, on a new server."""
    with opened(driver, Server, our_address) as first:
        wait(driver, "return document.querySelectorAll('#thumbnails .thumbnail').length > 2000")
        # The moment the page's canvas is marked drawn, as pdf.js's time is that of its
        # `pagerendered` event: not the next animation frame that would look.
        jump = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const drawn = () => document.querySelector('.page[data-index="' + (arguments[0] - 1) + '"] canvas.render[data-state="drawn"]');
            const watcher = new MutationObserver(() => {
              if (!drawn()) return;
              watcher.disconnect();
              done((performance.now() - started) / 1000);
            });
            watcher.observe(document.getElementById('pages'), { subtree: true, attributes: true, attributeFilter: ['data-state'] });
            const started = performance.now();
            // By the address, as a shared link to the page would (the page box reads labels first).
            location.hash = 'doc=' + encodeURIComponent(arguments[1]) + '&page=' + arguments[0];
        """.replace("arguments[0]", str(JUMP)), JUMP, os.path.basename(DOC))
        return first, jump


def pdfjs(driver):
    """First paint and the jump, in pdf.js's viewer, on a new static server."""
    with opened(driver, StaticServer, lambda server: server.base + "/pdfjs/web/viewer.html?file=/document.pdf#zoom=page-width") as first:
        driver.execute_async_script("const done = arguments[arguments.length - 1]; PDFViewerApplication.pdfViewer.pagesPromise.then(() => done(true));")
        jump = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const started = performance.now();
            window.__painted[%d] = 0;
            PDFViewerApplication.page = %d;
            (function watch() {
              if (window.__painted[%d]) return done((window.__painted[%d] - started) / 1000);
              requestAnimationFrame(watch);
            })();
        """ % (JUMP, JUMP, JUMP, JUMP))
        return first, jump


def offline_first_paint(driver, ready):
    """Seconds to page 1 painted when the page open in `driver` is reloaded without the
    network, once `ready` (a script) says what it needs is kept; None when it does not open."""
    end = time.time() + 60
    while not driver.execute_async_script(ready):
        if time.time() > end:
            raise RuntimeError("the viewer kept nothing for offline reading")
        time.sleep(0.1)
    tools = DevTools(driver)
    try:
        tools.offline(True)
        driver.refresh()
        try:
            return wait(driver, "return window.__painted[1]", OFFLINE_DEADLINE) / 1000
        except RuntimeError:
            return None
    finally:
        tools.offline(False)
        tools.close()


KEPT = """
    const done = arguments[arguments.length - 1];
    caches.open('renderer-viewer-kept').then((cache) => cache.keys()).then((requests) => {
      const urls = requests.map((r) => r.url);
      done(['/api/health', '/api/documents', '/pages/0/image?dpi'].every((part) => urls.some((u) => u.includes(part))));
    }, () => done(false));
"""

READING_PAINT = """
    const done = arguments[arguments.length - 1];
    const started = performance.now();
    document.getElementById('reading-toggle').click();
    (function watch() {
      const page = document.querySelector('#reading-text .reading-page');
      if (page && page.textContent.trim().length > 0) return requestAnimationFrame(() => done((performance.now() - started) / 1000));
      requestAnimationFrame(watch);
    })();
"""


def ours_on_a_phone(driver):
    """First paint cold, reading mode's first paint, and first paint from the offline copy, on a phone's screen."""
    with opened(driver, Server, our_address) as first:
        reading_paint = driver.execute_async_script(READING_PAINT)
        driver.execute_script("document.getElementById('reading-toggle').click()")
        return first, reading_paint, offline_first_paint(driver, KEPT)


def pdfjs_on_a_phone(driver):
    """First paint cold and, tried the same way, from what the browser kept, on a phone's screen."""
    with opened(driver, StaticServer, lambda server: server.base + "/pdfjs/web/viewer.html?file=/document.pdf#zoom=page-width") as first:
        return first, offline_first_paint(driver, "const done = arguments[arguments.length - 1]; done(true);")


def fast_scrolling(driver):
    """Page images asked for in 40 jumps two frames apart, and those still drawn or given up
    for pages out of view right after."""
    with opened(driver, Server, our_address):
        counts = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const viewer = document.getElementById('viewer');
            const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
            const asked = new Set();
            const watcher = new MutationObserver((changes) => {
              for (const change of changes) for (const node of change.addedNodes) if (node.classList && node.classList.contains('render')) asked.add(node);
            });
            watcher.observe(document.getElementById('pages'), { childList: true, subtree: true });
            (async () => {
              for (let jump = 0; jump < 40; jump++) {
                viewer.scrollTop = document.querySelector('.page[data-index="' + (100 + jump * 25) + '"]').offsetTop;
                await frame();
                await frame();
              }
              watcher.disconnect();
              const view = viewer.getBoundingClientRect();
              const far = [...asked].filter((image) => {
                const r = image.getBoundingClientRect();
                return r.bottom < view.top - 500 || r.top > view.bottom + 500;
              });
              done({
                asked: asked.size,
                drawing: far.filter((image) => !image.dataset.state).length,
                givenUp: far.filter((image) => image.dataset.state === 'stopped').length,
              });
            })();
        """)
        return counts


def browser_memory(driver):
    """MiB: the proportional set size of every process of the browser `driver` drives (its
    tab, its GPU and network processes, the browser itself) after a garbage collection, then
    after a critical memory-pressure notification (what the browser cannot give back: it
    drops its caches of decoded images, which a canvas does not have)."""
    driver.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
    time.sleep(1)
    collected = proportional_set_size(driver)
    driver.execute_cdp_cmd("Memory.simulatePressureNotification", {"level": "critical"})
    time.sleep(2)
    return collected, proportional_set_size(driver)


def proportional_set_size(driver):
    """MiB: the proportional set size of every process of the browser `driver` drives."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            children.setdefault(parent, []).append(int(entry))
    browser_processes, waiting = [], list(children.get(driver.service.process.pid, []))
    while waiting:
        pid = waiting.pop()
        browser_processes.append(pid)
        waiting.extend(children.get(pid, []))
    total = 0
    for pid in browser_processes:
        try:
            with open("/proc/%d/smaps_rollup" % pid) as f:
                total += next(int(line.split()[1]) for line in f if line.startswith("Pss:"))
        except (OSError, StopIteration):
            pass
    return total / 1024


def dom_nodes(driver):
    return driver.execute_cdp_cmd("Memory.getDOMCounters", {})["nodes"]


# Shows page `arguments[0]` and answers the seconds until it is drawn with its text layer;
# `turn(n)` shows page n, `drawn(n)` says whether it is drawn so.
TURN = """
    const done = arguments[arguments.length - 1];
    const n = arguments[0];
    %s
    const started = performance.now();
    turn(n);
    (function watch() {
      if (drawn(n)) return done((performance.now() - started) / 1000);
      requestAnimationFrame(watch);
    })();
"""

OUR_TURNS = """
    const name = arguments[1];
    const turn = (n) => { location.hash = 'doc=' + encodeURIComponent(name) + '&page=' + n; };
    const drawn = (n) => {
      const page = document.querySelector('.page[data-index="' + (n - 1) + '"]');
      return page && page.querySelector('canvas.render[data-state="drawn"]') && page.querySelector('.text-layer span');
    };
"""

PDFJS_TURNS = """
    const turn = (n) => { PDFViewerApplication.page = n; };
    const drawn = (n) => {
      const view = PDFViewerApplication.pdfViewer.getPageView(n - 1);
      return view && view.renderingState === 3 && view.textLayer && view.textLayer.renderingDone;
    };
"""


def reading(make_server, address, turns, ready):
    """Seconds to read pages 2 to READ_PAGES one at a time, the browser's memory (MiB) and the
    tab's DOM nodes after, in a browser of its own."""
    driver = browser()
    try:
        with opened(driver, make_server, address):
            driver.execute_async_script(ready)
            seconds = sum(driver.execute_async_script(TURN % turns, page, os.path.basename(DOC))
                          for page in range(2, READ_PAGES + 1))
            return seconds, browser_memory(driver), dom_nodes(driver)
    finally:
        driver.quit()


def measure():
    if not os.path.isdir(PDFJS):
        sys.exit("pdf.js is not installed (Debian's libjs-pdf; make bench-deps installs it)")
    results = {"ours": [], "pdfjs": []}
    driver = browser()
    try:
        for _ in range(RUNS):
            results["ours"].append(ours(driver))
            results["pdfjs"].append(pdfjs(driver))
        scrolling = fast_scrolling(driver)
    finally:
        driver.quit()
    phone = browser(phone=True)
    try:
        on_a_phone = {"ours": [ours_on_a_phone(phone) for _ in range(RUNS)], "pdfjs": [pdfjs_on_a_phone(phone) for _ in range(RUNS)]}
    finally:
        phone.quit()
    our_reading = reading(Server, our_address, OUR_TURNS,
                          "const done = arguments[arguments.length - 1]; done(true);")
    their_reading = reading(StaticServer, lambda server: server.base + "/pdfjs/web/viewer.html?file=/document.pdf#zoom=page-width",
                            PDFJS_TURNS, "const done = arguments[arguments.length - 1]; PDFViewerApplication.pdfViewer.pagesPromise.then(() => done(true));")
    median = {name: (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)) for name, runs in results.items()}
    (our_first, our_jump), (their_first, their_jump) = median["ours"], median["pdfjs"]
    phone_first = {name: statistics.median(r[0] for r in runs) for name, runs in on_a_phone.items()}
    reading_paint = statistics.median(r[1] for r in on_a_phone["ours"])

    def offline(runs):
        opened_offline = [r[-1] for r in runs if r[-1] is not None]
        return statistics.median(opened_offline) if len(opened_offline) == len(runs) else None

    our_offline, their_offline = offline(on_a_phone["ours"]), offline(on_a_phone["pdfjs"])
    their_offline_text = "%.2f s" % their_offline if their_offline is not None else "does not open (%d of %d runs)" % (
        sum(1 for r in on_a_phone["pdfjs"] if r[-1] is None), RUNS)
    our_offline_text = "%.2f s" % our_offline if our_offline is not None else "does not open"
    pages = subprocess.run(["pdfinfo", DOC], capture_output=True, text=True).stdout
    count = re.search(r"Pages:\s+(\d+)", pages).group(1)
    return [
        BEGIN,
        "## The viewer against pdf.js",
        "",
        "`make bench-viewer` (Benchmarks/viewer_first_paint.py): %s (%s pages), the release build's "
        "`hostapp serve` and pdf.js 2.14's own viewer (Debian's libjs-pdf, served as static files), "
        "each in Debian's headless Chromium with its cache off, in one run; medians of %d runs, each "
        "on a new server. Issue 33's targets: first page at most 0.5 s, the jump at most 0.3 s; "
        "issue 56's: reading at most pdf.js's time and memory (one run each, in a browser of its own; "
        "memory: the proportional set size of all the browser's processes after a garbage collection, "
        "then after Chromium's critical memory-pressure notification, which drops its caches of decoded images). "
        "A page of this viewer counts as painted once its image is decoded into the page's canvas, "
        "timed for the jump when the canvas is marked so (pdf.js's page at its `pagerendered` event; "
        "until December 2026 ours at the next animation frame after, up to 17 ms later); "
        "until December 2026 it was an image element, counted once loaded and before it was decoded, "
        "and its images stayed in the browser's cache of decoded pictures (the jump then read 0.11 s, the memory 1.33x pdf.js's)."
        % (os.path.basename(DOC), count, RUNS),
        "",
        "| Measure | This viewer | pdf.js | Ratio |",
        "|---|---|---|---|",
        "| First page painted after navigation (cold server) | %.2f s | %.2f s | %.2f |" % (our_first, their_first, our_first / their_first),
        "| Jump to page %s painted, the document open | %.2f s | %.2f s | %.2f |" % ("{:,}".format(JUMP), our_jump, their_jump, our_jump / their_jump),
        "| Pages 2-%d shown one at a time, each with its text layer | %.1f s | %.1f s | %.2f |" % (READ_PAGES, our_reading[0], their_reading[0], our_reading[0] / their_reading[0]),
        "| The browser's memory after reading them | %.0f MiB | %.0f MiB | %.2f |" % (our_reading[1][0], their_reading[1][0], our_reading[1][0] / their_reading[1][0]),
        "| The same after a critical memory-pressure notification | %.0f MiB | %.0f MiB | %.2f |" % (our_reading[1][1], their_reading[1][1], our_reading[1][1] / their_reading[1][1]),
        "| The tab's DOM nodes after reading them | %s | %s | %.2f |" % ("{:,}".format(our_reading[2]), "{:,}".format(their_reading[2]), our_reading[2] / their_reading[2]),
        "",
        "On a phone's screen (390x844 CSS pixels, device scale factor 3, touch emulated; medians of %d runs; "
        "offline: the network taken from the page and its service worker with Chromium's network emulation, "
        "then the page reloaded; pdf.js's viewer tried the same way once it had the document open):" % RUNS,
        "",
        "| Measure | This viewer | pdf.js | Ratio |",
        "|---|---|---|---|",
        "| First page painted after navigation (cold server) | %.2f s | %.2f s | %.2f |" % (
            phone_first["ours"], phone_first["pdfjs"], phone_first["ours"] / phone_first["pdfjs"]),
        "| First page painted offline, from what the browser kept | %s | %s | %s |" % (
            our_offline_text, their_offline_text,
            "%.2f" % (our_offline / their_offline) if our_offline is not None and their_offline is not None else "-"),
        "| Reading mode's first paint (page 1, the document open) | %.2f s | no reading mode | - |" % reading_paint,
        "",
        "Fast scrolling (40 jumps, two frames apart): %d page images asked for; right after the last jump, "
        "%d still being drawn for pages that had left the view, %d given up before they were drawn."
        % (scrolling["asked"], scrolling["drawing"], scrolling["givenUp"]),
        END,
    ]


if __name__ == "__main__":
    run(measure, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "BENCHMARKS.md"), BEGIN, END)
