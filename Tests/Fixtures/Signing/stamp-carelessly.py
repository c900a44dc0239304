#!/usr/bin/env python3
"""Makes what a careless time-stamping authority would: INPUT signed with signer.p12 ("Ada
Signer") by pyHanko, with a signature timestamp, then a document timestamp, both signed by Ada
Signer's own certificate, which lacks the extended key usage timeStamping that RFC 3161 (2.3)
asks of an authority. OpenSSL's `ts -reply` refuses such a certificate, so the tokens come from
pyHanko's DummyTimeStamper. FOLDER is the one make-identities.py filled; the result is OUTPUT:
field Signature1 (PAdES, timestamped), then field Timestamp1 (a document timestamp).

Usage: stamp-carelessly.py FOLDER INPUT OUTPUT
"""
import io
import logging
import os
import sys

from careless_authority import careless_stamper
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.sign import fields, signers

logging.disable(logging.CRITICAL)
folder, source, target = sys.argv[1:4]
password = open(os.path.join(folder, "password.txt"), "rb").read().strip()
authority = careless_stamper(folder, "signer.p12")
signer = signers.SimpleSigner.load_pkcs12(os.path.join(folder, "signer.p12"), passphrase=password)
with open(source, "rb") as handle:
    signed = signers.sign_pdf(IncrementalPdfFileWriter(handle), signers.PdfSignatureMetadata(field_name="Signature1", subfilter=fields.SigSeedSubFilter.PADES),
                              signer=signer, timestamper=authority, output=io.BytesIO())
signed.seek(0)
stamped = signers.PdfTimeStamper(authority, field_name="Timestamp1").timestamp_pdf(IncrementalPdfFileWriter(signed), "sha256", output=io.BytesIO())
open(target, "wb").write(stamped.getvalue())
