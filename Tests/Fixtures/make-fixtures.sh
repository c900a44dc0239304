#!/usr/bin/env bash
# Rebuilds every fixture PDF in this folder from make-fixtures.js, then derives the
# encrypted, truncated, damaged and non-PDF files from them. Needs mutool (mupdf-tools),
# qpdf and python3.
# The properties each file is built to have are stated in make-fixtures.js and below;
# the tests hold the same numbers in Tests/ConformanceTests/FixtureFacts.swift.
set -euo pipefail
cd "$(dirname "$0")"

mutool run make-fixtures.js .

# encrypted.pdf: text.pdf with AES-256 (R6), user password "user-secret", owner password
# "owner-secret", /P -3392: only extraction for accessibility allowed (qpdf's
# --modify=none also forbids annotating, form filling and assembling).
qpdf --encrypt user-secret owner-secret 256 --print=none --modify=none --extract=n -- text.pdf encrypted.pdf

# restricted.pdf: colors.pdf encrypted with an empty user password (it opens without one)
# and owner password "owner-secret"; printing forbidden, everything else allowed.
qpdf --encrypt "" owner-secret 256 --print=none -- colors.pdf restricted.pdf

# truncated.pdf: the first 650 of text.pdf's bytes: the header and objects 1-8, cut inside
# object 9; no cross-reference table or trailer. Neither engine can open it, even by
# repairing (MuPDF does repair some other cuts of this file, such as 780 bytes).
head -c 650 text.pdf > truncated.pdf

# poppler-only.pdf: text.pdf with a broken startxref and, right after the header, an object
# whose string is never closed. Repairing, MuPDF reads that string to the end of the file and
# finds no document; Poppler's reconstruction scans line by line and opens all 3 pages.
python3 - <<'PY'
data = open("text.pdf", "rb").read()
cut = data.index(b"startxref")
broken = data[:cut] + b"startxref\n1\n%%EOF\n"
open("poppler-only.pdf", "wb").write(broken[:9] + b"99 0 obj\n<</A (never closed\n>>\nendobj\n" + broken[9:])
PY

# no-pages.pdf: a header and one object that is no catalog, with no cross-reference table:
# MuPDF's repair opens it as a document of 0 pages, Poppler finds it damaged. A file repaired
# into no pages is damaged for every backend (and `auto` never serves it as an empty success).
printf '%%PDF-1.7\n1 0 obj\n<< /Foo 1 >>\nendobj\n' > no-pages.pdf

# xref-loop.pdf: 30 empty pages (612 x 792) whose classic cross-reference table is followed
# by two appended sections, each with /Prev naming the other; startxref names the last, so
# the chain from it never reaches the table that lists the objects. MuPDF 1.21 ignores the
# recursion and finds no page tree (0 pages, not flagged as repaired); Poppler reconstructs
# the table and reads 30 pages, as pdfinfo and qpdf --show-npages do. The shape of qpdf's
# test file append-xref-loop.pdf.
python3 - <<'PY'
from pdf_writer import pdf_file
pages = 30
objects = {1: b"<< /Type /Catalog /Pages 2 0 R >>",
           2: b"<< /Type /Pages /Count %d /Kids [%s] >>" % (pages, b" ".join(b"%d 0 R" % (3 + i) for i in range(pages)))}
for i in range(pages):
    objects[3 + i] = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"
data, _ = pdf_file(objects)
def section(at, previous):
    return (b"xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size %d /Root 1 0 R /Prev %010d >>\nstartxref\n%010d\n%%%%EOF\n"
            % (pages + 3, previous, at))
first = len(data)
second = first + len(section(0, 0))
data += section(first, second) + section(second, first)
open("xref-loop.pdf", "wb").write(data)
PY

# embedded-encrypted.pdf: one page whose only encrypted part is its embedded file (note.txt):
# the standard security handler V4/R4, user password "embedded-secret", owner password
# "owner-secret", /StmF and /StrF /Identity, /EFF a crypt filter of RC4 (/V2, 128 bits,
# /AuthEvent /EFOpen). MuPDF 1.21 asks for a password to open it; Poppler opens it without one
# (pdfinfo: "Encrypted: no") and reads its page; with the password, qpdf --show-encryption
# says "stream encryption method: none", "file encryption method: RC4". (The same file with
# /StmF set to that filter is decrypted by qpdf to the attachment's text, which checks the
# keys computed here: PDF 1.7's algorithms 1 to 5.)
python3 - <<'PY'
from pdf_writer import pdf_file
import hashlib, struct

PAD = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")

def rc4(key, data):
    s = list(range(256)); j = 0
    for i in range(256):
        j = (j + s[i] + key[i % len(key)]) % 256; s[i], s[j] = s[j], s[i]
    out = bytearray(); i = j = 0
    for byte in data:
        i = (i + 1) % 256; j = (j + s[i]) % 256; s[i], s[j] = s[j], s[i]
        out.append(byte ^ s[(s[i] + s[j]) % 256])
    return bytes(out)

def padded(password):
    return (password + PAD)[:32]

def owner_entry(owner, user, n=16):
    digest = hashlib.md5(padded(owner)).digest()
    for _ in range(50): digest = hashlib.md5(digest[:n]).digest()
    key = digest[:n]; value = rc4(key, padded(user))
    for i in range(1, 20): value = rc4(bytes(b ^ i for b in key), value)
    return value

def file_key(user, o, p, id0, n=16):
    digest = hashlib.md5(padded(user) + o + struct.pack("<i", p) + id0).digest()
    for _ in range(50): digest = hashlib.md5(digest[:n]).digest()
    return digest[:n]

def user_entry(key, id0):
    value = rc4(key, hashlib.md5(PAD + id0).digest())
    for i in range(1, 20): value = rc4(bytes(b ^ i for b in key), value)
    return value + bytes(16)

def object_key(key, number, generation=0):
    return hashlib.md5(key + struct.pack("<i", number)[:3] + struct.pack("<i", generation)[:2]).digest()[:min(len(key) + 5, 16)]

user, owner, p = b"embedded-secret", b"owner-secret", -4
id0 = hashlib.md5(b"embedded-only fixture").digest()
o = owner_entry(owner, user)
key = file_key(user, o, p, id0)
u = user_entry(key, id0)
attachment = b"This attachment is encrypted; the page is not.\n"
content = b"BT /F1 24 Tf 72 700 Td (Only the attachment is encrypted.) Tj ET\n"
h = lambda b: b.hex().upper().encode()
objects = [
    b"<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(note.txt) 6 0 R] >> >> >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
    b"<< /Type /Filespec /F (note.txt) /UF (note.txt) /EF << /F 7 0 R >> >>",
    None,  # the embedded file, encrypted below
    b"<< /Filter /Standard /V 4 /R 4 /Length 128 /P %d /O <" % p + h(o) + b"> /U <" + h(u)
    + b"> /CF << /EmbedCF << /Type /CryptFilter /CFM /V2 /AuthEvent /EFOpen /Length 16 >> >>"
    + b" /StmF /Identity /StrF /Identity /EFF /EmbedCF >>",
]
encrypted = rc4(object_key(key, 7), attachment)
objects[6] = b"<< /Type /EmbeddedFile /Length %d /Params << /Size %d >> >>\nstream\n" % (len(encrypted), len(attachment)) + encrypted + b"\nendstream"
out, xref = pdf_file(objects, version=b"1.6", trailer=b" /Encrypt 8 0 R /ID [<" + h(id0) + b"> <" + h(id0) + b">]")
open("embedded-encrypted.pdf", "wb").write(out)
PY

