"""Realtime collaboration under load: N clients (1, 10, 100) each pushing edits to one layer
at M per second, against `hostapp serve --collab-key` on SQLite and on PostgreSQL (a
throwaway cluster of Debian's server), with one, two and three server processes (replicas).

Each client pushes over HTTP (a keep-alive connection) and keeps the layer's WebSocket open
and read, as a reader's app does;
one more client only listens, on the last server, and times each change from the moment it
was pushed to the moment its event arrives there (with two servers, half the pushes cross
from one server to the other through PostgreSQL's NOTIFY; with three, two thirds). The reference is the naive
alternative: a reader who polls the layer's changes once a second, timed the same way.

Run alone by `make bench-collab` (BENCH_COLLAB_SECONDS per run, default 20), and by
`make bench`. Needs `websockets` from PyPI (make setup installs it).
"""
import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

import report_section

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Support"))
from postgres_server import PostgresServer  # noqa: E402

HOSTAPP = os.environ.get("HOSTAPP", ".build/release/hostapp")
SECONDS = float(os.environ.get("BENCH_COLLAB_SECONDS", "20"))
FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "text.pdf")
DOCUMENT, LAYER = "docs/text.pdf", "bench"
SERVER_TOKEN = "collaboration-bench-token-0123456789"
BEGIN, END = "<!-- collaboration -->", "<!-- /collaboration -->"


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def serve(folder, database):
    process = subprocess.Popen(
        [HOSTAPP, "serve", os.path.join(folder, "docs"), "--port", "0", "--token-file", os.path.join(folder, "server.token"),
         "--collab-key", os.path.join(folder, "public.pem"), "--database", database, "--reader-state", ":memory:"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    return process, int(re.search(r"127\.0\.0\.1:(\d+)/", line).group(1))


def tokens(folder, count):
    issued = []
    for index in range(count):
        issued.append(subprocess.run(
            [HOSTAPP, "token", "issue", "--private-key", os.path.join(folder, "private.pem"), "--document", DOCUMENT, "--layer", LAYER,
             "--user", "user-%d" % index, "--expires-in", "3600"], check=True, capture_output=True, text=True).stdout.strip())
    return issued


def path():
    return "/api/collab/documents/%s/layers/%s" % (urllib.parse.quote(DOCUMENT, safe=""), LAYER)


class Connection:
    """One keep-alive HTTP/1.1 connection, read and written by hand: the load generator runs on
    the server's own two cores, so each client costs as little as it can (no HTTP library,
    no thread per request)."""

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port):
        return cls(*await asyncio.open_connection("127.0.0.1", port))

    async def post(self, target, token, body):
        self.writer.write(("POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"
                           "Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % (target, token, len(body))).encode() + body)
        return await self.answer()

    async def get(self, target, token):
        self.writer.write(("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n\r\n" % (target, token)).encode())
        return await self.answer()

    async def answer(self):
        head = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        length = int(re.search(r"(?i)content-length: *(\d+)", head).group(1))
        return int(head.split(" ", 2)[1]), await self.reader.readexactly(length)

    async def upgrade(self, target):
        """Opens the layer's WebSocket on this connection (the frames are then read raw)."""
        self.writer.write(("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           "Sec-WebSocket-Key: Y29sbGFiLWJlbmNoLWtleS0x\r\nSec-WebSocket-Version: 13\r\n\r\n" % target).encode())
        head = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        if not head.startswith("HTTP/1.1 101"):
            raise RuntimeError("no WebSocket: " + head.splitlines()[0])

    def close(self):
        self.writer.close()


async def run_load(ports, clients, rate, issued):
    """Returns accepted changes per second, the push-to-event latencies (s) at the listener, and
    the latencies of `/api/health`, asked ten times a second on the first server meanwhile."""
    import websockets
    sent, latencies, accepted, health = {}, [], [0], []
    stop = time.monotonic() + SECONDS

    async def health_checker(port):
        connection = await Connection.open(port)
        while time.monotonic() < stop:
            asked = time.monotonic()
            status, _ = await connection.get("/api/health", SERVER_TOKEN)
            if status == 200:
                health.append(time.monotonic() - asked)
            await asyncio.sleep(0.1)
        connection.close()

    async def listener(port, token):
        async with websockets.connect("ws://127.0.0.1:%d%s/events?access_token=%s" % (port, path(), token), max_size=1 << 22) as socket:
            ready.set()
            while time.monotonic() < stop + 2:
                try:
                    text = await asyncio.wait_for(socket.recv(), timeout=1)
                except asyncio.TimeoutError:
                    continue
                arrived = time.monotonic()
                for found in re.findall(r'"id":"(bench-[0-9]+-[0-9]+)"', text):
                    if found in sent:
                        latencies.append(arrived - sent.pop(found))

    async def sink(port, token):
        """A reader's open WebSocket: it reads everything the server sends, as bytes."""
        connection = await Connection.open(port)
        await connection.upgrade("%s/events?access_token=%s" % (path(), token))
        while time.monotonic() < stop + 2:
            try:
                if not await asyncio.wait_for(connection.reader.read(1 << 16), timeout=1):
                    raise RuntimeError("the server closed a reader's WebSocket")
            except asyncio.TimeoutError:
                continue
        connection.close()

    async def editor(index, port, token):
        connection = await Connection.open(port)
        sequence = 0
        await asyncio.sleep(index / (clients * rate))  # spread the clients over the first interval
        next_time = time.monotonic()
        while time.monotonic() < stop:
            sequence += 1
            identity = "bench-%d-%d" % (index, sequence)
            body = json.dumps({"changes": [{"operationID": identity, "action": "add", "annotation": {
                "id": identity, "kind": "Square", "pageIndex": 0, "contents": "edit",
                "rect": {"origin": {"x": 10, "y": 10}, "size": {"width": 20, "height": 20}}}}]}).encode()
            sent[identity] = time.monotonic()
            status, answer = await connection.post(path() + "/changes", token, body)
            if status == 200:
                accepted[0] += answer.count(b'"status":"applied"')
            next_time += 1 / rate
            await asyncio.sleep(max(0, next_time - time.monotonic()))
        connection.close()

    ready = asyncio.Event()
    watcher = asyncio.create_task(listener(ports[-1], issued[-1]))
    await ready.wait()
    sinks = [asyncio.create_task(sink(ports[i % len(ports)], issued[i])) for i in range(clients)]
    await asyncio.sleep(0.5)
    began = time.monotonic()
    checker = asyncio.create_task(health_checker(ports[0]))
    await asyncio.gather(*(editor(i, ports[i % len(ports)], issued[i]) for i in range(clients)))
    elapsed = time.monotonic() - began
    await asyncio.gather(watcher, checker, *sinks)
    return accepted[0] / elapsed, latencies, health


def polling_latency(port, token):
    """The naive reader: polls the layer's changes once a second while one client pushes 5 edits a second."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    headers = {"Authorization": "Bearer " + token}
    since = json.loads(opener.open(urllib.request.Request("http://127.0.0.1:%d%s/changes?since=0" % (port, path()), headers=headers)).read())["revision"]
    sent, latencies, stop = {}, [], time.monotonic() + min(SECONDS, 10)

    def push(identity):
        body = json.dumps({"changes": [{"operationID": identity, "action": "add", "annotation": {
            "id": identity, "kind": "Square", "pageIndex": 0, "rect": {"origin": {"x": 10, "y": 10}, "size": {"width": 20, "height": 20}}}}]}).encode()
        opener.open(urllib.request.Request("http://127.0.0.1:%d%s/changes" % (port, path()), data=body, method="POST",
                                           headers={**headers, "Content-Type": "application/json"}))

    next_poll, sequence = time.monotonic() + 1, 0
    while time.monotonic() < stop + 1:
        if time.monotonic() < stop:
            sequence += 1
            identity = "poll-%d" % sequence
            sent[identity] = time.monotonic()
            push(identity)
        if time.monotonic() >= next_poll:
            changes = json.loads(opener.open(urllib.request.Request("http://127.0.0.1:%d%s/changes?since=%d" % (port, path(), since), headers=headers)).read())
            since = changes["revision"]
            now = time.monotonic()
            latencies += [now - sent.pop(a["annotation"]["id"]) for a in changes["added"] if a["annotation"]["id"] in sent]
            next_poll += 1
        time.sleep(0.2)
    return latencies


def measure():
    folder = tempfile.mkdtemp(prefix="collab-bench-")
    os.mkdir(os.path.join(folder, "docs"))
    shutil.copy(FIXTURE, os.path.join(folder, "docs"))
    with open(os.path.join(folder, "server.token"), "w") as f:
        f.write(SERVER_TOKEN + "\n")
    subprocess.run([HOSTAPP, "token", "keygen", "--private-key-out", os.path.join(folder, "private.pem"),
                    "--public-key-out", os.path.join(folder, "public.pem")], check=True)
    issued = tokens(folder, 101)
    cluster = PostgresServer(max_connections=200)
    rows, polled = [], []
    try:
        runs = [("SQLite", 1, n) for n in (1, 10, 100)] + [("PostgreSQL", 1, n) for n in (1, 10, 100)] + [("PostgreSQL", 2, n) for n in (10, 100)] + [("PostgreSQL", 3, 100)]
        for store, servers, clients in runs:
            database = cluster.url if store == "PostgreSQL" else os.path.join(folder, "layers-%d.sqlite" % len(rows))
            started = [serve(folder, database) for _ in range(servers)]
            try:
                if not polled:
                    polled = polling_latency(started[0][1], issued[0])
                rate, latencies, health = asyncio.run(run_load([port for _, port in started], clients, 1.0, issued))
                rows.append((store, servers, clients, rate, latencies, health))
            finally:
                for process, _ in started:
                    process.terminate()
                    process.wait(timeout=30)
    finally:
        cluster.remove()
        shutil.rmtree(folder, ignore_errors=True)

    poll50, poll99 = percentile(polled, 0.5), percentile(polled, 0.99)
    lines = [
        BEGIN,
        "## Realtime collaboration",
        "",
        f"`hostapp serve --collab-key` (`Benchmarks/collab_load.py`, `{os.path.relpath(HOSTAPP)}`), one layer of `{DOCUMENT}`:",
        f"N clients each pushing one edit a second over HTTP for {SECONDS:.0f} s, each with the layer's WebSocket open, and one",
        "more client listening on the last server, which times each change from its push to its event (with two servers,",
        "half the changes cross through PostgreSQL's NOTIFY, with three replicas two thirds). Reference: a reader polling the",
        "changes once a second",
        f"(measured: p50 {poll50 * 1000:.0f} ms, p99 {poll99 * 1000:.0f} ms). Meanwhile `/api/health` is asked ten times",
        "a second on the first server: its p99 says whether the collaboration work stalls the server's other answers.",
        "",
        "| store | servers | clients x edits/s | accepted changes/s | p50 push to event (ms) | p99 (ms) | p99 against polling | health p99 (ms) | target |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    targets = {("SQLite", 1, 100): "push p99 under 100 ms, health p99 under 50 ms", ("PostgreSQL", 1, 100): "push p99 under 100 ms",
               ("PostgreSQL", 3, 100): "push p99 under 100 ms across replicas"}
    for store, servers, clients, rate, latencies, health in rows:
        p50, p99 = percentile(latencies, 0.5), percentile(latencies, 0.99)
        target = targets.get((store, servers, clients), "")
        lines.append(f"| {store} | {servers} | {clients} x 1 | {rate:.1f} | {p50 * 1000:.1f} | {p99 * 1000:.1f} | {p99 / poll99:.3f}x "
                     f"| {percentile(health, 0.99) * 1000:.1f} | {target} |")
    lines.append(END)
    return lines


if __name__ == "__main__":
    sys.exit(report_section.run(measure, "BENCHMARKS.md", BEGIN, END))
