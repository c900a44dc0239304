"""Three (or any number of) `hostapp serve` replicas on a throwaway PostgreSQL, sharing one
documents folder and a throwaway memcached for rendered pages, behind Debian's HAProxy, each
on a free loopback port in a folder given:
what the fleet tests (Tests/Fleet) and the fleet benchmark (Benchmarks/fleet_load.py) run."""

import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.parse

from postgres_server import PostgresServer

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures")
TOKEN = "fleet-test-token-0123456789abcdef"
# The document's id: the folder served and its name in it.
DOCUMENT = "docs/text.pdf"
LAYER = "fleet"
# Answers a client retries (a replica draining or full, the balancer finding none for a
# moment); any other answer but 200 is a failure.
RETRIED = {429, 502, 503, 504}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def request(port, method, path, body=None, token=TOKEN, timeout=30, headers=None):
    """(status, headers by lowercase name, body bytes) of one request on a connection of its own; raises
    OSError and http.client's errors when the connection fails."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {**({"Authorization": "Bearer " + token} if token else {}), **(headers or {})}
        if body is not None:
            headers["Content-Type"] = "application/json"
        connection.request(method, path, body=json.dumps(body).encode() if body is not None else None, headers=headers)
        answer = connection.getresponse()
        return answer.status, {name.lower(): value for name, value in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def upload(port, body):
    """(status, JSON answer) of POST /api/uploads with `body` as it is."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("POST", "/api/uploads", body=body, headers={"Authorization": "Bearer " + TOKEN, "Content-Type": "application/pdf"})
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read() or b"{}")
    finally:
        connection.close()