# broken-page-tree.pdf: text.pdf whose page tree says /Count 5 over its 3 kids. pdfinfo says 5
# pages; both engines open it and draw pages 1-3, and cannot load pages 4 and 5 (pdftoppm writes
# a 1x1 blank for each). Every command serves pages 1-3 and reports 4 and 5 on their own.
python3 - <<'PY'
data = open("text.pdf", "rb").read()
assert data.count(b"/Type/Pages/Count 3/") == 1
open("broken-page-tree.pdf", "wb").write(data.replace(b"/Type/Pages/Count 3/", b"/Type/Pages/Count 5/"))
PY

# signed.pdf: one page and an AcroForm with two signature fields, the file signed by the
# first with a self-signed certificate made here for it (CN "Fixture Signer", RSA 2048,
# thrown away afterwards) through openssl cms: a detached PKCS#7 over the two byte ranges,
# SHA-256 (/SubFilter /adbe.pkcs7.detached; pdfsig finds it valid, its issuer untrusted).
#   "Approval" (object 5, field and widget in one, /P the page, Rect 72 600 272 650 in user
#     space): /V holds /Name (Fixture Signer), /M (D:20240309160000Z), /Reason (Approval of
#     the fixture), /Location (Test lab), a /ByteRange of two ranges that run from the first
#     byte to the last, leaving out only the /Contents string (8,192 bytes, in hex);
#   "Review.Witness" (object 8, a widget without /P under the field "Review", object 7, which
#     gives it /FT /Sig by inheritance): unsigned, on page 1 through the page's /Annots.
# signed-then-changed.pdf: signed.pdf with an incremental update appended (a new Info
# dictionary, object 10, /Title "Changed after signing"): the signature no longer covers the whole file
# (pdfsig: "Not total document signed").
# certified.pdf: signed.pdf made as a certification signature: the catalog's /Perms /DocMDP
# names the signature dictionary, whose /Reference holds a DocMDP transform with /P 2 (form
# filling and signing permitted after it, annotations not).
python3 - <<'PY'
from pdf_writer import pdf_file
import os, subprocess, tempfile

work = tempfile.mkdtemp()
key, certificate = os.path.join(work, "key.pem"), os.path.join(work, "cert.pem")
subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=Fixture Signer/O=RendererProvider fixtures",
                "-days", "36500", "-keyout", key, "-out", certificate], check=True, capture_output=True)

def signed_document(certify):
  content = b"BT /F1 24 Tf 72 700 Td (A signed page) Tj ET\n"
  placeholder = b"0" * 16384
  perms = b" /Perms << /DocMDP 6 0 R >>" if certify else b""
  reference = b" /Reference [<< /Type /SigRef /TransformMethod /DocMDP /TransformParams << /Type /TransformParams /P 2 /V /1.2 >> >>]" if certify else b""
  objects = [
    b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [5 0 R 7 0 R] /SigFlags 3 >>" + perms + b" >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 9 0 R /Annots [5 0 R 8 0 R] >>",
    b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    b"<< /Type /Annot /Subtype /Widget /FT /Sig /T (Approval) /V 6 0 R /Rect [72 600 272 650] /F 132 /P 3 0 R >>",
    b"<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached /Name (Fixture Signer) /M (D:20240309160000Z)"
    b" /Reason (Approval of the fixture) /Location (Test lab)" + reference + b" /ByteRange [0 RANGE_ONE  RANGE_TWO  RANGE_THR ] /Contents <" + placeholder + b"> >>",
    b"<< /FT /Sig /T (Review) /Kids [8 0 R] >>",
    b"<< /Type /Annot /Subtype /Widget /Parent 7 0 R /T (Witness) /Rect [72 500 272 550] /F 132 >>",
    b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
  ]
  out, xref = pdf_file(objects)

  start = out.index(b"/Contents <") + len(b"/Contents ")
  end = start + len(placeholder) + 2
  ranges = b"0 %-10d %-10d %-10d" % (start, end, len(out) - end)
  field = out.index(b"0 RANGE_ONE  RANGE_TWO  RANGE_THR ")
  assert len(ranges) == len(b"0 RANGE_ONE  RANGE_TWO  RANGE_THR ")
  out[field:field + len(ranges)] = ranges
  signed_bytes = bytes(out[:start] + out[end:])
  signature = subprocess.run(["openssl", "cms", "-sign", "-binary", "-outform", "DER", "-md", "sha256", "-signer", certificate, "-inkey", key],
                             input=signed_bytes, check=True, capture_output=True).stdout
  encoded = signature.hex().upper().encode()
  assert len(encoded) <= len(placeholder)
  out[start + 1:start + 1 + len(encoded)] = encoded
  return out, xref

out, xref = signed_document(certify=False)
open("signed.pdf", "wb").write(out)
open("certified.pdf", "wb").write(signed_document(certify=True)[0])

update = bytearray(b"10 0 obj\n<< /Title (Changed after signing) >>\nendobj\n")
offset = len(out)
changed = out + update
xref2 = len(changed)
changed += b"xref\n0 1\n0000000000 65535 f \n10 1\n%010d 00000 n \n" % offset
changed += b"trailer\n<< /Size 11 /Root 1 0 R /Info 10 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n" % (xref, xref2)
open("signed-then-changed.pdf", "wb").write(changed)
for name in os.listdir(work): os.remove(os.path.join(work, name))
os.rmdir(work)
PY

# field-loop.pdf: one page whose AcroForm field tree loops: "Loop" (object 5, /FT /Sig) has
# the kid "Inner" (6), whose kids are "Loop" again and the widget "Leaf" (7, listed in the
# page's /Annots). Walking the tree once, each field met once, finds one signature field,
# "Loop.Inner.Leaf", unsigned, on page 1.
python3 - <<'PY'
from pdf_writer import pdf_file
objects = [
    b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [5 0 R] >> >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 8 0 R /Annots [7 0 R] >>",
    b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    b"<< /FT /Sig /T (Loop) /Kids [6 0 R] >>",
    b"<< /T (Inner) /Parent 5 0 R /Kids [5 0 R 7 0 R] >>",
    b"<< /Type /Annot /Subtype /Widget /T (Leaf) /Parent 6 0 R /Rect [72 600 272 650] /F 132 >>",
]
content = b"BT /F1 24 Tf 72 700 Td (A form whose field tree loops) Tj ET\n"
objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
out, xref = pdf_file(objects)
open("field-loop.pdf", "wb").write(out)
PY

# broken-content.pdf: one page whose content stream breaks: "Before the break" at user-space
# baseline (72, 700), Helvetica 24, then a path whose operands hold an unterminated string,
# then "After the break" at (72, 500). Both engines stop at the break: mutool draw -F txt and
# pdftotext find "Before the break" only.
python3 - <<'PY'
from pdf_writer import pdf_file
content = b"BT /F1 24 Tf 72 700 Td (Before the break) Tj ET\nq 1 0 0 rg 72 600 m 200 ((( [[ <</ re f\nBT /F1 24 Tf 72 500 Td (After the break) Tj ET\n"
objects = [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
]
out, xref = pdf_file(objects)
open("broken-content.pdf", "wb").write(out)
PY

