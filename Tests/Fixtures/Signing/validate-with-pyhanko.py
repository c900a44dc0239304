#!/usr/bin/env python3
"""Validates every signature of a PDF with pyHanko, the independent witness of the signing
tests, and prints one JSON object per signature (in the file's order) as a JSON list:
field, kind (signature, or timestamp for a document timestamp), intact, valid (the CMS
signature over its bytes), trusted (a chain to the trust roots given), coverage
(ENTIRE_FILE, ENTIRE_REVISION, ...), modification (NONE, FORM_FILLING, ANNOTATIONS,
LTA_UPDATES, OTHER), docmdp_ok, the subfilter, and for a signature with a timestamp of its
own, timestamp_valid and timestamp_trusted.

Usage: validate-with-pyhanko.py FILE.pdf [ROOT.pem ...]
"""
import json
import logging
import sys

from pyhanko.keys import load_cert_from_pemder
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation import validate_pdf_signature, validate_pdf_timestamp
from pyhanko_certvalidator import ValidationContext

logging.disable(logging.CRITICAL)
roots = [load_cert_from_pemder(path) for path in sys.argv[2:]]
verdicts = []
with open(sys.argv[1], "rb") as handle:
    reader = PdfFileReader(handle, strict=False)
    for signature in reader.embedded_signatures:
        context = ValidationContext(trust_roots=roots, allow_fetching=False)
        is_timestamp = signature.sig_object_type == "/DocTimeStamp"
        if is_timestamp:
            status = validate_pdf_timestamp(signature, validation_context=context)
        else:
            status = validate_pdf_signature(signature, context, ts_validation_context=ValidationContext(trust_roots=roots, allow_fetching=False))
        stamp = None if is_timestamp else status.timestamp_validity
        verdicts.append({
            "field": signature.field_name,
            "kind": "timestamp" if is_timestamp else "signature",
            "timestamp_valid": bool(stamp.valid and stamp.intact) if stamp else None,
            "timestamp_trusted": bool(stamp.trusted) if stamp else None,
            "intact": bool(status.intact),
            "valid": bool(status.valid),
            "trusted": bool(status.trusted),
            "coverage": status.coverage.name if status.coverage else None,
            "modification": status.modification_level.name if getattr(status, "modification_level", None) else None,
            "docmdp_ok": getattr(status, "docmdp_ok", None),
            "subfilter": signature.sig_object.get("/SubFilter"),
        })
print(json.dumps(verdicts, default=str))
