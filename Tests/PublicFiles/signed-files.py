#!/usr/bin/env python3
"""Signed files from public test suites, read by this project's verifier on both engines and by
the witnesses, `pdfsig` and pyHanko. The files are not committed (the project commits no
third-party PDF): they are downloaded at pinned commits and checked against their SHA-256, or
read from a folder that holds them (--from DIR, for a machine without network). Not part of
`make test`, which runs offline; run it by hand or where the network is allowed.

Each file's expected verdicts, and why:
- qpdf's digitally-signed.pdf: one adbe.pkcs7.detached signature by a self-signed certificate
  ("John Doe", valid in 2019, expired now). Intact; valid with the signer's own certificate as
  the anchor (checked at the signing time); pyHanko agrees (intact, valid, trusted); pdfsig
  calls the signature valid and the certificate expired (it checks the time now).
- qpdf's minimal-signed-restricted.pdf: an encrypted file (an owner password restricts it)
  signed by Adobe Acrobat Sign. Intact and valid with the certificates it carries as anchors;
  pdfsig calls the signature valid; pyHanko cannot read it without the password.
- pdfium's two_signatures.pdf: two signatures whose byte ranges and CMS values are made up.
  Both invalid (malformedRanges); pdfsig cannot validate either; pyHanko cannot parse them.

Usage: signed-files.py HOSTAPP [--from DIR]
Exits 0 when every verdict is as expected, 1 otherwise (printing what differs).
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = {
    "digitally-signed.pdf": ("https://raw.githubusercontent.com/qpdf/qpdf/dfd251125cadb59fe04836f9197c3ef94f99cf55/qpdf/qtest/qpdf/digitally-signed.pdf",
                             None),
    "minimal-signed-restricted.pdf": ("https://raw.githubusercontent.com/qpdf/qpdf/dfd251125cadb59fe04836f9197c3ef94f99cf55/qpdf/qtest/qpdf/minimal-signed-restricted.pdf",
                                      None),
    "two_signatures.pdf": ("https://raw.githubusercontent.com/chromium/pdfium/a84323421e94f484faca52dd9d027934eba42ab8/testing/resources/two_signatures.pdf",
                           None),
}
with open(os.path.join(HERE, "signed-files.sha256")) as sums:
    for line in sums:
        digest, name = line.split()
        FILES[name] = (FILES[name][0], digest)


def fetch(name, folder, source):
    """The file's path: from `source` when given, else downloaded into `folder`; its digest checked."""
    url, digest = FILES[name]
    path = os.path.join(source, name) if source else os.path.join(folder, name)
    if not source:
        with urllib.request.urlopen(url, timeout=60) as answer, open(path, "wb") as out:
            out.write(answer.read())
    actual = hashlib.sha256(open(path, "rb").read()).hexdigest()
    if actual != digest:
        sys.exit(f"{name}: SHA-256 {actual}, not the pinned {digest}")
    return path


def signer_certificates(path, folder):
    """The certificates the file's first signature carries, as a PEM file (openssl's reading)."""
    data = open(path, "rb").read()
    first, length, second, _ = map(int, re.search(rb"/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]", data).groups())
    der = bytes.fromhex(data[first + length + 1:second - 1].decode()).rstrip(b"\0")
    cms, pem = os.path.join(folder, "signature.p7"), os.path.join(folder, os.path.basename(path) + ".pem")
    open(cms, "wb").write(der)
    subprocess.run(["openssl", "pkcs7", "-inform", "DER", "-in", cms, "-print_certs", "-out", pem], check=True, capture_output=True)
    return pem


def ours(hostapp, backend, path, anchors):
    """This project's verdicts: (field, verdict, codes) for each signature."""
    trust = ["--trust", anchors] if anchors else []
    run = subprocess.run([hostapp, "--renderer", backend, "signatures", "--verify", "--json", *trust, path], capture_output=True, text=True)
    return [(v["field"], v["verdict"], [r["code"] for r in v["reasons"]]) for v in json.loads(run.stdout)]


def pdfsig(path):
    """pdfsig's "Signature Validation" line for each signature."""
    run = subprocess.run(["pdfsig", path], capture_output=True, text=True)
    return re.findall(r"Signature Validation: (.*)", run.stdout)


def pyhanko(path, anchors):
    """pyHanko's verdicts (intact, valid, trusted), or the first words of its refusal."""
    roots = [anchors] if anchors else []
    run = subprocess.run(["python3", os.path.join(HERE, "..", "Fixtures", "Signing", "validate-with-pyhanko.py"), path, *roots], capture_output=True, text=True)
    if run.returncode != 0:
        return "refused"
    return [(v["intact"], v["valid"], v["trusted"]) for v in json.loads(run.stdout)]


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("hostapp")
    arguments.add_argument("--from", dest="source")
    options = arguments.parse_args()
    differences = []

    def expect(what, actual, wanted):
        print(f"{what}: {actual}")
        if actual != wanted:
            differences.append(f"{what}: {actual}, expected {wanted}")

    with tempfile.TemporaryDirectory() as folder:
        qpdf = fetch("digitally-signed.pdf", folder, options.source)
        restricted = fetch("minimal-signed-restricted.pdf", folder, options.source)
        pdfium = fetch("two_signatures.pdf", folder, options.source)
        for backend in ("mupdf", "poppler"):
            for path in (qpdf, restricted):
                anchors = signer_certificates(path, folder)
                name = os.path.basename(path)
                expect(f"{backend} {name}, no anchor", ours(options.hostapp, backend, path, None)[0][1:], ("unknown", ["intact", "noTrustAnchor", "coversWholeFile"]))
                expect(f"{backend} {name}, its certificates as anchors", ours(options.hostapp, backend, path, anchors)[0][1:], ("valid", ["intact", "trusted", "coversWholeFile"]))
            expect(f"{backend} two_signatures.pdf", [v[1:] for v in ours(options.hostapp, backend, pdfium, None)], [("invalid", ["malformedRanges"])] * 2)
        expect("pdfsig digitally-signed.pdf", pdfsig(qpdf), ["Signature is Valid."])
        expect("pdfsig minimal-signed-restricted.pdf", pdfsig(restricted), ["Signature is Valid."])
        expect("pdfsig two_signatures.pdf", pdfsig(pdfium), ["Unknown Validation Failure."] * 2)
        expect("pyHanko digitally-signed.pdf", pyhanko(qpdf, signer_certificates(qpdf, folder)), [(True, True, True)])
        expect("pyHanko minimal-signed-restricted.pdf", pyhanko(restricted, None), "refused")
        expect("pyHanko two_signatures.pdf", pyhanko(pdfium, None), "refused")
    for difference in differences:
        print("DIFFERS " + difference, file=sys.stderr)
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