# forms.pdf: one page (612 x 792) and an AcroForm of one field of each kind, rectangles in
# user space, no /NeedAppearances:
#   "name": text, /V (Ada Lovelace), /DV (Nobody), /MaxLen 40, Rect 72 700 300 720;
#   "address": text, multiline (/Ff 4096), no value, Rect 72 640 300 690;
#   "secret": text, password (/Ff 8192), Rect 72 610 300 630;
#   "id": text, read-only and required (/Ff 3), /V (42), Rect 320 700 400 720;
#   "person.first" and "person.last": texts under the field "person", /V (Grace) and
#     (Hopper), Rects 72 570 180 590 and 190 570 300 590;
#   "subscribe": checkbox, /V /Yes, on state Yes, Rect 72 540 86 554;
#   "size": radio buttons (/Ff 49152), /V /M, three widgets with on states S, M and L at
#     x 72, 100 and 128, y 510 to 524;
#   "submit": push button (/Ff 65536), Rect 72 470 150 490;
#   "colors": list box, multi-select (/Ff 2097152), /Opt [(red) (green) [(b) (blue)]],
#     /V [(red) (b)], Rect 320 600 420 680;
#   "country": editable combo box (/Ff 393216), /Opt [[(fr) (France)] [(de) (Germany)]],
#     /V (de), Rect 320 560 420 580.
# Every widget has an appearance: an empty one (object 8), and for the buttons a filled
# square for the on state and an empty one for Off, so that neither engine makes one of its
# own (each draws field values its own way).
python3 - <<'PY'
from pdf_writer import pdf_file
content = b"BT /F1 18 Tf 72 740 Td (A form with a field of each kind) Tj ET\n"
box = b"<< /Type /XObject /Subtype /Form /BBox [0 0 14 14] /Length 14 >>\nstream\n0 0 14 14 re f\nendstream"
empty = b"<< /Type /XObject /Subtype /Form /BBox [0 0 14 14] /Length 0 >>\nstream\n\nendstream"
widget = lambda rect, extra=b" /AP << /N 8 0 R >>": b"/Type /Annot /Subtype /Widget /F 4 /P 3 0 R /Rect [" + rect + b"]" + extra
objects = {
    1: b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [10 0 R 11 0 R 12 0 R 13 0 R 14 0 R 17 0 R 18 0 R 22 0 R 23 0 R 24 0 R]"
       b" /DR << /Font << /Helv 4 0 R >> >> /DA (/Helv 0 Tf 0 g) >> >>",
    2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R"
       b" /Annots [10 0 R 11 0 R 12 0 R 13 0 R 15 0 R 16 0 R 17 0 R 19 0 R 20 0 R 21 0 R 22 0 R 23 0 R 24 0 R] >>",
    4: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    5: b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
    6: box,
    7: empty,
    8: b"<< /Type /XObject /Subtype /Form /BBox [0 0 1 1] /Length 0 >>\nstream\n\nendstream",
    10: b"<< /FT /Tx /T (name) /V (Ada Lovelace) /DV (Nobody) /MaxLen 40 " + widget(b"72 700 300 720") + b" >>",
    11: b"<< /FT /Tx /T (address) /Ff 4096 " + widget(b"72 640 300 690") + b" >>",
    12: b"<< /FT /Tx /T (secret) /Ff 8192 " + widget(b"72 610 300 630") + b" >>",
    13: b"<< /FT /Tx /T (id) /Ff 3 /V (42) " + widget(b"320 700 400 720") + b" >>",
    14: b"<< /FT /Tx /T (person) /Kids [15 0 R 16 0 R] >>",
    15: b"<< /T (first) /Parent 14 0 R /V (Grace) " + widget(b"72 570 180 590") + b" >>",
    16: b"<< /T (last) /Parent 14 0 R /V (Hopper) " + widget(b"190 570 300 590") + b" >>",
    17: b"<< /FT /Btn /T (subscribe) /V /Yes /AS /Yes " + widget(b"72 540 86 554", b" /AP << /N << /Yes 6 0 R /Off 7 0 R >> >>") + b" >>",
    18: b"<< /FT /Btn /T (size) /Ff 49152 /V /M /Kids [19 0 R 20 0 R 21 0 R] >>",
    19: b"<< /Parent 18 0 R /AS /Off " + widget(b"72 510 86 524", b" /AP << /N << /S 6 0 R /Off 7 0 R >> >>") + b" >>",
    20: b"<< /Parent 18 0 R /AS /M " + widget(b"100 510 114 524", b" /AP << /N << /M 6 0 R /Off 7 0 R >> >>") + b" >>",
    21: b"<< /Parent 18 0 R /AS /Off " + widget(b"128 510 142 524", b" /AP << /N << /L 6 0 R /Off 7 0 R >> >>") + b" >>",
    22: b"<< /FT /Btn /T (submit) /Ff 65536 " + widget(b"72 470 150 490") + b" >>",
    23: b"<< /FT /Ch /T (colors) /Ff 2097152 /Opt [(red) (green) [(b) (blue)]] /V [(red) (b)] " + widget(b"320 600 420 680") + b" >>",
    24: b"<< /FT /Ch /T (country) /Ff 393216 /Opt [[(fr) (France)] [(de) (Germany)]] /V (de) " + widget(b"320 560 420 580") + b" >>",
}
size = max(objects) + 1
out, xref = pdf_file(objects)
open("forms.pdf", "wb").write(out)
PY

# form-kids.pdf: two pages (612 x 792) and an AcroForm whose fields keep their widgets in
# kids without /T, the shape of pdf.js's test file form_two_pages.pdf:
#   "Text1": text (/FT /Tx on the parent), no value, one kid widget on page 1 (Rect 72 700
#     300 720, object 11);
#   "Shared": text, no value, two kid widgets, one on each page (Rects 72 650 300 670 on
#     page 1, object 13, and 72 700 300 720 on page 2, object 14): one field split over pages;
#   "Agree": checkbox (/FT /Btn on the parent), /V /Off, one kid widget on page 2 (on state
#     Yes, Rect 72 600 86 614, object 16).
# Widgets have /AP of their own and /DA comes from the AcroForm; no /NeedAppearances.
python3 - <<'PY'
from pdf_writer import pdf_file
box = b"<< /Type /XObject /Subtype /Form /BBox [0 0 14 14] /Length 14 >>\nstream\n0 0 14 14 re f\nendstream"
empty = b"<< /Type /XObject /Subtype /Form /BBox [0 0 1 1] /Length 0 >>\nstream\n\nendstream"
def widget(parent, page, rect, extra=b" /AP << /N 7 0 R >>"):
    return b"<< /Type /Annot /Subtype /Widget /F 4 /Parent %d 0 R /P %d 0 R /Rect [%s]%s >>" % (parent, page, rect, extra)
objects = {
    1: b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [10 0 R 12 0 R 15 0 R]"
       b" /DR << /Font << /Helv 5 0 R >> >> /DA (/Helv 0 Tf 0 g) >> >>",
    2: b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
    3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [11 0 R 13 0 R] >>",
    4: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [14 0 R 16 0 R] >>",
    5: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    6: box,
    7: empty,
    10: b"<< /FT /Tx /T (Text1) /Kids [11 0 R] >>",
    11: widget(10, 3, b"72 700 300 720"),
    12: b"<< /FT /Tx /T (Shared) /Kids [13 0 R 14 0 R] >>",
    13: widget(12, 3, b"72 650 300 670"),
    14: widget(12, 4, b"72 700 300 720"),
    15: b"<< /FT /Btn /T (Agree) /V /Off /Kids [16 0 R] >>",
    16: widget(15, 4, b"72 600 86 614", b" /AS /Off /AP << /N << /Yes 6 0 R /Off 7 0 R >> >>"),
}
out, xref = pdf_file(objects)
open("form-kids.pdf", "wb").write(out)
PY

