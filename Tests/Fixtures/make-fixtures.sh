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

# embedded-encrypted.pdf: one page whose only encrypted part is its embedded file (note.txt):
# the standard security handler V4/R4, user password "embedded-secret", owner password
# "owner-secret", /StmF and /StrF /Identity, /EFF a crypt filter of RC4 (/V2, 128 bits,
# /AuthEvent /EFOpen). MuPDF 1.21 asks for a password to open it; Poppler opens it without one
# (pdfinfo: "Encrypted: no") and reads its page; with the password, qpdf --show-encryption
# says "stream encryption method: none", "file encryption method: RC4". (The same file with
# /StmF set to that filter is decrypted by qpdf to the attachment's text, which checks the
# keys computed here: PDF 1.7's algorithms 1 to 5.)
python3 - <<'PY'
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
out = bytearray(b"%PDF-1.6\n%\xe2\xe3\xcf\xd3\n")
offsets = []
for number, body in enumerate(objects, 1):
    offsets.append(len(out)); out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
xref = len(out)
out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
for offset in offsets: out += b"%010d 00000 n \n" % offset
out += b"trailer\n<< /Size %d /Root 1 0 R /Encrypt 8 0 R /ID [<" % (len(objects) + 1) + h(id0) + b"> <" + h(id0) + b">] >>\nstartxref\n%d\n%%%%EOF\n" % xref
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

# not-a-pdf.pdf: a text file with a .pdf name. empty.pdf: zero bytes.
printf 'This is a plain text file, not a PDF.\nIt only has a .pdf name.\n' > not-a-pdf.pdf
: > empty.pdf
