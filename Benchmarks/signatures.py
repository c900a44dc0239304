#!/usr/bin/env python3
"""Signing and verifying in a new process, against Poppler's `pdfsig` on the same documents
in the same run: `hostapp sign` (PAdES, SHA-256, a new invisible field) against `pdfsig
-add-signature` (the same identity, imported into a throwaway NSS database), and `hostapp
signatures --verify --trust` against `pdfsig` verifying the file hostapp signed. Identities
come from the tests' script (Tests/Fixtures/Signing/make-identities.py).

Run through `make bench-signatures` (this section alone, written into BENCHMARKS.md between
its markers) or `make bench` (all sections). Settings (environment variables):
  BENCH_SIGNATURE_DOCS  the documents, separated by ':' (default: the project's sample and
                        R's reference manual)
  BENCH_SIGNATURE_RUNS  runs per command, in five rounds (default: 20)
  HOSTAPP               the hostapp binary (default: .build/release/hostapp)
"""
import os
import shutil
import subprocess
import sys
import tempfile

from report_section import run
from timing import hyperfine

HOSTAPP = os.path.abspath(os.environ.get("HOSTAPP", ".build/release/hostapp"))
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
DOCS = os.environ.get("BENCH_SIGNATURE_DOCS", os.path.join(ROOT, "Samples", "sample.pdf") + ":/usr/share/R/doc/manual/refman.pdf").split(":")
RUNS = int(os.environ.get("BENCH_SIGNATURE_RUNS", "20"))
BEGIN, END = "<!-- signatures -->", "<!-- /signatures -->"


def identities(folder):
    """The test identities in `folder`, and an NSS database there holding the signer's."""
    subprocess.run(["python3", os.path.join(ROOT, "Tests", "Fixtures", "Signing", "make-identities.py"), folder], check=True)
    nss = os.path.join(folder, "nss")
    os.makedirs(nss)
    subprocess.run(["certutil", "-N", "-d", "sql:" + nss, "--empty-password"], check=True, capture_output=True)
    subprocess.run(["pk12util", "-i", os.path.join(folder, "signer.p12"), "-d", "sql:" + nss, "-W", "correct horse"], check=True, capture_output=True)
    return nss


def measure():
    work = tempfile.mkdtemp(prefix="signatures-")
    rows = []
    try:
        nss = identities(work)
        for number, doc in enumerate(DOCS):
            signed = os.path.join(work, f"signed{number}.pdf")
            sign = f"{HOSTAPP} sign {doc} --cert {work}/signer.p12 --password-file {work}/password.txt --page 1 -o {signed}"
            subprocess.run(sign, shell=True, check=True, capture_output=True)
            times = hyperfine({
                "hostapp sign": sign,
                "pdfsig -add-signature": f"pdfsig -add-signature -nssdir sql:{nss} -nick signer.p12 -digest SHA256 {doc} {work}/nss{number}.pdf",
            }, RUNS, rounds=5)
            verify = hyperfine({
                "hostapp signatures --verify": f"{HOSTAPP} signatures --verify --trust {work}/ca.pem {signed}",
                "pdfsig": f"pdfsig {signed}",
            }, RUNS, rounds=5)
            rows.append((os.path.basename(doc), os.path.getsize(doc), times["hostapp sign"], times["pdfsig -add-signature"],
                         verify["hostapp signatures --verify"], verify["pdfsig"]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    lines = [
        BEGIN,
        "",
        "## Signatures",
        "",
        "Written by `make bench-signatures` (`Benchmarks/signatures.py`): a new process signs a document (PAdES,",
        "SHA-256, a new invisible field, RSA 2048) and one verifies what hostapp signed (the signature, the",
        "certificate against the test CA); `pdfsig -add-signature` signs with the same identity from an NSS",
        "database (`adbe.pkcs7.detached`, its only encoding), and `pdfsig` verifies the same file; hostapp's",
        "verification also compares nothing here, since the signature covers the whole file. Medians of",
        f"{RUNS} runs, in five rounds that take the commands in turn.",
        "",
        "| document | size (MB) | hostapp sign (s) | pdfsig -add-signature (s) | ratio | hostapp --verify (s) | pdfsig (s) | ratio |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, size, sign, nss_sign, verify, pdfsig in rows:
        lines.append(f"| {name} | {size / 1e6:.2f} | {sign:.3f} | {nss_sign:.3f} | {sign / nss_sign:.2f}x | {verify:.3f} | {pdfsig:.3f} | {verify / pdfsig:.2f}x |")
    lines += [
        "",
        "On a small file both hostapp commands are mostly the start of two processes: the lean `hostapp`",
        "hands `sign` and `signatures` to `hostapp-full`, which links both engines and OpenSSL; on R's manual",
        "pdfsig's own reading of the document dominates.",
        "",
        END,
    ]
    return lines


if __name__ == "__main__":
    run(measure, "BENCHMARKS.md", BEGIN, END)
    sys.exit(0)