# xfa-only.pdf: a dynamic XFA form, as a form designer saves one. The catalog has
# /NeedsRendering true; the AcroForm has no fields (/Fields []) and an /XFA stream holding
# the project's own small XDP packet (a template with one text field, "applicant"). The
# page says only that an XFA reader is needed. Neither engine reads XFA: the form is
# reported as xfa-only, listed with no fields, and refused for filling.
# xfa-hybrid.pdf: a static XFA form: the same /XFA stream beside an AcroForm text field
# "applicant" (/V (Lin)), and no /NeedsRendering, so the AcroForm is listed and filled.
python3 - <<'PY'
from pdf_writer import pdf_file
content = b"BT /F1 14 Tf 72 740 Td (This form needs a reader of XFA forms.) Tj ET\n"
xdp = (b'<?xml version="1.0" encoding="UTF-8"?>\n'
       b'<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/">\n'
       b'<template xmlns="http://www.xfa.org/schema/xfa-template/3.3/">\n'
       b'<subform name="form1" layout="tb"><field name="applicant" w="80mm" h="9mm"><ui><textEdit/></ui></field></subform>\n'
       b'</template>\n</xdp:xdp>\n')
def document(needs_rendering, fields, annots, extra):
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R" + (b" /NeedsRendering true" if needs_rendering else b"")
           + b" /AcroForm << /Fields [" + fields + b"] /XFA 6 0 R /DR << /Font << /Helv 4 0 R >> >> /DA (/Helv 0 Tf 0 g) >> >>",
        2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R" + annots + b" >>",
        4: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        5: b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        6: b"<< /Length %d >>\nstream\n" % len(xdp) + xdp + b"\nendstream",
    }
    objects.update(extra)
    return pdf_file(objects)[0]
open("xfa-only.pdf", "wb").write(document(True, b"", b"", {}))
applicant = {
    7: b"<< /FT /Tx /T (applicant) /V (Lin) /Type /Annot /Subtype /Widget /F 4 /P 3 0 R /Rect [72 680 300 700] /AP << /N 8 0 R >> >>",
    8: b"<< /Type /XObject /Subtype /Form /BBox [0 0 1 1] /Length 0 >>\nstream\n\nendstream",
}
open("xfa-hybrid.pdf", "wb").write(document(False, b"7 0 R", b" /Annots [7 0 R]", applicant))
PY

# Documents of the other formats MuPDF reads, from the project's own content:
# book.epub: an EPUB 3 book "A Small Book" by "Renderer Provider Authors": its mimetype entry
#   first and stored, an OPF package, a navigation document and an NCX table of contents
#   with two entries, "Chapter One" and "Chapter Two". Chapter one holds the sentence "The
#   first chapter begins here." and a link to chapter two; chapter two holds "The second
#   chapter continues." then 40 paragraphs of filler, so that the page count grows as the
#   pages shrink or the text grows.
# book.fb2: a FictionBook "A Small FictionBook" by Ada Example, sections "Part One" ("The
#   first part of the fiction book.") and "Part Two" ("The second part ends the book.").
# pages.xps: an XPS package of two 400 x 300 pages of vector paths (no text: XPS text needs
#   a font file): page 1 a blue rectangle at 50,50 100x80 that links to
#   https://example.org/xps, page 2 a red one at 200,100 120x60.
# comic.cbz: text.pdf drawn by mutool convert at 36 dpi, one PNG a page: 3 pages.
# image.png, image.jpg, image.tif: page 1 of colors.pdf drawn at 36 dpi (306 x 396 pixels)
#   by mutool, the JPEG and TIFF converted by netpbm.
# broken.epub: the first 400 bytes of book.epub (its mimetype entry intact, the rest cut).
# broken.cbz: comic.cbz without its last 100 bytes (no central directory end record).
python3 - <<'PY'
import zipfile
def zip_write(name, entries):
    with zipfile.ZipFile(name, "w") as z:
        for entry, data in entries:
            stored = entry == "mimetype"
            z.writestr(zipfile.ZipInfo(entry, (2020, 1, 1, 0, 0, 0)), data, zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED)
filler = "".join("<p>Filler paragraph %d of the second chapter, written for the layout tests of the renderer provider.</p>\n" % i for i in range(1, 41))
def chapter(title, body):
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>%s</title></head>'
            '<body><h1 id="top">%s</h1>%s</body></html>\n' % (title, title, body))
zip_write("book.epub", [
    ("mimetype", "application/epub+zip"),
    ("META-INF/container.xml", '<?xml version="1.0"?>\n<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
        '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>\n'),
    ("OEBPS/content.opf", '<?xml version="1.0" encoding="UTF-8"?>\n<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">renderer-provider-book</dc:identifier>'
        '<dc:title>A Small Book</dc:title><dc:creator>Renderer Provider Authors</dc:creator><dc:language>en</dc:language></metadata>'
        '<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
        '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>'
        '<item id="c1" href="chapter1.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="chapter2.xhtml" media-type="application/xhtml+xml"/></manifest>'
        '<spine toc="ncx"><itemref idref="c1"/><itemref idref="c2"/></spine></package>\n'),
    ("OEBPS/nav.xhtml", chapter("Contents", '<nav xmlns:epub="http://www.idpf.org/2007/ops" epub:type="toc"><ol>'
        '<li><a href="chapter1.xhtml">Chapter One</a></li><li><a href="chapter2.xhtml">Chapter Two</a></li></ol></nav>')),
    ("OEBPS/toc.ncx", '<?xml version="1.0" encoding="UTF-8"?>\n<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><head/>'
        '<docTitle><text>A Small Book</text></docTitle><navMap>'
        '<navPoint id="n1" playOrder="1"><navLabel><text>Chapter One</text></navLabel><content src="chapter1.xhtml"/></navPoint>'
        '<navPoint id="n2" playOrder="2"><navLabel><text>Chapter Two</text></navLabel><content src="chapter2.xhtml"/></navPoint>'
        '</navMap></ncx>\n'),
    ("OEBPS/chapter1.xhtml", chapter("Chapter One", '<p>The first chapter begins here.</p><p><a href="chapter2.xhtml#top">Go to chapter two</a></p>')),
    ("OEBPS/chapter2.xhtml", chapter("Chapter Two", "<p>The second chapter continues.</p>\n" + filler)),
])
open("book.fb2", "w").write('<?xml version="1.0" encoding="UTF-8"?>\n'
    '<FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0"><description><title-info><genre>prose</genre>'
    '<author><first-name>Ada</first-name><last-name>Example</last-name></author><book-title>A Small FictionBook</book-title><lang>en</lang>'
    '</title-info></description><body>'
    '<section><title><p>Part One</p></title><p>The first part of the fiction book.</p></section>'
    '<section><title><p>Part Two</p></title><p>The second part ends the book.</p></section>'
    '</body></FictionBook>\n')
def fpage(path):
    return '<FixedPage xmlns="http://schemas.microsoft.com/xps/2005/06" Width="400" Height="300" xml:lang="en">%s</FixedPage>\n' % path
