#!/usr/bin/env python3
"""Signs INPUT with signer.p12 from FOLDER (the folder make-identities.py filled) by pyHanko,
in a new invisible field "Locking" whose /Lock (ISO 32000-1, 12.7.4.5) locks the fields
named after OUTPUT (/Action /Include), or all fields when none is named (/Action /All); the
signature carries the matching FieldMDP reference. A later change to a locked field's value
breaks the signature; a change to another field does not.

Usage: sign-with-lock.py FOLDER INPUT OUTPUT [FIELD ...]
"""
import logging
import os
import sys

from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.sign import fields, signers

logging.disable(logging.CRITICAL)
folder, source, target, locked = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
password = open(os.path.join(folder, "password.txt"), "rb").read().strip()
signer = signers.SimpleSigner.load_pkcs12(os.path.join(folder, "signer.p12"), passphrase=password)
lock = (fields.FieldMDPSpec(fields.FieldMDPAction.INCLUDE, fields=locked) if locked else fields.FieldMDPSpec(fields.FieldMDPAction.ALL))
with open(source, "rb") as handle:
    writer = IncrementalPdfFileWriter(handle)
    fields.append_signature_field(writer, fields.SigFieldSpec("Locking", field_mdp_spec=lock))
    with open(target, "wb") as out:
        signers.sign_pdf(writer, signers.PdfSignatureMetadata(field_name="Locking", subfilter=fields.SigSeedSubFilter.PADES), signer=signer, output=out)
