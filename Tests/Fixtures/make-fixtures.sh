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

# not-a-pdf.pdf: a text file with a .pdf name. empty.pdf: zero bytes.
printf 'This is a plain text file, not a PDF.\nIt only has a .pdf name.\n' > not-a-pdf.pdf
: > empty.pdf