zip_write("pages.xps", [
    ("[Content_Types].xml", '<?xml version="1.0" encoding="UTF-8"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="fdseq" ContentType="application/vnd.ms-package.xps-fixeddocumentsequence+xml"/>'
        '<Default Extension="fdoc" ContentType="application/vnd.ms-package.xps-fixeddocument+xml"/>'
        '<Default Extension="fpage" ContentType="application/vnd.ms-package.xps-fixedpage+xml"/></Types>\n'),
    ("_rels/.rels", '<?xml version="1.0" encoding="UTF-8"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="R1" Type="http://schemas.microsoft.com/xps/2005/06/fixedrepresentation" Target="/FixedDocumentSequence.fdseq"/></Relationships>\n'),
    ("FixedDocumentSequence.fdseq", '<FixedDocumentSequence xmlns="http://schemas.microsoft.com/xps/2005/06"><DocumentReference Source="/Documents/1/FixedDocument.fdoc"/></FixedDocumentSequence>\n'),
    ("Documents/1/FixedDocument.fdoc", '<FixedDocument xmlns="http://schemas.microsoft.com/xps/2005/06">'
        '<PageContent Source="/Documents/1/Pages/1.fpage"/><PageContent Source="/Documents/1/Pages/2.fpage"/></FixedDocument>\n'),
    ("Documents/1/Pages/1.fpage", fpage('<Path Data="M 50,50 L 150,50 L 150,130 L 50,130 Z" Fill="#FF0000FF" FixedPage.NavigateUri="https://example.org/xps"/>')),
    ("Documents/1/Pages/2.fpage", fpage('<Path Data="M 200,100 L 320,100 L 320,160 L 200,160 Z" Fill="#FFFF0000"/>')),
])
PY
mutool convert -q -O resolution=36 -o comic.cbz text.pdf 2>/dev/null || mutool convert -O resolution=36 -o comic.cbz text.pdf
mutool draw -q -r 36 -o image.png colors.pdf 1
mutool draw -q -r 36 -o image.ppm colors.pdf 1
pnmtojpeg -quality=90 image.ppm > image.jpg
pamtotiff -lzw image.ppm > image.tif
rm image.ppm
head -c 400 book.epub > broken.epub
head -c "$(( $(wc -c < comic.cbz) - 100 ))" comic.cbz > broken.cbz

# ligatures.pdf: one page (612 x 792) in Helvetica whose encoding is WinAnsi with codes 1
# and 2 set to the glyphs /fi and /fl (both in Helvetica's standard glyph set, so both
# engines give them the same width), and whose /ToUnicode maps those codes to U+FB01 and
# U+FB02 (as TeX's fonts do), three lines at x 72:
#   y 700: "The office and the reflex" (office with the fi glyph, reflex with the fl glyph);
#   y 670: "Her résumé arrived." (é as WinAnsi 0xE9);
#   y 640: "A plain resume too."
# MuPDF spells the ligatures out in its text ("office"); Poppler keeps U+FB01 and U+FB02
# ("ofﬁce", "reﬂex"), the shape of Debian's zitie-cn.pdf.
python3 - <<'PY'
from pdf_writer import pdf_file
content = (b"BT /F1 18 Tf 72 700 Td (The of\001ce and the re\002ex) Tj ET\n"
           b"BT /F1 18 Tf 72 670 Td (Her r\351sum\351 arrived.) Tj ET\n"
           b"BT /F1 18 Tf 72 640 Td (A plain resume too.) Tj ET\n")
# Codes 1 and 2 to the ligatures; the others to WinAnsi's characters, which here are Latin-1's.
cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Ligatures def /CMapType 2 def\n"
        b"1 begincodespacerange <00> <FF> endcodespacerange\n"
        b"2 beginbfchar <01> <FB01> <02> <FB02> endbfchar\n"
        b"1 beginbfrange <20> <FF> <0020> endbfrange\n"
        b"endcmap CMapName currentdict /CMap defineresource pop end end")
objects = [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica"
    b" /Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [1 /fi /fl] >> /ToUnicode 6 0 R >>",
    b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
    b"<< /Length %d >>\nstream\n" % len(cmap) + cmap + b"\nendstream",
]
out, xref = pdf_file(objects)
open("ligatures.pdf", "wb").write(out)
PY

# destinations.pdf: three pages, each MediaBox [0 0 612 792]: page 1 plain; page 2 with
# /CropBox [50 100 562 742]; page 3 with /Rotate 90. An outline item, and on page 1 a link
# (one per item, 20 pt high, stacked from y 20), for each kind of destination:
#   "XYZ"          [p1 /XYZ 100 700 2]
#   "XYZ nulls"    [p2 /XYZ null 600 null]
#   "Fit"          [p1 /Fit]
#   "FitH"         [p2 /FitH 650]
#   "FitV"         [p1 /FitV 100]
#   "FitR"         [p1 /FitR 66 714 180 770]  (qpdf's page-labels-and-outlines.pdf has this one)
#   "FitB"         [p3 /FitB]
#   "FitBH"        [p3 /FitBH 500]
#   "FitBV"        [p2 /FitBV 200]
#   "FitR rotated" [p3 /FitR 100 200 300 400]
#   "XYZ rotated"  [p3 /XYZ 100 700 0]
#   "FitR cropped" [p2 /FitR 100 200 300 400]
python3 - <<'PY'
from pdf_writer import pdf_file
dests = [(b"XYZ", b"[3 0 R /XYZ 100 700 2]"), (b"XYZ nulls", b"[4 0 R /XYZ null 600 null]"), (b"Fit", b"[3 0 R /Fit]"),
         (b"FitH", b"[4 0 R /FitH 650]"), (b"FitV", b"[3 0 R /FitV 100]"), (b"FitR", b"[3 0 R /FitR 66 714 180 770]"),
         (b"FitB", b"[5 0 R /FitB]"), (b"FitBH", b"[5 0 R /FitBH 500]"), (b"FitBV", b"[4 0 R /FitBV 200]"),
         (b"FitR rotated", b"[5 0 R /FitR 100 200 300 400]"), (b"XYZ rotated", b"[5 0 R /XYZ 100 700 0]"),
         (b"FitR cropped", b"[4 0 R /FitR 100 200 300 400]")]
first_item, first_link = 10, 10 + len(dests)
links = b" ".join(b"%d 0 R" % (first_link + i) for i in range(len(dests)))
objects = {
    1: b"<< /Type /Catalog /Pages 2 0 R /Outlines 6 0 R >>",
    2: b"<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>",
    3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [" + links + b"] >>",
    4: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /CropBox [50 100 562 742] >>",
    5: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Rotate 90 >>",
    6: b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>" % (first_item, first_link - 1, len(dests)),
}
for i, (title, dest) in enumerate(dests):
    links_to = b""
    if i > 0: links_to += b" /Prev %d 0 R" % (first_item + i - 1)
    if i < len(dests) - 1: links_to += b" /Next %d 0 R" % (first_item + i + 1)
    objects[first_item + i] = b"<< /Title (" + title + b") /Parent 6 0 R /Dest " + dest + links_to + b" >>"
    objects[first_link + i] = (b"<< /Type /Annot /Subtype /Link /Rect [72 %d 300 %d] /Border [0 0 0] /Dest " % (20 + 22 * i, 40 + 22 * i)) + dest + b" >>"
out, xref = pdf_file(objects)
open("destinations.pdf", "wb").write(out)
PY

