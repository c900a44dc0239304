#!/usr/bin/env python3
"""Measures `hostapp serve` as a page server, against what a naive server would do (one
`mutool draw` process per page) and against `hostapp render --jobs 2` on the same pages:

- time to the first page image from a cold start (process launched, document opened,
  page 1 drawn and received), against one `mutool draw` of page 1;
- page images per second and p50/p99 latency with 1, 8 and 32 concurrent clients, each
  client a thread with its own keep-alive connection, uncached (a fresh server, every page
  asked for once) and cached (the same pages again);
- the server's resident memory, sampled every 5 s, under a sustained load of 8 clients
  over the whole document at three resolutions (more than the image cache holds).

Settings (environment variables):
  BENCH_DOC             the document (default: R's 2,415-page reference manual)
  BENCH_SERVER_PAGES    pages per load run (default: 240, the first ones)
  BENCH_SERVER_DPI      resolution of the page images (default: 96, a viewer at 100%)
  BENCH_SERVER_SECONDS  length of the memory run (default: 600)
  HOSTAPP               the hostapp binary (default: .build/release/hostapp)

Run by `make bench` (whose report includes its section) or alone with `make bench-server`,
which rewrites only this section of BENCHMARKS.md.
"""
import http.client
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import report_section

HOSTAPP = os.path.abspath(os.environ.get("HOSTAPP", ".build/release/hostapp"))
DOC = os.environ.get("BENCH_DOC", "/usr/share/R/doc/manual/refman.pdf")
PAGES = int(os.environ.get("BENCH_SERVER_PAGES", "240"))
DPI = int(os.environ.get("BENCH_SERVER_DPI", "96"))
SECONDS = int(os.environ.get("BENCH_SERVER_SECONDS", "600"))
TOKEN = "bench-server-token-0123456789"
BEGIN, END = "<!-- viewer-server -->", "<!-- /viewer-server -->"


