#!/usr/bin/env python3
"""A time-stamping authority (RFC 3161 over HTTP) on a free loopback port, for the timestamp
tests: each POSTed request (application/timestamp-query) is answered by OpenSSL's `ts -reply`
with tsa.pem and tsa.key from the folder make-identities.py filled, SHA-256, policy 1.2.3.4.1,
the TSA's certificate included when asked. Prints "listening PORT" once it listens; runs until
it is terminated. Anything but a POST to / is answered 404.

With --signer P12 (an identity of that folder, such as signer.p12, whose certificate lacks the
extended key usage timeStamping), the tokens are signed by that identity instead, by the
careless authority of careless_authority.py: OpenSSL refuses to stamp with such a certificate,
and the tests need tokens a careless authority would make.

Usage: tsa-server.py FOLDER [--signer P12]
"""
import argparse
import http.server
import os
import signal
import socketserver
import subprocess
import tempfile

# A parent that ignores or blocks SIGTERM (a test process) passes that on; stopping is SIGTERM's.
signal.signal(signal.SIGTERM, signal.SIG_DFL)
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
arguments = argparse.ArgumentParser()
arguments.add_argument("folder")
arguments.add_argument("--signer")
options = arguments.parse_args()
folder = os.path.abspath(options.folder)
config = os.path.join(folder, "tsa.cnf")
with open(os.path.join(folder, "tsa-serial"), "w") as serial:
    serial.write("01\n")
with open(config, "w") as out:
    out.write(f"""[ tsa ]
default_tsa = tsa_config
[ tsa_config ]
serial = {folder}/tsa-serial
signer_cert = {folder}/tsa.pem
certs = {folder}/ca.pem
signer_key = {folder}/tsa.key
signer_digest = sha256
default_policy = 1.2.3.4.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
""")


# The careless authority's imports (pyHanko) cost a start without --signer nothing.
careless = None
if options.signer:
    from asn1crypto.tsp import TimeStampReq
    from careless_authority import careless_stamper
    careless = careless_stamper(folder, options.signer)


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        if self.path != "/":
            return self.send_error(404)
        query = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if careless:
            return self.answer(careless.request_tsa_response(TimeStampReq.load(query)).dump())
        with tempfile.TemporaryDirectory(dir=folder) as work:
            query_file, reply_file = os.path.join(work, "query.tsq"), os.path.join(work, "reply.tsr")
            with open(query_file, "wb") as f:
                f.write(query)
            made = subprocess.run(["openssl", "ts", "-reply", "-config", config, "-queryfile", query_file, "-out", reply_file],
                                  capture_output=True)
            if made.returncode != 0:
                return self.send_error(400)
            reply = open(reply_file, "rb").read()
        self.answer(reply)

    def answer(self, reply):
        self.send_response(200)
        self.send_header("Content-Type", "application/timestamp-reply")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *arguments):
        pass


class Server(http.server.ThreadingHTTPServer):
    def server_bind(self):
        # HTTPServer's own asks the resolver for the host's name, which can take seconds.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]


server = Server(("127.0.0.1", 0), Handler)
print("listening %d" % server.server_address[1], flush=True)
server.serve_forever()
