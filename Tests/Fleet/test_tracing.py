"""Traces of `hostapp serve --otlp-traces URL`, received by a collector the test runs: an
OTLP/HTTP endpoint on a free loopback port whose requests are read with the OpenTelemetry
project's own protobuf definitions (opentelemetry-proto), not with the server's code.
Each test states what it holds:

- a page image asked with a `traceparent` header is one trace with the caller's: the
  request's span is the child of the caller's span, and the drawing's steps (admission,
  queue, engine, encoding) are children of the request's, one after the other;
- a request without a `traceparent`, or with a malformed one, starts a trace of its own and
  is answered as any other;
- the token never reaches the collector, not even from the viewer's entry address;
- the spans of the last request before SIGTERM are sent before the server exits.

Usage: test_tracing.py HOSTAPP [unittest arguments]
"""

import http.server
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse

from opentelemetry.proto.collector.trace.v1 import trace_service_pb2

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from fleet import FIXTURES, TOKEN, free_port, request  # noqa: E402

HOSTAPP = None  # set from the command line
PAGE = "/api/documents/%s/pages/0/image?dpi=40" % urllib.parse.quote("docs/text.pdf", safe="")


class Collector:
    """An OTLP/HTTP traces endpoint on a free loopback port, keeping every span it is sent,
    and every raw body (to look for secrets in)."""

    def __init__(self):
        self.spans, self.bodies, self.lock = [], [], threading.Lock()
        collector = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                exported = trace_service_pb2.ExportTraceServiceRequest()
                exported.ParseFromString(body)
                with collector.lock:
                    collector.bodies.append(body)
                    for resource in exported.resource_spans:
                        for scope in resource.scope_spans:
                            collector.spans.extend(scope.spans)
                answer = trace_service_pb2.ExportTraceServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *arguments):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def trace(self, trace_id):
        """The spans received of the trace `trace_id` (hex)."""
        with self.lock:
            return [span for span in self.spans if span.trace_id.hex() == trace_id]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class TracingTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="tracing-")
        os.makedirs(os.path.join(cls.folder, "docs"))
        shutil.copy(os.path.join(FIXTURES, "text.pdf"), os.path.join(cls.folder, "docs"))
        with open(os.path.join(cls.folder, "token"), "w") as f:
            f.write(TOKEN + "\n")
        cls.collector = Collector()
        cls.server = cls.start()

    @classmethod
    def start(cls, schedule_delay_ms=100):
        """A server whose spans are sent `schedule_delay_ms` after their end at the latest
        (100 ms, not the default five seconds), or when it stops."""
        cls.port = free_port()
        environment = {**os.environ, "OTEL_BSP_SCHEDULE_DELAY": str(schedule_delay_ms)}
        with open(os.path.join(cls.folder, "server.log"), "a") as log:
            process = subprocess.Popen(
                [HOSTAPP, "serve", os.path.join(cls.folder, "docs"), "--port", str(cls.port), "--token-file", os.path.join(cls.folder, "token"),
                 "--otlp-traces", "http://127.0.0.1:%d/v1/traces" % cls.collector.port],
                stdout=subprocess.PIPE, stderr=log, text=True, env=environment)
        first = process.stdout.readline()
        if "127.0.0.1:%d" % cls.port not in first:
            process.kill()
            raise RuntimeError("the server did not start: %r" % first)
        return process

    @classmethod
    def tearDownClass(cls):
        if cls.server.poll() is None:
            cls.server.kill()
            cls.server.wait()
        cls.server.stdout.close()
        cls.collector.close()
        shutil.rmtree(cls.folder, ignore_errors=True)

    def spans_of(self, trace_id, names):
        """The spans of `trace_id` once every name in `names` is among them (a minute at most)."""
        deadline = time.time() + 60
        while time.time() < deadline:
            spans = self.collector.trace(trace_id)
            if set(names) <= {span.name for span in spans}:
                return spans
            time.sleep(0.05)
        self.fail("the collector did not get the spans %s of trace %s: %s" % (names, trace_id, [s.name for s in self.collector.trace(trace_id)]))

    def test_1_a_page_image_continues_the_callers_trace_through_each_step(self):
        trace_id, parent = secrets.token_hex(16), secrets.token_hex(8)
        status, _, body = request(self.port, "GET", PAGE, headers={"traceparent": "00-%s-%s-01" % (trace_id, parent)})
        self.assertEqual(status, 200)
        self.assertTrue(body.startswith(b"\x89PNG"))
        spans = self.spans_of(trace_id, ["admission", "queue", "engine", "encoding"])
        served = [span for span in spans if span.parent_span_id.hex() == parent]
        self.assertEqual(len(served), 1, [span.name for span in spans])
        request_span = served[0]
        self.assertIn("/pages/{page}/image", request_span.name)
        attributes = {attribute.key: attribute.value for attribute in request_span.attributes}
        self.assertEqual(attributes["http.response.status_code"].int_value, 200)
        steps = {span.name: span for span in spans if span.parent_span_id == request_span.span_id}
        self.assertEqual(set(steps), {"admission", "queue", "engine", "encoding"})
        engine_attributes = {attribute.key: attribute.value.string_value for attribute in steps["engine"].attributes}
        self.assertIn(engine_attributes["renderer"], ("mupdf", "poppler", "ghostscript"))
        # One after the other, within the request's span.
        order = [steps[name] for name in ("admission", "queue", "engine", "encoding")]
        for before, after in zip(order, order[1:]):
            self.assertLessEqual(before.end_time_unix_nano, after.start_time_unix_nano, (before.name, after.name))
        self.assertGreaterEqual(order[0].start_time_unix_nano, request_span.start_time_unix_nano)
        self.assertLessEqual(order[-1].end_time_unix_nano, request_span.end_time_unix_nano)

    def test_2_a_request_without_a_valid_traceparent_starts_its_own_trace(self):
        for headers in ({}, {"traceparent": "00-zz-not-a-trace"}, {"traceparent": "00-" + "0" * 32 + "-" + "0" * 16 + "-01"}):
            before = len(self.collector.spans)
            status, _, _ = request(self.port, "GET", "/api/documents", headers={**headers, "X-Marker": "x"})
            self.assertEqual(status, 200, headers)
            deadline = time.time() + 60
            while len(self.collector.spans) == before and time.time() < deadline:
                time.sleep(0.05)
            with self.collector.lock:
                fresh = [span for span in self.collector.spans[before:] if span.name.endswith("/api/documents")]
            self.assertEqual(len(fresh), 1, headers)
            self.assertEqual(fresh[0].parent_span_id, b"", headers)
            self.assertNotEqual(fresh[0].trace_id, bytes(16), headers)

    def test_3_the_token_never_reaches_the_collector(self):
        trace_id = secrets.token_hex(16)
        marker = {"traceparent": "00-%s-%s-01" % (trace_id, secrets.token_hex(8))}
        request(self.port, "GET", "/?token=" + TOKEN, token=None, headers=marker)
        request(self.port, "GET", "/api/documents", token=TOKEN, headers=marker)
        request(self.port, "GET", "/api/documents", token="wrong-" + TOKEN, headers=marker)
        deadline = time.time() + 60
        while len(self.collector.trace(trace_id)) < 3 and time.time() < deadline:
            time.sleep(0.05)
        spans = self.collector.trace(trace_id)
        self.assertEqual(len(spans), 3)
        queries = [attribute.value.string_value for span in spans for attribute in span.attributes if attribute.key == "url.query"]
        self.assertIn("token=REDACTED", queries)
        with self.collector.lock:
            for body in self.collector.bodies:
                self.assertNotIn(TOKEN.encode(), body)

    def test_4_the_last_spans_are_sent_before_the_server_exits(self):
        # A server that would send its spans ten minutes after their end: those of its last
        # request reach the collector only if the server sends them as it stops.
        self.server.send_signal(signal.SIGTERM)
        self.assertEqual(self.server.wait(timeout=60), 0)
        self.server.stdout.close()
        type(self).server = self.start(schedule_delay_ms=600_000)
        trace_id = secrets.token_hex(16)
        status, _, _ = request(self.port, "GET", PAGE.replace("dpi=40", "dpi=41"),
                               headers={"traceparent": "00-%s-%s-01" % (trace_id, secrets.token_hex(8))})
        self.assertEqual(status, 200)
        self.server.send_signal(signal.SIGTERM)
        self.assertEqual(self.server.wait(timeout=60), 0)
        self.assertEqual({"admission", "queue", "engine", "encoding"} - {span.name for span in self.collector.trace(trace_id)}, set())


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    HOSTAPP = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