# fonts.pdf: one page (300 x 200) using six fonts, each in one of the places a font list
# must look (needs fontTools, from PyPI, for the font made here):
#   Helvetica    Type 1, not embedded, in the page's resources;
#   ABCDEF+Tiny  TrueType, embedded (FontFile2), its name tagged as a subset, in the page's resources;
#   GHIJKL+Tiny  Type0 over a CIDFontType2 of the same font file, in the page's resources;
#   (no name)    Type 3, one square glyph, in the page's resources (Type 3 glyphs are always in the file);
#   Courier      Type 1, not embedded, only in a form XObject the page draws;
#   Times-Bold   Type 1, not embedded, only in the normal appearance of the page's FreeText annotation.
# "Tiny" is a TrueType font of two square glyphs (A, B) built by fontTools here.
python3 - <<'PY'
import io
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from pdf_writer import pdf_file

def square(size):
    pen = TTGlyphPen(None)
    pen.moveTo((50, 0)); pen.lineTo((50, size)); pen.lineTo((50 + size, size)); pen.lineTo((50 + size, 0)); pen.closePath()
    return pen.glyph()

builder = FontBuilder(1000, isTTF=True)
builder.setupGlyphOrder([".notdef", "A", "B"])
builder.setupCharacterMap({0x41: "A", 0x42: "B"})
builder.setupGlyf({".notdef": TTGlyphPen(None).glyph(), "A": square(500), "B": square(300)})
builder.setupHorizontalMetrics({".notdef": (600, 0), "A": (600, 50), "B": (600, 50)})
builder.setupHorizontalHeader(ascent=800, descent=-200)
builder.setupNameTable({"familyName": "Tiny", "styleName": "Regular"})
builder.setupOS2()
builder.setupPost()
font_file = io.BytesIO()
builder.save(font_file)
font_file = font_file.getvalue()

def stream(data, extra=b""):
    return b"<< /Length %d" % len(data) + extra + b" >>\nstream\n" + data + b"\nendstream"

def descriptor(name, file):
    return b"<< /Type /FontDescriptor /FontName /" + name + b" /Flags 32 /FontBBox [0 0 600 800] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 %d 0 R >>" % file

content = (b"BT /F1 12 Tf 10 180 Td (Helvetica) Tj ET\nBT /F2 12 Tf 10 160 Td (AB) Tj ET\n"
           b"BT /F3 12 Tf 10 140 Td <00010002> Tj ET\nBT /F4 12 Tf 10 120 Td (a) Tj ET\n/X1 Do\n")
objects = {
    1: b"<< /Type /Catalog /Pages 2 0 R >>",
    2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Annots [16 0 R]"
       b" /Resources << /Font << /F1 5 0 R /F2 6 0 R /F3 8 0 R /F4 12 0 R >> /XObject << /X1 14 0 R >> >> >>",
    4: stream(content),
    5: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    6: b"<< /Type /Font /Subtype /TrueType /BaseFont /ABCDEF+Tiny /FirstChar 65 /LastChar 66 /Widths [600 600] /Encoding /WinAnsiEncoding /FontDescriptor 7 0 R >>",
    7: descriptor(b"ABCDEF+Tiny", 9),
    8: b"<< /Type /Font /Subtype /Type0 /BaseFont /GHIJKL+Tiny /Encoding /Identity-H /DescendantFonts [10 0 R] >>",
    9: stream(font_file, b" /Length1 %d" % len(font_file)),
    10: b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /GHIJKL+Tiny /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>"
        b" /FontDescriptor 11 0 R /CIDToGIDMap /Identity /DW 600 >>",
    11: descriptor(b"GHIJKL+Tiny", 9),
    12: b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /square 13 0 R >>"
        b" /Encoding << /Type /Encoding /Differences [97 /square] >> /FirstChar 97 /LastChar 97 /Widths [1000] >>",
    13: stream(b"1000 0 0 0 1000 1000 d1 0 0 1000 1000 re f"),
    14: stream(b"BT /F5 10 Tf 10 100 Td (In a form) Tj ET", b" /Type /XObject /Subtype /Form /BBox [0 0 300 200] /Resources << /Font << /F5 15 0 R >> >>"),
    15: b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>",
    16: b"<< /Type /Annot /Subtype /FreeText /Rect [150 20 290 60] /Contents (Note) /DA (/F6 10 Tf 0 g) /AP << /N 17 0 R >> >>",
    17: stream(b"BT /F6 10 Tf 5 15 Td (Note) Tj ET", b" /Type /XObject /Subtype /Form /BBox [0 0 140 40] /Resources << /Font << /F6 18 0 R >> >>"),
    18: b"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Bold >>",
}
out, xref = pdf_file(objects)
open("fonts.pdf", "wb").write(out)
PY

# font-loops.pdf: one page whose resources loop: its form XObject X1 names itself among its
# own XObjects (it draws text in Helvetica, never itself), and its Type 3 font names itself
# among its glyphs' fonts and X1 among their XObjects. Two fonts: the Type 3 font and Helvetica.
python3 - <<'PY'
from pdf_writer import pdf_file
def stream(data, extra=b""):
    return b"<< /Length %d" % len(data) + extra + b" >>\nstream\n" + data + b"\nendstream"
objects = {
    1: b"<< /Type /Catalog /Pages 2 0 R >>",
    2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 5 0 R /Resources << /Font << /T3 6 0 R >> /XObject << /X1 4 0 R >> >> >>",
    4: stream(b"BT /F1 10 Tf 10 10 Td (loop) Tj ET", b" /Type /XObject /Subtype /Form /BBox [0 0 200 100] /Resources << /XObject << /X1 4 0 R >> /Font << /F1 7 0 R >> >>"),
    5: stream(b"/X1 Do BT /T3 10 Tf 10 50 Td (a) Tj ET"),
    6: b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /square 8 0 R >>"
       b" /Encoding << /Type /Encoding /Differences [97 /square] >> /FirstChar 97 /LastChar 97 /Widths [1000]"
       b" /Resources << /Font << /T3 6 0 R >> /XObject << /X1 4 0 R >> >> >>",
    7: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    8: stream(b"1000 0 0 0 1000 1000 d1 0 0 1000 1000 re f"),
}
out, xref = pdf_file(objects)
open("font-loops.pdf", "wb").write(out)
PY

# attachments.pdf: one page ("Attachments", Helvetica) and three embedded files:
#   data.csv   in the /EmbeddedFiles name tree, /F only, no parameters, "a,b\n1,2\n" uncompressed;
#   notes.txt  in the name tree (its key after data.csv's), /UF and /F, /Desc "Reading notes",
#              /Params with /Size 22, the MD5 /CheckSum, /CreationDate 2024-01-02T03:04:05Z and
#              /ModDate 2025-06-07T08:09:10Z, "Notes on the fixture.\n" compressed (FlateDecode);
#   ../../evil.txt  in a file-attachment annotation on page 1, /Desc "A name that climbs",
#              "escape attempt\n": a name that must never be written as a path.
python3 - <<'PY'
import hashlib, zlib
from pdf_writer import pdf_file
def stream(data, extra=b""):
    return b"<< /Length %d" % len(data) + extra + b" >>\nstream\n" + data + b"\nendstream"