def padded_pdf(padding, seed):
    """A one-page PDF carrying `padding` bytes of pseudo-random data (seeded) in a stream no
    page uses: a document of a chosen size."""
    import random
    data = random.Random(seed).randbytes(padding)
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
               b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"]
    out, offsets = bytearray(b"%PDF-1.7\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1) + b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def layer_path(suffix):
    return "/api/collab/documents/%s/layers/%s%s" % (urllib.parse.quote(DOCUMENT, safe=""), urllib.parse.quote(LAYER, safe=""), suffix)


class Fleet:
    """PostgreSQL, the replicas and HAProxy, each in the folder given, on free loopback ports."""

    def __init__(self, hostapp, folder, replicas, documents=()):
        """Starts PostgreSQL, `replicas` replicas serving `docs/text.pdf` and copies of
        `documents` (paths) beside it, and HAProxy."""
        self.hostapp = hostapp
        self.folder = folder
        self.docs = os.path.join(folder, "docs")
        os.makedirs(self.docs)
        for document in (os.path.join(FIXTURES, "text.pdf"), *documents):
            shutil.copy(document, self.docs)
        # Uploads go to a folder every replica mounts, with 1 MiB for all of them together.
        self.uploads = os.path.join(folder, "uploads")
        os.makedirs(self.uploads)
        self.token_file = os.path.join(folder, "token")
        with open(self.token_file, "w") as f:
            f.write(TOKEN + "\n")
        self.private, self.public = os.path.join(folder, "private.pem"), os.path.join(folder, "public.pem")
        subprocess.run([self.hostapp, "token", "keygen", "--private-key-out", self.private, "--public-key-out", self.public], check=True)
        self.postgres = PostgresServer()
        self.database = self.postgres.url
        self.memcached_port, self.memcached = self.start_memcached()
        self.ports = [free_port() for _ in range(replicas)]
        self.replicas = [None] * replicas
        for index in range(replicas):
            self.start(index)
        self.balancer_port = free_port()
        self.balancer = self.start_balancer()

    def collaboration_token(self, user, token_id=None):
        return subprocess.run(
            [self.hostapp, "token", "issue", "--private-key", self.private, "--document", DOCUMENT, "--layer", LAYER, "--user", user,
             "--permission", "read-document", "--permission", "write", "--expires-in", "3600", *(["--id", token_id] if token_id else [])],
            check=True, capture_output=True, text=True).stdout.strip()

    def start(self, index):
        """Starts replica `index` on its port; returns once it says it listens."""
        log = open(os.path.join(self.folder, "replica-%d.log" % index), "a")
        process = subprocess.Popen(
            [self.hostapp, "serve", self.docs, "--port", str(self.ports[index]), "--token-file", self.token_file, "--collab-key", self.public,
             "--database", self.database, "--reader-state", ":memory:", "--shutdown-grace", "20",
             "--shared-cache", "127.0.0.1:%d" % self.memcached_port,
             "--uploads", "--upload-folder", self.uploads, "--upload-limit-mib", "1", "--upload-space-mib", "1"],
            stdout=subprocess.PIPE, stderr=log, text=True)
        log.close()
        first = process.stdout.readline()
        if "127.0.0.1:%d" % self.ports[index] not in first:
            process.kill()
            raise RuntimeError("replica %d did not start: %r (see %s)" % (index, first, self.folder))
        self.replicas[index] = process

    def stop(self, index, how=signal.SIGTERM):
        """Stops replica `index` with `how`; returns its exit status."""
        process = self.replicas[index]
        process.send_signal(how)
        status = process.wait(timeout=60)
        process.stdout.close()
        return status

    def start_memcached(self):
        """Debian's memcached on a free loopback port, with 64 MiB (as an unprivileged user
        when the tests run as root); returns its port and process."""
        user = ["-u", "nobody"] if os.getuid() == 0 else []
        for _ in range(5):
            port = free_port()
            process = subprocess.Popen(["memcached", "-l", "127.0.0.1", "-p", str(port), "-U", "0", "-m", "64", *user],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.time() + 30
            while time.time() < deadline and process.poll() is None:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        return port, process
                except OSError:
                    time.sleep(0.05)
            process.kill()
            process.wait()
        raise RuntimeError("memcached did not start (make setup installs Debian's memcached)")

    def start_balancer(self):
        """HAProxy: round robin over the replicas, each checked every 100 ms on /api/ready with
        the token, down at the first failed check and up at the first good one; a request a
        replica refused with 503 (draining), or whose connection failed, is sent again to
        another (collaboration changes carry their operation id, so a change sent twice is
        applied once). Each request is named by HAProxy's own id in `X-Request-Id`, in place
        of any the client sent."""
        servers = "\n".join("    server replica%d 127.0.0.1:%d check" % (index, port) for index, port in enumerate(self.ports))
        configuration = os.path.join(self.folder, "haproxy.cfg")
        with open(configuration, "w") as f:
            f.write("""global
    maxconn 2000
defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    retries 3
    option redispatch 1
    retry-on conn-failure empty-response 503
frontend fleet
    bind 127.0.0.1:%d
    unique-id-format %%{+X}o%%ci%%cp%%Ts%%rt
    http-request set-header X-Request-Id %%[unique-id]
    default_backend replicas
backend replicas
    balance roundrobin
    option httpchk
    http-check send meth GET uri /api/ready hdr Authorization "Bearer %s"
    http-check expect status 200
    default-server inter 100ms fall 1 rise 1
%s
""" % (self.balancer_port, TOKEN, servers))
        checked = subprocess.run(["haproxy", "-c", "-q", "-f", configuration], capture_output=True, text=True)
        if checked.returncode != 0:
            raise RuntimeError("HAProxy refuses its configuration: " + checked.stdout + checked.stderr)
        log = open(os.path.join(self.folder, "haproxy.log"), "w")
        balancer = subprocess.Popen(["haproxy", "-db", "-f", configuration], stdout=log, stderr=subprocess.STDOUT)
        log.close()
        self.wait_until(lambda: self.through_balancer("GET", "/api/health")[0] == 200, "HAProxy answering")
        return balancer

    def through_balancer(self, method, path, body=None, token=TOKEN, headers=None):
        """(status, headers, body) of a request through HAProxy; (None, {}, what failed) when
        the connection failed."""
        try:
            return request(self.balancer_port, method, path, body, token, headers=headers)
        except (OSError, http.client.HTTPException) as error:
            return None, {}, str(error).encode()

    def wait_until(self, condition, what, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if condition():
                return
            time.sleep(0.05)
        raise AssertionError("timed out waiting for " + what)

    def ready(self, index):
        try:
            return request(self.ports[index], "GET", "/api/ready", timeout=5)[0] == 200
        except (OSError, http.client.HTTPException):
            return False

    def close(self):
        if self.balancer.poll() is None:
            self.balancer.terminate()
            self.balancer.wait(timeout=30)
        for process in self.replicas:
            if process and process.poll() is None:
                process.kill()
                process.wait()
                process.stdout.close()
        self.postgres.remove()
        self.memcached.terminate()
        self.memcached.wait(timeout=30)
