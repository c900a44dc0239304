#!/usr/bin/env python3
"""Signs a PDF the legacy way `adbe.pkcs7.sha1` asks (ISO 32000-1, 12.8.3.3.1): the CMS
signature encapsulates the SHA-1 digest of the signed bytes, instead of being detached from
them, in a new invisible field "Legacy" (an incremental update pypdf writes). SHA-1 is the
signature's own digest too, as the encoding's writers made it (Poppler checks the signed
bytes with the signature's digest). OpenSSL's `cms -sign -nodetach` makes the signature,
with signer.p12 from FOLDER (the folder make-identities.py filled). pyHanko does not read
this encoding; pdfsig does.

Usage: sign-legacy-sha1.py FOLDER INPUT OUTPUT
"""
import hashlib
import io
import os
import re
import subprocess
import sys

from pypdf import PdfWriter
from pypdf.generic import (ArrayObject, ByteStringObject, DictionaryObject, NameObject, NumberObject, TextStringObject)

folder, source, target = sys.argv[1:4]
CAPACITY = 8192  # bytes the signature may take
PLACEHOLDER = [0, 1111111111, 2222222222, 3333333333]

writer = PdfWriter(source, incremental=True)
signature = writer._add_object(DictionaryObject({
    NameObject("/Type"): NameObject("/Sig"), NameObject("/Filter"): NameObject("/Adobe.PPKLite"),
    NameObject("/SubFilter"): NameObject("/adbe.pkcs7.sha1"),
    NameObject("/ByteRange"): ArrayObject(NumberObject(n) for n in PLACEHOLDER),
    NameObject("/Contents"): ByteStringObject(b"\0" * CAPACITY),
    NameObject("/M"): TextStringObject("D:20260101120000Z"),
}))
page = writer.pages[0]
widget = writer._add_object(DictionaryObject({
    NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject("/Widget"), NameObject("/FT"): NameObject("/Sig"),
    NameObject("/T"): TextStringObject("Legacy"), NameObject("/Rect"): ArrayObject([NumberObject(0)] * 4), NameObject("/F"): NumberObject(132),
    NameObject("/P"): page.indirect_reference, NameObject("/V"): signature,
}))
annotations = page.get("/Annots")
page[NameObject("/Annots")] = ArrayObject((list(annotations.get_object()) if annotations else []) + [widget])
form = writer._root_object.get("/AcroForm")
form = form.get_object() if form else DictionaryObject()
form[NameObject("/Fields")] = ArrayObject((list(form.get("/Fields", []))) + [widget])
form[NameObject("/SigFlags")] = NumberObject(3)
writer._root_object[NameObject("/AcroForm")] = form
buffer = io.BytesIO()
writer.write(buffer)
data = bytearray(buffer.getvalue())

# The ranges: everything but the value's hexadecimal string, its angle brackets included.
placeholder = re.search(rb"/ByteRange\s*\[\s*0\s+1111111111\s+2222222222\s+3333333333\s*\]", data)
contents = data.index(b"<" + b"00" * CAPACITY + b">")
ranges = [0, contents, contents + 2 * CAPACITY + 2, len(data) - (contents + 2 * CAPACITY + 2)]
written = ("/ByteRange [" + " ".join(str(n) for n in ranges) + "]").encode()
data[placeholder.start():placeholder.end()] = written.ljust(placeholder.end() - placeholder.start())
signed = bytes(data[:ranges[1]]) + bytes(data[ranges[2]:])
digest = os.path.join(folder, "legacy-digest.bin")
open(digest, "wb").write(hashlib.sha1(signed).digest())
password = open(os.path.join(folder, "password.txt")).read().strip()
pem = subprocess.run(["openssl", "pkcs12", "-in", os.path.join(folder, "signer.p12"), "-nodes", "-passin", "pass:" + password],
                     capture_output=True, check=True).stdout
identity = os.path.join(folder, "legacy-identity.pem")
open(identity, "wb").write(pem)
value = subprocess.run(["openssl", "cms", "-sign", "-nodetach", "-binary", "-md", "sha1", "-outform", "DER", "-in", digest,
                        "-signer", identity, "-nosmimecap"], capture_output=True, check=True).stdout
assert len(value) <= CAPACITY, "the signature outgrew its room"
data[contents + 1:contents + 1 + 2 * len(value)] = value.hex().upper().encode()
open(target, "wb").write(bytes(data))
