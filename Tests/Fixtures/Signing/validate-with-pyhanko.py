#!/usr/bin/env python3
"""Validates every signature of a PDF with pyHanko, the independent witness of the signing
tests, and prints one JSON object per signature (in the file's order) as a JSON list:
field, intact, valid (the CMS signature over its bytes), trusted (a chain to the trust
roots given), coverage (ENTIRE_FILE, ENTIRE_REVISION, ...), modification (NONE,
FORM_FILLING, ANNOTATIONS, OTHER), docmdp_ok and the subfilter.

Usage: validate-with-pyhanko.py FILE.pdf [ROOT.pem ...]
"""
import json
import logging
import sys

from pyhanko.keys import load_cert_from_pemder
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko_certvalidator import ValidationContext

logging.disable(logging.CRITICAL)
roots = [load_cert_from_pemder(path) for path in sys.argv[2:]]
verdicts = []
with open(sys.argv[1], "rb") as handle:
    reader = PdfFileReader(handle, strict=False)
    for signature in reader.embedded_signatures:
        status = validate_pdf_signature(signature, ValidationContext(trust_roots=roots, allow_fetching=False))
        verdicts.append({
            "field": signature.field_name,
            "intact": bool(status.intact),
            "valid": bool(status.valid),
            "trusted": bool(status.trusted),
            "coverage": status.coverage.name if status.coverage else None,
            "modification": status.modification_level.name if status.modification_level else None,
            "docmdp_ok": status.docmdp_ok,
            "subfilter": signature.sig_object.get("/SubFilter"),
        })
print(json.dumps(verdicts, default=str))