notes = b"Notes on the fixture.\n"
content = b"BT /F1 24 Tf 72 700 Td (Attachments) Tj ET"
objects = {
    1: b"<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(data.csv) 6 0 R (notes.txt) 8 0 R] >> >> >>",
    2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> /Annots [10 0 R] >>",
    4: stream(content),
    5: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    6: b"<< /Type /Filespec /F (data.csv) /EF << /F 7 0 R >> >>",
    7: stream(b"a,b\n1,2\n", b" /Type /EmbeddedFile"),
    8: b"<< /Type /Filespec /F (notes.txt) /UF (notes.txt) /Desc (Reading notes) /EF << /F 9 0 R >> >>",
    9: stream(zlib.compress(notes), b" /Type /EmbeddedFile /Subtype /text#2Fplain /Filter /FlateDecode /Params << /Size %d /CheckSum <%s>"
             b" /CreationDate (D:20240102030405Z) /ModDate (D:20250607080910Z) >>" % (len(notes), hashlib.md5(notes).hexdigest().encode())),
    10: b"<< /Type /Annot /Subtype /FileAttachment /Rect [72 600 92 620] /Name /PushPin /Contents (Attached) /FS 11 0 R >>",
    11: b"<< /Type /Filespec /F (../../evil.txt) /UF (../../evil.txt) /Desc (A name that climbs) /EF << /F 12 0 R >> >>",
    12: stream(b"escape attempt\n", b" /Type /EmbeddedFile"),
}
out, xref = pdf_file(objects)
open("attachments.pdf", "wb").write(out)
PY

# layers.pdf: one US Letter page with a black square (72,72 100x100) in no layer and four
# optional-content groups, each marking one filled 200x100 rectangle (BDC /OC ... EMC):
#   0 "Red"      red   at 72,600, shown by default;
#   1 "Blue"     blue  at 72,400, hidden by default (the default configuration's /OFF);
#   2 "Légende"  green at 320,600, shown, its name a UTF-16BE text string;
#   3 "Orange (not in Order)"  orange at 320,400, shown, left out of /D /Order (which lists 0-2).
# The default configuration is named "Default view" (creator "make-fixtures.sh"); /Configs
# holds one more, "Everything" (/BaseState /ON).
python3 - <<'PY'
from pdf_writer import pdf_file
def stream(data):
    return b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"
content = (b"0 0 0 rg 72 72 100 100 re f\n"
           b"/OC /oc0 BDC 1 0 0 rg 72 600 200 100 re f EMC\n"
           b"/OC /oc1 BDC 0 0 1 rg 72 400 200 100 re f EMC\n"
           b"/OC /oc2 BDC 0 0.6 0 rg 320 600 200 100 re f EMC\n"
           b"/OC /oc3 BDC 1 0.6 0 rg 320 400 200 100 re f EMC\n")
legende = "L\u00e9gende".encode("utf-16-be").hex().upper().encode()
objects = {
    1: b"<< /Type /Catalog /Pages 2 0 R /OCProperties << /OCGs [5 0 R 6 0 R 7 0 R 8 0 R]"
       b" /D << /Name (Default view) /Creator (make-fixtures.sh) /OFF [6 0 R] /Order [5 0 R 6 0 R 7 0 R] >>"
       b" /Configs [<< /Name (Everything) /BaseState /ON >>] >> >>",
    2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
       b" /Resources << /Properties << /oc0 5 0 R /oc1 6 0 R /oc2 7 0 R /oc3 8 0 R >> >> >>",
    4: stream(content),
    5: b"<< /Type /OCG /Name (Red) >>",
    6: b"<< /Type /OCG /Name (Blue) >>",
    7: b"<< /Type /OCG /Name <FEFF" + legende + b"> >>",
    8: b"<< /Type /OCG /Name (Orange \\(not in Order\\)) >>",
}
out, xref = pdf_file(objects)
open("layers.pdf", "wb").write(out)
PY

# annotation-objects.pdf: one page (612 x 792) whose /Annots is an indirect array of nine
# entries, in this order: a link (5, not listed); a redaction (6) with one quad
# [72 720 144 720 72 700 144 700] and /C an indirect [1 0 0]; a free text (7) named free-1,
# /Rect an indirect [100 500 300 550], /DA (/Cour 9 Tf 0 0 1 rg), /Q 2, /Contents (hello); a
# note (8) answering 7 (/IRT), /T (Ann), /Contents "é" in UTF-16, /Name /Comment, /F 4; a
# square written inside the array (no object), /IC [0 1 0], /BS << /W 3 >>; the note's popup
# (9, not listed); a note (10) answering object 11, an annotation no page lists, with /CA 0.5
# and /Border [0 0 2]; a reference to object 99, which does not exist; the number 42. The API
# lists 6, 7, 8, the square and 10, in that order, through every engine alike.
python3 - <<'PY'
from pdf_writer import pdf_file
objects = {
    1: b"<< /Type /Catalog /Pages 2 0 R >>",
    2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots 4 0 R >>",
    4: b"[5 0 R 6 0 R 7 0 R 8 0 R << /Type /Annot /Subtype /Square /Rect [300 300 400 400] /IC [0 1 0] /BS << /W 3 >> >>"
       b" 9 0 R 10 0 R 99 0 R 42]",
    5: b"<< /Type /Annot /Subtype /Link /Rect [72 72 144 96] /A << /S /URI /URI (https://example.com/) >> >>",
    6: b"<< /Type /Annot /Subtype /Redact /Rect [72 700 144 720] /QuadPoints [72 720 144 720 72 700 144 700] /C 12 0 R >>",
    7: b"<< /Type /Annot /Subtype /FreeText /NM (free-1) /Rect 13 0 R /DA (/Cour 9 Tf 0 0 1 rg) /Q 2 /Contents (hello) >>",
    8: b"<< /Type /Annot /Subtype /Text /Rect [400 600 420 620] /IRT 7 0 R /T (Ann) /Contents <FEFF00E9> /Name /Comment"
       b" /F 4 /Popup 9 0 R >>",
    9: b"<< /Type /Annot /Subtype /Popup /Rect [420 500 560 600] /Parent 8 0 R >>",
    10: b"<< /Type /Annot /Subtype /Text /Rect [400 400 420 420] /IRT 11 0 R /CA 0.5 /Border [0 0 2] >>",
    11: b"<< /Type /Annot /Subtype /Text /Rect [0 0 20 20] >>",
    12: b"[1 0 0]",
    13: b"[100 500 300 550]",
}
out, xref = pdf_file(objects)
open("annotation-objects.pdf", "wb").write(out)
PY

# images.pdf: three US Letter pages whose images cover what `pdfimages -list` lists and what
# it leaves out (object numbers as written here):
#   page 1: image 10 (4 x 2 DeviceRGB, 8 bits, unfiltered) drawn twice, then image.jpg's bytes
#     (306 x 396 RGB, /DCTDecode, object 11), image 12 (4 x 2 RGB, /Interpolate true) with the
#     soft mask 13 (4 x 2 DeviceGray, /FlateDecode), the stencil mask 14 (8 x 2, 1 bit,
#     /Decode [1 0]), the indexed image 15 (8 x 1, 1 bit, red and blue), an inline image
#     (2 x 2, /CS /G, /BPC 8), and form 16, which draws image 10 once more; image 17 is in the
#     page's resources and never drawn: 8 entries;
#   page 2: image 18 (2 x 2 RGB) through its explicit mask 19 (2 x 2 stencil), a tiling pattern
#     (22) whose cell draws image 10 (pdfimages lists no pattern's image), a soft mask set by
#     the graphics state GS0 whose group (23) draws image 10, a square annotation (20) whose
#     appearance (24) draws image 10, a hidden annotation (21, /F 2) whose appearance (25)
#     draws image 17: 4 entries;
#   page 3: image 26 (2 x 2 DeviceCMYK, cyan, magenta, yellow, black), image 27 (2 x 1,
#     /Separation /Spot over DeviceCMYK, tints 0 and 1): 2 entries.
python3 - <<'PY'
import zlib
from pdf_writer import pdf_file
jpeg = open("image.jpg", "rb").read()
def stream(dictionary, data):
    return b"<< " + dictionary + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"