class Server:
    """`hostapp serve DOC` on a free loopback port, stopped on exit."""

    def __init__(self, work):
        token_file = os.path.join(work, "token")
        with open(token_file, "w") as f:
            f.write(TOKEN + "\n")
        self.started = time.monotonic()
        self.process = subprocess.Popen([HOSTAPP, "serve", DOC, "--port", "0", "--token-file", token_file, "--read-only", "--reader-state", ":memory:"],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        self.port = int(re.search(r"127\.0\.0\.1:(\d+)/", line).group(1))
        self.document = "/api/documents/" + os.path.basename(DOC)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.process.terminate()
        self.process.wait(timeout=60)

    def rss_mb(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            return next(int(l.split()[1]) for l in status if l.startswith("VmRSS:")) / 1024

    def image_path(self, index, dpi=DPI):
        return f"{self.document}/pages/{index}/image?dpi={dpi}"


class Client:
    """One keep-alive connection, opened again when the server closes it."""

    def __init__(self, port):
        self.port = port
        self.connection = None

    def get(self, path):
        for attempt in range(2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            try:
                self.connection.request("GET", path, headers={"Authorization": "Bearer " + TOKEN})
                response = self.connection.getresponse()
                body = response.read()
                if response.status != 200:
                    raise RuntimeError(f"GET {path}: {response.status} {body[:200]!r}")
                if response.getheader("Connection", "").lower() == "close":
                    self.connection.close()
                    self.connection = None
                return body
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.connection = None
                if attempt == 1:
                    raise


def load(server, paths, clients):
    """Asks for every path once, `clients` at a time: (pages per second, p50 s, p99 s)."""
    queue = list(reversed(paths))
    lock = threading.Lock()
    latencies = []
    failures = []

    def run():
        client = Client(server.port)
        while True:
            with lock:
                if not queue:
                    return
                path = queue.pop()
            started = time.monotonic()
            try:
                client.get(path)
            except Exception as error:  # reported below, the run goes on
                failures.append(str(error))
            with lock:
                latencies.append(time.monotonic() - started)

    started = time.monotonic()
    threads = [threading.Thread(target=run) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    if failures:
        raise SystemExit(f"{len(failures)} requests failed, the first: {failures[0]}")
    latencies.sort()
    return len(paths) / elapsed, latencies[len(latencies) // 2], latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]


def timed(command):
    started = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - started


def first_page(work):
    """Median of 5 cold starts: launch to page 1's image received."""
    times = []
    for _ in range(5):
        with Server(work) as server:
            Client(server.port).get(server.image_path(0))
            times.append(time.monotonic() - server.started)
    return statistics.median(times)


def measure():
    """The report's section, as lines."""
    with tempfile.TemporaryDirectory(prefix="bench-server-") as work:
        count = int(next(l.split()[-1] for l in subprocess.run(["pdfinfo", DOC], capture_output=True, text=True).stdout.splitlines()
                         if l.startswith("Pages:")))
        pages = min(PAGES, count)
        cold = first_page(work)
        mutool_first = statistics.median(timed(["mutool", "draw", "-q", "-r", str(DPI), "-o", f"{work}/m.png", DOC, "1"]) for _ in range(5))
        naive = timed(["sh", "-c", f"seq 1 {pages} | xargs -P 2 -I N mutool draw -q -r {DPI} -o {work}/n-N.png {DOC} N"])
        render = timed([HOSTAPP, "--renderer", "mupdf", "render", DOC, "--pages", f"1-{pages}", "--dpi", str(DPI), "--jobs", "2",
                        "-o", f"{work}/r-%d.png"])
        rows = []
        for clients in (1, 8, 32):
            with Server(work) as server:
                paths = [server.image_path(i) for i in range(pages)]
                rows.append((clients, "uncached") + load(server, paths, clients))
                rows.append((clients, "cached") + load(server, paths, clients))
        curve = []
        with Server(work) as server:
            paths = [server.image_path(i, dpi) for dpi in (72, 96, 120) for i in range(count)]
            stop = time.monotonic() + SECONDS
            done = threading.Event()

            def keep_loading():
                position = 0
                while time.monotonic() < stop:
                    batch = paths[position:position + 64] or paths[:64]
                    position = (position + 64) % len(paths)
                    load(server, batch, 8)
                done.set()

            loader = threading.Thread(target=keep_loading)
            loader.start()
            began = time.monotonic()
            while not done.is_set():
                curve.append((time.monotonic() - began, server.rss_mb()))
                done.wait(5)
            loader.join()

    lines = [
        BEGIN,
        "## The viewer's server",
        "",
        f"`hostapp serve` (`Benchmarks/server_load.py`, `{os.path.relpath(HOSTAPP)}`) on `{DOC}` ({count} pages), page images at",
        f"{DPI} dpi, against a naive server (one `mutool draw` process per page, two at a time) and `hostapp render --jobs 2`",
        f"on the same {pages} pages.",
        "",
        "| figure | hostapp serve | reference | ratio | target |",
        "|---|---|---|---|---|",
        f"| first page image, cold server (s) | {cold:.3f} | {mutool_first:.3f} (`mutool draw` page 1) | {cold / mutool_first:.2f}x | under 0.150 s |",
    ]
    for clients, kind, rate, p50, p99 in rows:
        reference = f"{pages / naive:.1f} naive, {pages / render:.1f} render --jobs 2"
        target = ""
        if clients == 32 and kind == "uncached":
            target = "within 10% of render --jobs 2; p99 under 1 s"
        lines.append(f"| {clients} client{'s' if clients > 1 else ''}, {kind}: pages/s, p50, p99 (s) | {rate:.1f}, {p50:.3f}, {p99:.3f} | {reference} | "
                     f"{rate / (pages / render):.2f}x render | {target} |")
    sampled = curve[:: max(1, len(curve) // 12)] + ([curve[-1]] if curve else [])
    half = [mb for t, mb in curve if t >= (curve[-1][0] / 2 if curve else 0)]
    lines += [
        "",
        f"Resident memory under {SECONDS} s of 8 clients over all pages at 72, 96 and 120 dpi (MB, by second): "
        + ", ".join(f"{t:.0f}: {mb:.0f}" for t, mb in sampled) + ".",
        f"Second half: {min(half):.0f} to {max(half):.0f} MB." if half else "",
        END,
    ]
    return lines


if __name__ == "__main__":
    sys.exit(report_section.run(measure, "BENCHMARKS.md", BEGIN, END))
