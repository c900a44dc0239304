#!/usr/bin/env python3
"""Validates every signature of a PDF with pyHanko, the independent witness of the signing
tests, and prints one JSON object per signature (in the file's order) as a JSON list:
field, kind (signature, or timestamp for a document timestamp), intact, valid (the CMS
signature over its bytes), trusted (a chain to the trust roots given), coverage
(ENTIRE_FILE, ENTIRE_REVISION, ...), modification (NONE, FORM_FILLING, ANNOTATIONS,
LTA_UPDATES, OTHER), docmdp_ok, the subfilter, and for a signature with a timestamp of its
own, timestamp_valid and timestamp_trusted; with --crl, revoked too (the signer's certificate
must then be covered by a list given, read offline; CA certificates are not checked).

Usage: validate-with-pyhanko.py FILE.pdf [ROOT.pem ...] [--crl CRL.der ...]
"""
import json
import logging
import sys

from pyhanko.keys import load_cert_from_pemder
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation import validate_pdf_signature, validate_pdf_timestamp
from pyhanko_certvalidator import ValidationContext
from pyhanko_certvalidator.policy_decl import CertRevTrustPolicy, RevocationCheckingPolicy, RevocationCheckingRule

logging.disable(logging.CRITICAL)
arguments = sys.argv[2:]
crl_files = [arguments[i + 1] for i, argument in enumerate(arguments) if argument == "--crl"]
roots = [load_cert_from_pemder(path) for i, path in enumerate(arguments) if path != "--crl" and (i == 0 or arguments[i - 1] != "--crl")]
crls = [open(path, "rb").read() for path in crl_files]
# pyHanko checks revocation only where a certificate names a source, unless the policy asks.
required = CertRevTrustPolicy(RevocationCheckingPolicy(ee_certificate_rule=RevocationCheckingRule.CRL_REQUIRED,
                                                       intermediate_ca_cert_rule=RevocationCheckingRule.NO_CHECK))
revocation = {"crls": crls, "revinfo_policy": required} if crls else {}
verdicts = []
with open(sys.argv[1], "rb") as handle:
    reader = PdfFileReader(handle, strict=False)
    for signature in reader.embedded_signatures:
        context = ValidationContext(trust_roots=roots, allow_fetching=False, **revocation)
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
            **({"revoked": bool(status.revoked)} if crls else {}),
        })
print(json.dumps(verdicts, default=str))
