"""The server's memory while slow clients download a large file: 20 clients each fetch the
same 40 MiB PDF through `GET /api/documents/{id}/file` and read it at 1 MiB a second, and
the server's resident memory is sampled ten times a second for 15 s. The naive alternative,
which reads the whole file into memory for each request (as the server did before it
streamed), would hold 20 x 40 MiB; the target is at most 60 MB above the idle server.

Run alone by `make bench-server` (which also runs server_load.py), and by `make bench`.
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

import report_section

HOSTAPP = os.environ.get("HOSTAPP", ".build/release/hostapp")
FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "text.pdf")
CLIENTS, MIB, SECONDS = 20, 40, 15
TOKEN = "download-bench-token-0123456789abcdef"
BEGIN, END = "<!-- downloads -->", "<!-- /downloads -->"


def large_pdf(path):
    """text.pdf with an unreferenced 40 MiB stream after it: a file engines still open."""
    with open(FIXTURE, "rb") as source, open(path, "wb") as out:
        out.write(source.read())
        payload = os.urandom(MIB << 20)
        out.write(b"\n999 0 obj\n<< /Length %d >>\nstream\n" % len(payload) + payload + b"\nendstream\nendobj\n")


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024


def slow_reader(port, stop, received):
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(("GET /api/documents/docs%%2Flarge.pdf/file HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            "Authorization: Bearer %s\r\n\r\n" % TOKEN).encode())
        connection.settimeout(5)
        while not stop.is_set():
            began = time.monotonic()
            try:
                chunk = connection.recv(64 << 10)
            except socket.timeout:
                continue
            if not chunk:
                break
            received.append(len(chunk))
            time.sleep(max(0, 1 / 16 - (time.monotonic() - began)))  # 16 x 64 KiB: 1 MiB a second


def measure():
    folder = tempfile.mkdtemp(prefix="download-bench-")
    try:
        os.mkdir(os.path.join(folder, "docs"))
        large_pdf(os.path.join(folder, "docs", "large.pdf"))
        with open(os.path.join(folder, "token"), "w") as out:
            out.write(TOKEN + "\n")
        server = subprocess.Popen([HOSTAPP, "serve", os.path.join(folder, "docs"), "--port", "0", "--token-file", os.path.join(folder, "token"), "--reader-state", ":memory:"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            port = int(re.search(r"127\.0\.0\.1:(\d+)/", server.stdout.readline()).group(1))
            # The document opened once (the route opens it before it serves it), then idle.
            with socket.create_connection(("127.0.0.1", port)) as warm:
                warm.sendall(("GET /api/documents/docs%%2Flarge.pdf HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"
                              "Connection: close\r\n\r\n" % TOKEN).encode())
                while warm.recv(1 << 16):
                    pass
            time.sleep(1)
            idle = rss_mb(server.pid)
            stop, received = threading.Event(), []
            readers = [threading.Thread(target=slow_reader, args=(port, stop, received)) for _ in range(CLIENTS)]
            for reader in readers:
                reader.start()
            samples, ends = [], time.monotonic() + SECONDS
            while time.monotonic() < ends:
                samples.append(rss_mb(server.pid))
                time.sleep(0.1)
            stop.set()
            for reader in readers:
                reader.join()
        finally:
            server.terminate()
            server.wait(timeout=60)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    peak = max(samples)
    naive = CLIENTS * MIB * 1.048576
    return [
        BEGIN,
        "## Slow downloads",
        "",
        f"`Benchmarks/download_memory.py` (`{os.path.relpath(HOSTAPP)}`): {CLIENTS} clients each download a {MIB} MiB PDF through",
        f"`/file` at 1 MiB a second for {SECONDS} s while the server's resident memory is sampled ten times a second. The naive",
        f"alternative, reading the file into memory for each request (as the server did before it streamed), holds {naive:.0f} MB.",
        "",
        "| idle (MB) | peak (MB) | above idle (MB) | against the naive files in memory | received (MiB) | target |",
        "|---|---|---|---|---|---|",
        f"| {idle:.0f} | {peak:.0f} | {peak - idle:.1f} | {(peak - idle) / naive:.3f}x | {sum(received) / (1 << 20):.0f} | at most 60 MB above idle |",
        END,
    ]


if __name__ == "__main__":
    sys.exit(report_section.run(measure, "BENCHMARKS.md", BEGIN, END))
