"""The server as a fleet, on the real parts, on loopback: a throwaway PostgreSQL, three
`hostapp serve` replicas sharing it and one documents folder, and Debian's HAProxy in front,
checking each replica's /api/ready (with the token) and retrying what a replica refused while
draining. Each test states what it holds:

- the token is asked for through the balancer, and every replica takes a share of the load;
- a collaboration edit made through one replica is read through the others, and so are a
  reader's place and bookmarks (kept in the database), never another reader's;
- a rolling restart (SIGTERM, start again, each replica in turn) under readers, writers and 20
  collaborators' WebSockets: no acknowledged edit lost or doubled, no reader's request failed
  with an answer a client would not retry, and every WebSocket back, hearing a change made
  after the restart;
- a replica killed with SIGKILL under the same load: the same;
- what a stranger tries against one server fails the same way through the balancer;
- saves to one document take turns through the database (an advisory lock the test holds
  keeps a replica's edit waiting), and a replica that sees the file older than the last save
  recorded there refuses to save over it;
- rate limits are kept in the database: a document's password tried through every replica
  in turn is refused after five tries, as through one server;
- a token revoked in the database (`hostapp token revoke`) is refused by every replica at
  once, and by one started later;
- an upload made through one replica is read through every one, and the uploads' space is
  counted for all of them: the oldest upload, whichever replica took it, makes room.

Usage: test_fleet.py HOSTAPP [unittest arguments]
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse

import websockets.sync.client

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from fleet import DOCUMENT, FIXTURES, RETRIED, TOKEN, Fleet, layer_path, padded_pdf, request, upload  # noqa: E402

HOSTAPP = None  # set from the command line
REPLICAS = 3
COLLABORATORS = 20
WRITERS = 4


class Load:
    """Readers, writers and collaborators through the balancer until stopped."""

    def __init__(self, fleet):
        self.fleet = fleet
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.read_statuses = {}
        self.failed_reads = []
        self.acknowledged = set()
        self.write_failures = []
        self.events = {index: [] for index in range(COLLABORATORS)}
        self.connections = {index: 0 for index in range(COLLABORATORS)}
        self.socket_errors = []
        writer_tokens = [fleet.collaboration_token("writer-%d" % index) for index in range(WRITERS)]
        self.collaborator_tokens = [fleet.collaboration_token("reader-%d" % index) for index in range(COLLABORATORS)]
        self.threads = [threading.Thread(target=self.read, daemon=True) for _ in range(2)]
        self.threads += [threading.Thread(target=self.write, args=(index, token), daemon=True) for index, token in enumerate(writer_tokens)]
        self.threads += [threading.Thread(target=self.collaborate, args=(index,), daemon=True) for index in range(COLLABORATORS)]
        for thread in self.threads:
            thread.start()

    def read(self):
        path = "/api/documents/%s/pages/0/image?dpi=20" % urllib.parse.quote(DOCUMENT, safe="")
        while not self.stopping.is_set():
            status, _, body = self.fleet.through_balancer("GET", path)
            with self.lock:
                self.read_statuses[status] = self.read_statuses.get(status, 0) + 1
                if status != 200 and status not in RETRIED and status is not None:
                    self.failed_reads.append((status, body[:300]))
            time.sleep(0.01)

    def write(self, index, token):
        number = 0
        while not self.stopping.is_set():
            number += 1
            operation = "writer-%d-%d" % (index, number)
            change = {"operationID": operation, "action": "add", "annotation": {
                "kind": "Text", "pageIndex": 0, "contents": operation, "rect": {"origin": {"x": 10 + number % 400, "y": 10}, "size": {"width": 20, "height": 20}}}}
            # A client sends the same change again until it has an answer; the operation id
            # makes a change sent twice apply once.
            for _ in range(200):
                status, _, body = self.fleet.through_balancer("POST", layer_path("/changes"), {"changes": [change]}, token)
                if status == 200:
                    result = json.loads(body)["results"][0]
                    with self.lock:
                        if result["status"] == "applied" or result.get("reason") == "exists":
                            self.acknowledged.add(operation)
                        else:
                            self.write_failures.append(result)
                    break
                if status is not None and status not in RETRIED:
                    with self.lock:
                        self.write_failures.append((status, body[:300]))
                    break
                time.sleep(0.05)
            time.sleep(0.1)

    def collaborate(self, index):
        """One collaborator's WebSocket through the balancer, connected again whenever the
        server closes it (1012 while a replica drains) or the connection fails."""
        address = "ws://127.0.0.1:%d%s" % (self.fleet.balancer_port, layer_path("/events"))
        while not self.stopping.is_set():
            try:
                with websockets.sync.client.connect(
                        address, additional_headers={"Authorization": "Bearer " + self.collaborator_tokens[index]},
                        open_timeout=10, max_size=2 ** 21) as connection:
                    with self.lock:
                        self.connections[index] += 1
                    while not self.stopping.is_set():
                        try:
                            message = json.loads(connection.recv(timeout=0.2))
                        except TimeoutError:
                            continue
                        with self.lock:
                            self.events[index].append(message)
            except websockets.exceptions.ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else None
                if code not in (1012, None) and not self.stopping.is_set():
                    with self.lock:
                        self.socket_errors.append(code)
            except (OSError, websockets.exceptions.InvalidStatus, websockets.exceptions.InvalidHandshake, TimeoutError):
                pass
            time.sleep(0.05)

    def heard(self, operation):
        """The collaborators that have heard the change `operation` added."""
        with self.lock:
            return {index for index, events in self.events.items()
                    if any(event.get("type") == "change" and event["annotation"]["annotation"].get("contents") == operation for event in events)}

    def finish(self):
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=60)


def at_once(count, action):
    """What `action(number)` returns for each number below `count`, each run at the same time on
    a thread of its own, in the order they ended."""
    results, lock = [], threading.Lock()

    def run(number):
        result = action(number)
        with lock:
            results.append(result)
    threads = [threading.Thread(target=run, args=(number,)) for number in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


class FleetTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="fleet-")
        cls.fleet = Fleet(HOSTAPP, cls.folder, REPLICAS, documents=[os.path.join(FIXTURES, "encrypted.pdf")])

    @classmethod
    def tearDownClass(cls):
        cls.fleet.close()
        shutil.rmtree(cls.folder, ignore_errors=True)

    def stored(self, index):
        """The layer's annotations' contents as replica `index` reads them from the database."""
        token = self.fleet.collaboration_token("witness")
        status, _, body = request(self.fleet.ports[index], "GET", layer_path("/annotations"), token=token)
        self.assertEqual(status, 200, body)
        return [held["annotation"].get("contents") for held in json.loads(body)["annotations"]]

    def test_1_the_balancer_asks_for_the_token_and_spreads_the_load(self):
        status, headers, body = self.fleet.through_balancer("GET", "/api/documents", token=None)
        self.assertEqual(status, 401)
        self.assertEqual(json.loads(body)["code"], "unauthorized")
        # HAProxy names the request; the replica answers with that name.
        status, headers, _ = self.fleet.through_balancer("GET", "/api/documents")
        self.assertEqual(status, 200)
        self.assertRegex(headers.get("x-request-id", ""), r"^[0-9A-F]{8,}$")
        before = [self.requests_counted(index) for index in range(REPLICAS)]
        for _ in range(30):
            self.assertEqual(self.fleet.through_balancer("GET", "/api/documents")[0], 200)
        after = [self.requests_counted(index) for index in range(REPLICAS)]
        for index in range(REPLICAS):
            self.assertGreater(after[index] - before[index], 0, "replica %d took none of the load" % index)
            # Each replica's use of the database's pool (PostgresNIO's default of 20 connections).
            self.assertEqual(self.metric(index, "hostapp_database_connections_maximum"), 20)
            self.assertGreaterEqual(self.metric(index, "hostapp_database_operations_in_flight"), 0)

    def requests_counted(self, index):
        """The GET /api/documents answers replica `index` counted in its metrics."""
        status, _, body = request(self.fleet.ports[index], "GET", "/api/metrics")
        self.assertEqual(status, 200)
        total = 0
        for line in body.decode().splitlines():
            if line.startswith("hostapp_http_requests_total{") and 'route="/api/documents"' in line and 'method="GET"' in line:
                total += float(line.rsplit(" ", 1)[1])
        return total

    def test_2_an_edit_made_through_one_replica_is_read_through_the_others(self):
        token = self.fleet.collaboration_token("editor")
        change = {"operationID": "across-1", "action": "add", "annotation": {
            "kind": "Text", "pageIndex": 0, "contents": "made on replica 0", "rect": {"origin": {"x": 50, "y": 50}, "size": {"width": 20, "height": 20}}}}
        status, _, body = request(self.fleet.ports[0], "POST", layer_path("/changes"), {"changes": [change]}, token=token)
        self.assertEqual(status, 200, body)
        self.assertEqual(json.loads(body)["results"][0]["status"], "applied")
        for index in (1, 2):
            self.assertIn("made on replica 0", self.stored(index))

    def test_3_a_readers_place_and_bookmarks_are_found_on_every_replica(self):
        ports = self.fleet.ports
        base = "/api/documents/%s" % urllib.parse.quote(DOCUMENT, safe="")
        ada, bo = {"Reader-ID": "fleet-reader-ada-0123456789"}, {"Reader-ID": "fleet-reader-bo-0123456789"}
        place = {"pageIndex": 0, "zoom": 1.75, "scrollOffset": {"x": 0, "y": 120.5}}
        status, _, body = request(ports[0], "PUT", base + "/state", place, headers=ada)
        self.assertEqual(status, 200, body)
        status, _, body = request(ports[2], "GET", base + "/state", headers=ada)
        self.assertEqual((status, json.loads(body)["zoom"], json.loads(body)["scrollOffset"]["y"]), (200, 1.75, 120.5))
        self.assertEqual(json.loads(request(ports[1], "GET", base + "/state", headers=bo)[2])["zoom"], 1)
        status, _, body = request(ports[1], "POST", base + "/bookmarks", {"pageIndex": 0, "title": "on replica 1"}, headers=ada)
        self.assertEqual(status, 201, body)
        bookmark = json.loads(body)["id"]
        self.assertEqual([held["title"] for held in json.loads(request(ports[0], "GET", base + "/bookmarks", headers=ada)[2])], ["on replica 1"])
        self.assertEqual(json.loads(request(ports[0], "GET", base + "/bookmarks", headers=bo)[2]), [])
        self.assertEqual(request(ports[2], "DELETE", base + "/bookmarks/" + bookmark, headers=bo)[0], 404)
        self.assertEqual(request(ports[2], "DELETE", base + "/bookmarks/" + bookmark, headers=ada)[0], 204)
        self.assertEqual(json.loads(request(ports[1], "GET", base + "/bookmarks", headers=ada)[2]), [])
        # Kept in the database, they outlive every replica: all three restarted, the place holds.
        for index in range(REPLICAS):
            self.assertEqual(self.fleet.stop(index), 0)
            self.fleet.start(index)
        self.assertEqual(json.loads(request(ports[1], "GET", base + "/state", headers=ada)[2])["zoom"], 1.75)

    def test_6_saves_through_every_replica_keep_every_acknowledged_edit(self):
        # Writers through each replica at once add annotations to the one file they share:
        # each edit answered 201 is in the file afterwards (read by mutool, not by a replica),
        # once; an edit refused is refused with an answer a client retries.
        base = "/api/documents/%s/annotations" % urllib.parse.quote(DOCUMENT, safe="")
        acknowledged, failures, lock = [], [], threading.Lock()

        def write(index):
            for number in range(8):
                contents = "saved-%d-%d" % (index, number)
                annotation = {"kind": "Square", "pageIndex": 0, "contents": contents,
                              "rect": {"origin": {"x": 40 + 20 * number, "y": 300 + 30 * index}, "size": {"width": 15, "height": 15}}}
                for _ in range(100):
                    status, _, body = request(self.fleet.ports[index % REPLICAS], "POST", base, annotation)
                    if status not in RETRIED:
                        break
                    time.sleep(0.05)
                with lock:
                    (acknowledged if status == 201 else failures).append(contents if status == 201 else (status, body[:300]))
        writers = [threading.Thread(target=write, args=(index,)) for index in range(6)]
        for writer in writers:
            writer.start()
        for writer in writers:
            writer.join()
        self.assertEqual(failures, [])
        self.assertEqual(len(acknowledged), 48)
        shown = subprocess.run(["mutool", "show", os.path.join(self.fleet.docs, "text.pdf"), "grep"], capture_output=True, text=True, check=True).stdout
        for contents in acknowledged:
            self.assertEqual(shown.count("(%s)" % contents), 1, contents)

    def test_7_a_page_drawn_by_one_replica_is_served_by_the_others(self):
        # Through the memcached they share: replica 0 draws the page, 1 and 2 find it there
        # (their engines do no work for it) and answer the same bytes.
        path = "/api/documents/%s/pages/0/image?dpi=33.5" % urllib.parse.quote(DOCUMENT, safe="")
        before = [self.metric(index, "hostapp_engine_work_seconds_count") for index in range(REPLICAS)]
        shared_before = [self.metric(index, "hostapp_shared_page_cache_hits_total") for index in range(REPLICAS)]
        answers = [request(port, "GET", path) for port in self.fleet.ports]
        self.assertEqual([status for status, _, _ in answers], [200] * REPLICAS)
        self.assertTrue(answers[0][2].startswith(b"\x89PNG"))
        self.assertEqual({body for _, _, body in answers}, {answers[0][2]})
        work = [self.metric(index, "hostapp_engine_work_seconds_count") - before[index] for index in range(REPLICAS)]
        self.assertGreater(work[0], 0)
        self.assertEqual(work[1:], [0, 0])
        shared = [self.metric(index, "hostapp_shared_page_cache_hits_total") - shared_before[index] for index in range(REPLICAS)]
        self.assertEqual(shared, [0, 1, 1])

    def metric(self, index, name):
        """The sum of metric `name`'s series on replica `index`."""
        status, _, body = request(self.fleet.ports[index], "GET", "/api/metrics")
        self.assertEqual(status, 200)
        return sum(float(line.rsplit(" ", 1)[1]) for line in body.decode().splitlines()
                   if line.startswith(name + " ") or line.startswith(name + "{"))

    def test_8_a_strangers_attempts_fail_through_the_balancer_as_on_one_server(self):
        through = self.fleet.through_balancer
        documents = "/api/documents/%s" % urllib.parse.quote(DOCUMENT, safe="")
        # A wrong token, a token in the query, another server's cookie name: 401, as JSON.
        for attempt in (through("GET", "/api/documents", token="x" * 32),
                        through("GET", "/api/documents?token=" + urllib.parse.quote(TOKEN), token=None)):
            self.assertEqual(attempt[0], 401)
            self.assertEqual(json.loads(attempt[2])["code"], "unauthorized")
        # Paths out of the served folder, hidden files, files that are not PDFs: 404, and no
        # path of the server's in the answer.
        for name in ("..%2F..%2Fetc%2Fpasswd", "docs%2F..%2Ftoken", "docs%2F.hidden.pdf", "%2Fetc%2Fhostname"):
            status, _, body = through("GET", "/api/documents/" + name)
            self.assertIn(status, (400, 404), name)
            self.assertNotIn(self.fleet.folder.encode(), body)
        # A body past the limit: 413, before the replica reads it all.
        status, _, body = through("POST", documents + "/annotations", {"contents": "x" * (5 << 20)})
        self.assertEqual(status, 413, body[:200])
        # A collaboration token signed by another key, and none: refused, as JSON.
        forged = subprocess.run([self.fleet.hostapp, "token", "keygen", "--private-key-out", os.path.join(self.folder, "other.pem"),
                                 "--public-key-out", os.path.join(self.folder, "other-public.pem")], check=True)
        other = subprocess.run(
            [self.fleet.hostapp, "token", "issue", "--private-key", os.path.join(self.folder, "other.pem"), "--document", DOCUMENT,
             "--layer", "fleet", "--user", "mallory", "--permission", "read-document", "--permission", "write", "--expires-in", "600"],
            check=True, capture_output=True, text=True).stdout.strip()
        self.assertEqual(forged.returncode, 0)
        status, _, body = through("GET", layer_path("/annotations"), token=other)
        self.assertEqual((status, json.loads(body)["code"]), (401, "unauthorized"))
        with self.assertRaises(websockets.exceptions.InvalidStatus) as refused:
            websockets.sync.client.connect("ws://127.0.0.1:%d%s" % (self.fleet.balancer_port, layer_path("/events")),
                                           additional_headers={"Authorization": "Bearer " + other}, open_timeout=10)
        self.assertEqual(refused.exception.response.status_code, 401)
        # The id a client sends is not the one the logs and the answer name: HAProxy's is.
        status, headers, _ = through("GET", "/api/health", headers={"X-Request-Id": "chosen-by-the-client"})
        self.assertEqual(status, 200)
        self.assertRegex(headers["x-request-id"], r"^[0-9A-F]{8,}$")
        # Uploads that are not documents, or declared past the limit: refused, nothing new kept,
        # no path in the answer.
        kept_before = set(os.listdir(self.fleet.uploads))
        for body in (b"%PDF-1.7\n" + b"\x00" * 5000, b"<html><script>alert(1)</script></html>", b"x" * ((1 << 20) + 1)):
            status, answer = upload(self.fleet.balancer_port, body)
            self.assertIn(status, (413, 415, 422), answer)
            self.assertNotIn(self.fleet.folder, json.dumps(answer))
        self.assertLessEqual(set(os.listdir(self.fleet.uploads)), kept_before)
        # Names a stranger picks reach the database as data, never as SQL.
        token = self.fleet.collaboration_token("mallory-sql")
        for name in ("x'; DROP TABLE renderer_layer; --", "docs/text.pdf\u0000"):
            path = "/api/collab/documents/%s/layers/fleet/annotations" % urllib.parse.quote(name, safe="")
            status, _, body = through("GET", path, token=token)
            self.assertIn(status, (400, 401, 403, 404), body[:200])
            for leak in (b"PSQL", b"SQLSTATE", b"syntax error", b"postgres", b"SELECT "):
                self.assertNotIn(leak, body)
        self.assertEqual(self.fleet.postgres.query("SELECT count(*) FROM pg_tables WHERE tablename = 'renderer_layer'"), "1")
        # And the replicas still answer their owner.
        self.assertEqual(through("GET", documents + "/pages/0/image?dpi=20")[0], 200)

    def test_9_saves_take_turns_through_the_database(self):
        postgres = self.fleet.postgres
        path = os.path.join(self.fleet.docs, "text.pdf")
        base = "/api/documents/%s/annotations" % urllib.parse.quote(DOCUMENT, safe="")
        square = {"kind": "Square", "pageIndex": 0, "rect": {"origin": {"x": 60, "y": 60}, "size": {"width": 15, "height": 15}}}
        # The lock a save takes, held by the test: an edit through replica 1 waits for it, and
        # is saved once it is let go.
        holder = subprocess.Popen(postgres.psql("-o", "/dev/null"), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        holder.stdin.write("BEGIN;\nSELECT pg_advisory_xact_lock(%d, hashtext('%s'));\n\\echo locked\n" % (0x53617665, DOCUMENT))
        holder.stdin.flush()
        self.assertEqual(holder.stdout.readline().strip(), "locked")
        answers = []
        editor = threading.Thread(target=lambda: answers.append(request(self.fleet.ports[1], "POST", base, {**square, "contents": "after-the-lock"})))
        editor.start()
        self.fleet.wait_until(lambda: postgres.query("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted") == "1",
                              "the replica waiting for the save's lock")
        self.assertEqual(answers, [])
        holder.stdin.write("COMMIT;\n\\q\n")
        holder.stdin.close()
        self.assertEqual(holder.wait(timeout=60), 0)
        holder.stdout.close()
        editor.join(timeout=60)
        self.assertEqual(answers[0][0], 201, answers[0][2])
        # The version the save left is recorded, as the file's own (size, modified, inode).
        status = os.stat(path)
        version = "%d-%d.%d-%d" % (status.st_size, status.st_mtime_ns // 10**9, status.st_mtime_ns % 10**9, status.st_ino)
        self.assertEqual(postgres.query("SELECT version FROM renderer_document_save WHERE document = '%s'" % DOCUMENT), version)
        # A save recorded that this machine does not see yet (modified after what it shows):
        # refused with 409, the file untouched.
        with open(path, "rb") as f:
            before = f.read()
        postgres.query("UPDATE renderer_document_save SET version = '1-%d.0-1' WHERE document = '%s'" % (time.time() + 3600, DOCUMENT))
        status, _, body = request(self.fleet.ports[2], "POST", base, {**square, "contents": "over-an-unseen-save"})
        self.assertEqual((status, json.loads(body)["code"]), (409, "conflict"), body)
        self.assertNotIn(self.fleet.folder.encode(), body)
        with open(path, "rb") as f:
            self.assertEqual(f.read(), before)
        # A file changed since the last recorded save (by someone outside the servers) is taken.
        postgres.query("UPDATE renderer_document_save SET version = '1-1.0-1' WHERE document = '%s'" % DOCUMENT)
        self.assertEqual(request(self.fleet.ports[0], "POST", base, {**square, "contents": "after-an-outside-change"})[0], 201)
        shown = subprocess.run(["mutool", "show", path, "grep"], capture_output=True, text=True, check=True).stdout
        self.assertEqual([shown.count("(%s)" % text) for text in ("after-the-lock", "over-an-unseen-save", "after-an-outside-change")], [1, 0, 1])
        # A file saved through one replica and then removed: the next edit finds no document.
        gone = os.path.join(self.fleet.docs, "gone.pdf")
        shutil.copy(path, gone)
        gone_base = "/api/documents/%s/annotations" % urllib.parse.quote("docs/gone.pdf", safe="")
        self.assertEqual(request(self.fleet.ports[0], "POST", gone_base, {**square, "contents": "before-it-went"})[0], 201)
        os.remove(gone)
        status, _, body = request(self.fleet.ports[1], "POST", gone_base, {**square, "contents": "after-it-went"})
        self.assertEqual(status, 404, body)
        self.assertNotIn(self.fleet.folder.encode(), body)

    def test_10_rate_limits_count_every_replicas_attempts(self):
        unlock = "/api/documents/%s/unlock" % urllib.parse.quote("docs/encrypted.pdf", safe="")
        # Nine guesses at once through the three replicas: five are tried, four refused.
        answers = at_once(9, lambda attempt: request(self.fleet.ports[attempt % REPLICAS], "POST", unlock, {"password": "guess-%d" % attempt}))
        codes = sorted(json.loads(body)["code"] for _, _, body in answers)
        self.assertEqual(codes, ["rate-limited"] * 4 + ["wrong-password"] * 5)
        for status, headers, _ in answers:
            if status == 429:
                self.assertGreaterEqual(int(headers["retry-after"]), 1)
        # The right password, now: refused too.
        self.assertEqual(request(self.fleet.ports[1], "POST", unlock, {"password": "user-secret"})[0], 429)
        # Collaboration's requests are counted there too, per user.
        token = self.fleet.collaboration_token("counted-user")
        for index in range(REPLICAS):
            self.assertEqual(request(self.fleet.ports[index], "GET", layer_path("/annotations"), token=token)[0], 200)
        self.assertEqual(self.fleet.postgres.query(
            "SELECT count(*) FROM renderer_attempt WHERE limiter = 'collaboration' AND client = 'counted-user' AND tokens <= 49"), "1")

    def test_11_a_token_revoked_in_the_database_is_refused_by_every_replica(self):
        token = self.fleet.collaboration_token("revoked-user", token_id="fleet-revoked-1")
        kept = self.fleet.collaboration_token("kept-user", token_id="fleet-kept-1")
        for port in self.fleet.ports:
            self.assertEqual(request(port, "GET", layer_path("/annotations"), token=token)[0], 200)
        revoke = [self.fleet.hostapp, "token", "revoke", "--database", self.fleet.database]
        self.assertEqual(subprocess.run(revoke + ["fleet-revoked-1"], capture_output=True).returncode, 0)

        def refused(port):
            status, _, body = request(port, "GET", layer_path("/annotations"), token=token)
            return status == 401 and "revoked" in json.loads(body)["error"]["message"]
        for port in self.fleet.ports:
            self.fleet.wait_until(lambda: refused(port), "the revoked token refused on port %d" % port)
            self.assertEqual(request(port, "GET", layer_path("/annotations"), token=kept)[0], 200)
        # A replica started later reads the revocations before it says it is ready.
        self.assertEqual(self.fleet.stop(2), 0)
        self.fleet.start(2)
        self.fleet.wait_until(lambda: self.fleet.ready(2), "replica 2 ready again")
        self.assertTrue(refused(self.fleet.ports[2]))
        # A database that does not answer: a clear failure that shows no password.
        failed = subprocess.run([self.fleet.hostapp, "token", "revoke", "--database", "postgres://hostapp:sesame@127.0.0.1:1/hostapp", "x"],
                                capture_output=True, text=True, timeout=120)
        self.assertNotEqual(failed.returncode, 0)
        self.assertIn("the database at", failed.stderr)
        self.assertNotIn("sesame", failed.stderr)
        for words in (["--database", "/tmp/layers.sqlite", "x"], ["--database", self.fleet.database], ["--database", self.fleet.database, "a\nb"]):
            self.assertEqual(subprocess.run([self.fleet.hostapp, "token", "revoke", *words], capture_output=True).returncode, 64, words)

    def test_12_uploads_are_read_everywhere_and_their_space_is_counted_for_all(self):
        def readable(upload_id):
            return [request(port, "GET", "/api/documents/" + urllib.parse.quote(upload_id, safe=""))[0] for port in self.fleet.ports]
        ids = []
        for index in range(3):
            status, answer = upload(self.fleet.ports[index], padded_pdf(300_000, index))
            self.assertEqual(status, 201, answer)
            ids.append(answer["id"])
        for upload_id in ids:
            self.assertEqual(readable(upload_id), [200] * REPLICAS, upload_id)
        # A fourth through replica 1 passes the 1 MiB of all: the oldest (replica 0's) goes.
        status, answer = upload(self.fleet.ports[1], padded_pdf(300_000, 3))
        self.assertEqual(status, 201, answer)
        self.assertEqual(readable(ids[0]), [404] * REPLICAS)
        for upload_id in ids[1:] + [answer["id"]]:
            self.assertEqual(readable(upload_id), [200] * REPLICAS, upload_id)
        # Eight at once through the three: each acknowledged one is kept whole until a later one
        # removes it, and the folder never holds more than its space.
        answers = at_once(8, lambda number: upload(self.fleet.ports[number % REPLICAS], padded_pdf(200_000, 10 + number)))
        self.assertEqual({status for status, _ in answers} - {201, 503}, set(), answers)
        self.assertGreater(sum(1 for status, _ in answers if status == 201), 0)
        kept = [name for name in os.listdir(self.fleet.uploads) if name.endswith(".pdf")]
        self.assertLessEqual(sum(os.path.getsize(os.path.join(self.fleet.uploads, name)) for name in kept), 1 << 20)
        self.assertEqual(sorted(self.fleet.postgres.query("SELECT name FROM renderer_upload WHERE kept").split()), sorted(kept))

    def run_under_load(self, disrupt):
        load = Load(self.fleet)
        try:
            self.fleet.wait_until(lambda: all(count > 0 for count in load.connections.values()), "every collaborator connected")
            self.fleet.wait_until(lambda: len(load.acknowledged) >= 5, "the first edits")
            disrupt()
            # Every collaborator is back: each hears a change made now.
            marker = "after-%s" % time.time()
            token = self.fleet.collaboration_token("marker")
            change = {"operationID": marker, "action": "add", "annotation": {
                "kind": "Text", "pageIndex": 0, "contents": marker, "rect": {"origin": {"x": 90, "y": 90}, "size": {"width": 20, "height": 20}}}}
            self.fleet.wait_until(lambda: all(self.fleet.ready(index) for index in range(REPLICAS)), "every replica ready")
            acknowledged_marker = False
            for _ in range(100):
                status, _, body = self.fleet.through_balancer("POST", layer_path("/changes"), {"changes": [change]}, token)
                if status == 200:
                    acknowledged_marker = True
                    break
                time.sleep(0.05)
            self.assertTrue(acknowledged_marker)
            self.fleet.wait_until(lambda: len(load.heard(marker)) == COLLABORATORS, "every collaborator hearing the change made after")
            done_before = len(load.acknowledged)
            self.fleet.wait_until(lambda: len(load.acknowledged) > done_before, "writers going on")
        finally:
            load.finish()
        if os.environ.get("FLEET_SHOW"):
            print(load.read_statuses, len(load.acknowledged), load.connections, file=sys.stderr)
        self.assertEqual(load.failed_reads, [])
        self.assertEqual(load.write_failures, [])
        self.assertEqual(load.socket_errors, [])
        self.assertGreater(load.read_statuses.get(200, 0), 20, load.read_statuses)
        # Every acknowledged edit is stored once, whichever replica reads it.
        stored = self.stored(0)
        for operation in load.acknowledged:
            self.assertEqual(stored.count(operation), 1, operation)
        self.assertEqual(sorted(self.stored(2)), sorted(stored))
        return load

    def test_4_a_rolling_restart_loses_nothing(self):
        def restart_each():
            for index in range(REPLICAS):
                self.assertEqual(self.fleet.stop(index), 0)
                self.fleet.start(index)
                self.fleet.wait_until(lambda: self.fleet.ready(index), "replica %d ready again" % index)
        load = self.run_under_load(restart_each)
        # Every replica was restarted, so every collaborator connected again at least once.
        self.assertTrue(all(count >= 2 for count in load.connections.values()), load.connections)

    def test_5_a_replica_killed_loses_nothing_acknowledged(self):
        def kill_one():
            self.assertEqual(self.fleet.stop(1, signal.SIGKILL), -signal.SIGKILL)
            time.sleep(1)
            self.fleet.start(1)
            self.fleet.wait_until(lambda: self.fleet.ready(1), "replica 1 ready again")
        load = self.run_under_load(kill_one)
        # The collaborators on the replica killed connected again.
        self.assertTrue(any(count >= 2 for count in load.connections.values()), load.connections)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    HOSTAPP = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
