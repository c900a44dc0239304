#!/usr/bin/env python3
"""Reads a PDF's document security store with pyHanko and prints, as JSON, the subjects of its
certificates (sorted, as "Organization: ..., Common Name: ..."; pyHanko keeps each certificate
once), the issuers of its CRLs, how many OCSP responses it holds, and how many entries the
store's /Certs, /CRLs and /OCSPs arrays hold as written (duplicates counted); {} when there is
no store.

Usage: read-dss-with-pyhanko.py FILE.pdf
"""
import json
import logging
import sys

from asn1crypto import crl, x509
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation.dss import DocumentSecurityStore

logging.disable(logging.CRITICAL)
with open(sys.argv[1], "rb") as handle:
    reader = PdfFileReader(handle, strict=False)
    if "/DSS" not in reader.root:
        print("{}")
        sys.exit(0)
    store = DocumentSecurityStore.read_dss(reader)
    print(json.dumps({
        "certificates": sorted(x509.Certificate.load(ref.get_object().data).subject.human_friendly for ref in store.certs.values()),
        "crls": [crl.CertificateList.load(ref.get_object().data).issuer.human_friendly for ref in store.crls],
        "ocsps": len(store.ocsps),
        "entries": {key: len(reader.root["/DSS"].get("/" + key, [])) for key in ("Certs", "CRLs", "OCSPs")},
    }))