rgb4x2 = bytes([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 128, 128, 128, 255, 255, 0, 0, 255, 255])
page1 = b"""q 40 0 0 20 72 700 cm /Im0 Do Q
q 40 0 0 20 72 650 cm /Im0 Do Q
q 153 0 0 198 72 400 cm /Jpeg Do Q
q 40 0 0 20 300 700 cm /Masked Do Q
0 0 1 rg q 80 0 0 20 300 650 cm /Stencil Do Q
q 80 0 0 10 300 600 cm /Indexed Do Q
q 20 0 0 20 300 550 cm BI /W 2 /H 2 /CS /G /BPC 8 ID \x00\x40\x80\xff EI Q
q 1 0 0 1 300 450 cm /Fm0 Do Q
"""
form = b"q 40 0 0 20 0 0 cm /Im0 Do Q"
page2 = b"""q 20 0 0 20 72 700 cm /Explicit Do Q
q /Pattern cs /P0 scn 72 500 100 100 re f Q
q /GS0 gs 0 0 1 rg 300 500 100 100 re f Q
"""
pattern = b"q 10 0 0 10 0 0 cm /Im0 Do Q"
group = b"q 100 0 0 100 300 500 cm /Im0 Do Q"
appearance = b"q 40 0 0 20 0 0 cm /Im0 Do Q"
hidden = b"q 40 0 0 20 0 0 cm /Unused Do Q"
page3 = b"""q 20 0 0 20 72 700 cm /Cmyk Do Q
q 20 0 0 10 72 650 cm /Spot Do Q
"""
image = lambda extra=b"": b"/Type /XObject /Subtype /Image " + extra
objects = {
    1: b"<< /Type /Catalog /Pages 2 0 R >>",
    2: b"<< /Type /Pages /Count 3 /Kids [3 0 R 4 0 R 5 0 R] >>",
    3: b"""<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 6 0 R
 /Resources << /XObject << /Im0 10 0 R /Jpeg 11 0 R /Masked 12 0 R /Stencil 14 0 R /Indexed 15 0 R /Fm0 16 0 R /Unused 17 0 R >> >> >>""",
    4: b"""<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 7 0 R /Annots [20 0 R 21 0 R]
 /Resources << /XObject << /Explicit 18 0 R >> /Pattern << /P0 22 0 R >>
 /ExtGState << /GS0 << /SMask << /S /Luminosity /G 23 0 R >> >> >> >> >>""",
    5: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 8 0 R /Resources << /XObject << /Cmyk 26 0 R /Spot 27 0 R >> >> >>",
    6: stream(b"", page1),
    7: stream(b"", page2),
    8: stream(b"", page3),
    10: stream(image(b"/Width 4 /Height 2 /ColorSpace /DeviceRGB /BitsPerComponent 8"), rgb4x2),
    11: stream(image(b"/Width 306 /Height 396 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode"), jpeg),
    12: stream(image(b"/Width 4 /Height 2 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Interpolate true /SMask 13 0 R"), rgb4x2),
    13: stream(image(b"/Width 4 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode"),
               zlib.compress(bytes([0, 64, 128, 255, 255, 128, 64, 0]))),
    14: stream(image(b"/Width 8 /Height 2 /ImageMask true /BitsPerComponent 1 /Decode [1 0]"), bytes([0b10101010, 0b11110000])),
    15: stream(image(b"/Width 8 /Height 1 /ColorSpace [/Indexed /DeviceRGB 1 <FF00000000FF>] /BitsPerComponent 1"), bytes([0b11001010])),
    16: stream(b"/Type /XObject /Subtype /Form /BBox [0 0 40 20] /Resources << /XObject << /Im0 10 0 R >> >>", form),
    17: stream(image(b"/Width 4 /Height 2 /ColorSpace /DeviceRGB /BitsPerComponent 8"), rgb4x2[::-1]),
    18: stream(image(b"/Width 2 /Height 2 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Mask 19 0 R"), rgb4x2[:12]),
    19: stream(image(b"/Width 2 /Height 2 /ImageMask true /BitsPerComponent 1"), bytes([0b01000000, 0b10000000])),
    20: b"<< /Type /Annot /Subtype /Square /Rect [72 300 112 320] /F 4 /AP << /N 24 0 R >> >>",
    21: b"<< /Type /Annot /Subtype /Square /Rect [200 300 240 320] /F 2 /AP << /N 25 0 R >> >>",
    22: stream(b"/Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 10 10] /XStep 10 /YStep 10"
               b" /Resources << /XObject << /Im0 10 0 R >> >>", pattern),
    23: stream(b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Group << /S /Transparency /CS /DeviceGray >>"
               b" /Resources << /XObject << /Im0 10 0 R >> >>", group),
    24: stream(b"/Type /XObject /Subtype /Form /BBox [0 0 40 20] /Resources << /XObject << /Im0 10 0 R >> >>", appearance),
    25: stream(b"/Type /XObject /Subtype /Form /BBox [0 0 40 20] /Resources << /XObject << /Unused 17 0 R >> >>", hidden),
    26: stream(image(b"/Width 2 /Height 2 /ColorSpace /DeviceCMYK /BitsPerComponent 8"),
               bytes([255, 0, 0, 0, 0, 255, 0, 0, 0, 0, 255, 0, 0, 0, 0, 255])),
    27: stream(image(b"/Width 2 /Height 1 /ColorSpace [/Separation /Spot /DeviceCMYK << /FunctionType 2 /Domain [0 1] /C0 [0 0 0 0] /C1 [0 1 0 0] /N 1 >>]"
               b" /BitsPerComponent 8"), bytes([0, 255])),
}
open("images.pdf", "wb").write(pdf_file(objects)[0])
PY

# not-a-pdf.pdf: a text file with a .pdf name. empty.pdf: zero bytes.
printf 'This is a plain text file, not a PDF.\nIt only has a .pdf name.\n' > not-a-pdf.pdf
: > empty.pdf

# DiffPairs/: base.pdf and variants that each differ from it in one way its script states
# (a word, a colour, a moved image, an inserted or rotated page, a title, an annotation only
# some engines draw), for the diff and snapshot tests.
python3 DiffPairs/make-diff-pairs.py

# structure.pdf and structure.json: an untagged document of known structure (headings of
# three levels, paragraphs, both kinds of list, a ruled table, two columns) and that
# structure, for the Markdown and HTML tests; make-structure.py states their properties.
python3 make-structure.py .

# tagged.pdf and tagged.json: a tagged document whose structure tree says what its layout does
# not (a heading set as body text, a role-mapped title, a figure's description, paragraphs in
# the tree's order rather than the page's), and that structure; make-tagged.py states them.
python3 make-tagged.py .

# office.pdf, office-tagged.pdf and office.json: a word-processor document written by the
# script and exported by LibreOffice without and with its structure tree, and its structure;
# make-office.py states them (it needs Debian's libreoffice-writer-nogui).
python3 make-office.py .
