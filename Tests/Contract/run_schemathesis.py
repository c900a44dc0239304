#!/usr/bin/env python3
"""The HTTP API against its written contract: starts `hostapp serve` for real on a free
loopback port (collaboration on, in a SQLite file of a scratch folder), then runs schemathesis
(PyPI) over the OpenAPI document the server serves, twice at once: the server's routes with its
token, and the collaboration routes with a reader's signed token. Each operation gets a bounded
number of generated requests (positive and negative), and every check schemathesis has must
hold: no 5xx, a documented status and content type, the documented schema, a request the
schema allows accepted and one it forbids refused, the token required, and the rest. Exits non-zero when
anything fails; the server is stopped either way.

  run_schemathesis.py HOSTAPP [--examples N]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "Fixtures")
# Every check schemathesis has. A request the schema allows must be accepted, or refused
# for what no schema can say: a body whose bytes are not the format it claims (415), a
# byte range past the file (416), values the document refuses (422: a form field it does
# not have, a stamp picture that is no JPEG or PNG).
CHECKS = "all"
ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "415", "416", "422", "429", "5xx"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("hostapp")
    parser.add_argument("--examples", type=int, default=10)
    arguments = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="schemathesis-")
    server = None
    try:
        docs = os.path.join(folder, "docs")
        os.makedirs(docs)
        for name in ["text.pdf", "annotations.pdf", "forms.pdf"]:
            shutil.copy(os.path.join(FIXTURES, name), docs)
        token = "contract-test-token-0123456789abcdef"
        with open(os.path.join(folder, "token"), "w") as out:
            out.write(token + "\n")
        run = lambda *args: subprocess.run([arguments.hostapp, *args], check=True, capture_output=True, text=True).stdout
        run("token", "keygen", "--private-key-out", os.path.join(folder, "private.pem"), "--public-key-out", os.path.join(folder, "public.pem"))
        reader = run("token", "issue", "--private-key", os.path.join(folder, "private.pem"), "--document", "docs/annotations.pdf",
                     "--layer", "review", "--user", "alice", "--expires-in", "86400",
                     "--permission", "read-document", "--permission", "write", "--permission", "download").strip()
        server = subprocess.Popen(
            [arguments.hostapp, "serve", docs, "--port", "0", "--token-file", os.path.join(folder, "token"), "--reader-state", ":memory:",
             "--uploads", "--upload-folder", os.path.join(folder, "uploads"), "--upload-limit-mib", "1",
             "--collab-key", os.path.join(folder, "public.pem"), "--database", os.path.join(folder, "layers.sqlite")],
            stdout=subprocess.PIPE, stderr=open(os.path.join(folder, "server.log"), "w"), text=True)
        line = server.stdout.readline()
        match = re.search(r"127\.0\.0\.1:(\d+)/", line)
        if not match:
            sys.exit(f"hostapp serve printed no address: {line!r}")
        base = f"http://127.0.0.1:{match.group(1)}"
        request = urllib.request.Request(base + "/api/openapi.json", headers={"Authorization": f"Bearer {token}"})
        schema = os.path.join(folder, "openapi.json")
        with urllib.request.urlopen(request, timeout=60) as answer, open(schema, "wb") as out:
            out.write(answer.read())
        json.load(open(schema))  # it is JSON

        # The two runs go side by side, one per core (each is mostly schemathesis's own
        # generation in Python); each one's output is printed whole when both have ended.
        runs = []
        for what, bearer, parameters, filters in [
            ("the server's routes", token, {"path.id": "docs/text.pdf"}, ["--exclude-path-regex", "^/api/collab/"]),
            ("the collaboration routes", reader, {"path.id": "docs/annotations.pdf", "path.layer": "review"},
             ["--include-path-regex", "^/api/collab/", "--exclude-operation-id", "layerEvents"]),
        ]:
            # The documents the server serves, so that requests reach past the 404 of an unknown id.
            config = os.path.join(folder, f"schemathesis-{len(runs)}.toml")
            with open(config, "w") as out:
                out.write("[parameters]\n" + "".join(f'"{key}" = "{value}"\n' for key, value in parameters.items()))
                out.write("\n[checks.positive_data_acceptance]\nexpected-statuses = " + json.dumps(ACCEPTED) + "\n")
                # A push is a batch in which each change gets its own verdict: a change the
                # schema forbids is answered "rejected" inside a 200, by design, so a 200 is a
                # refusal there too.
                out.write('\n[[operations]]\ninclude-operation-id = "pushChanges"\nchecks.negative_data_rejection.expected-statuses = ["200", "400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "5xx"]\n')
            command = [
                "schemathesis", "--config-file", config, "run", schema, "--url", base, "-H", f"Authorization: Bearer {bearer}",
                "--checks", CHECKS, "--max-examples", str(arguments.examples), "--seed", "20261126",
                "--phases", "examples,coverage,fuzzing", "--workers", "1", "--request-timeout", "120",
                "--generation-database", "none", "--no-color", "--suppress-health-check", "all", *filters,
            ]
            hooks = dict(os.environ, SCHEMATHESIS_HOOKS="schemathesis_hooks",
                         PYTHONPATH=os.path.dirname(os.path.abspath(__file__)) + os.pathsep + os.environ.get("PYTHONPATH", ""))
            output = tempfile.TemporaryFile(mode="w+")
            runs.append((what, output, subprocess.Popen(command, cwd=folder, env=hooks, stdout=output, stderr=subprocess.STDOUT)))
        failed = False
        for what, output, run in runs:
            status = run.wait()
            output.seek(0)
            print(f"== schemathesis: {what}", flush=True)
            print(output.read(), flush=True)
            failed = failed or status != 0
        if server.poll() is not None:
            print("the server ended during the run:", open(os.path.join(folder, "server.log")).read()[-3000:])
            failed = True
        sys.exit(1 if failed else 0)
    finally:
        if server and server.poll() is None:
            server.terminate()
            try:
                server.wait(timeout=60)
            except subprocess.TimeoutExpired:
                server.kill()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
