"""Writes the documents the LibreOffice conversion tests read, each built here so that its
content is known:

    python3 make-office-inputs.py OUT_DIR LINK_URL

- letter.docx: a Word document (OOXML written here) of two pages: "Dear Reader of Page One",
  a page break, then "Yours Sincerely Page Two".
- budget.xlsx: a workbook of one sheet holding "Quarterly Budget", "Rent" 1200 and "Heating" 300.
- slides.fodp: an OpenDocument presentation (flat XML) of two slides, "Opening Slide Title"
  and "Closing Slide Title".
- slides.odp: the same two slides as an OpenDocument package, as the specification lays it out
  (an uncompressed `mimetype` entry first, then content.xml and META-INF/manifest.xml).
- linked.docx: a Word document ("Document With A Linked Picture") whose picture is linked,
  not embedded, from LINK_URL: LibreOffice with its default settings asks that address for it
  (`soffice --convert-to pdf` does), so a request reaches it only if the link is followed.
- macro.odt: an OpenDocument text ("Document With A Macro") holding a Basic library whose macro
  writes the file OUT_DIR/macro-ran, bound to the document's loading: LibreOffice opening the
  file in a window with macros allowed runs it (the converter test shows it does), so the
  file exists only if the macro was run.
- broken.docx: letter.docx cut after its first half: a package that says it is a Word
  document (its first parts' names are there) but whose parts and directory are not.
"""
import os
import sys
import zipfile

out, link = sys.argv[1], sys.argv[2]
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"


def package(path, parts):
    with zipfile.ZipFile(os.path.join(out, path), "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in parts.items():
            z.writestr(name, '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' + text)


def word(path, body, relationships=""):
    package(path, {
        "[Content_Types].xml": '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
        "_rels/.rels": f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{REL}/officeDocument" Target="word/document.xml"/></Relationships>',
        "word/_rels/document.xml.rels": f'<Relationships xmlns="{PKG}">{relationships}</Relationships>',
        "word/document.xml": f'<w:document xmlns:w="{W}" xmlns:r="{REL}" '
        'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
        'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
        'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><w:body>' + body + "</w:body></w:document>",
    })


def paragraph(text):
    return f'<w:p><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>'


word("letter.docx", paragraph("Dear Reader of Page One") + '<w:p><w:r><w:br w:type="page"/></w:r></w:p>' + paragraph("Yours Sincerely Page Two"))

picture = ('<w:p><w:r><w:drawing><wp:inline><wp:extent cx="914400" cy="914400"/><wp:docPr id="1" name="Linked"/>'
           '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>'
           '<pic:nvPicPr><pic:cNvPr id="1" name="linked.png"/><pic:cNvPicPr/></pic:nvPicPr>'
           '<pic:blipFill><a:blip r:link="rIdLink"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>'
           '<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="914400" cy="914400"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr>'
           '</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>')
word("linked.docx", paragraph("Document With A Linked Picture") + picture,
     f'<Relationship Id="rIdLink" Type="{REL}/image" Target="{link}" TargetMode="External"/>')

S = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
package("budget.xlsx", {
    "[Content_Types].xml": '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    "_rels/.rels": f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    "xl/workbook.xml": f'<workbook xmlns="{S}" xmlns:r="{REL}"><sheets><sheet name="Budget" sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/worksheets/sheet1.xml": f'<worksheet xmlns="{S}"><sheetData>'
    '<row r="1"><c r="A1" t="inlineStr"><is><t>Quarterly Budget</t></is></c></row>'
    '<row r="2"><c r="A2" t="inlineStr"><is><t>Rent</t></is></c><c r="B2"><v>1200</v></c></row>'
    '<row r="3"><c r="A3" t="inlineStr"><is><t>Heating</t></is></c><c r="B3"><v>300</v></c></row>'
    "</sheetData></worksheet>",
})

PRESENTATION = "application/vnd.oasis.opendocument.presentation"
ODF = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
       'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" '
       'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.3"')


def slide(name, title):
    return (f'<draw:page draw:name="{name}"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" svg:height="3cm">'
            f'<draw:text-box><text:p>{title}</text:p></draw:text-box></draw:frame></draw:page>')


with open(os.path.join(out, "slides.fodp"), "w", encoding="utf-8") as f:
    f.write(f'<?xml version="1.0" encoding="UTF-8"?><office:document {ODF} office:mimetype="{PRESENTATION}">'
            f'<office:body><office:presentation>{slide("one", "Opening Slide Title")}{slide("two", "Closing Slide Title")}'
            '</office:presentation></office:body></office:document>')

with zipfile.ZipFile(os.path.join(out, "slides.odp"), "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr(zipfile.ZipInfo("mimetype"), PRESENTATION, compress_type=zipfile.ZIP_STORED)
    z.writestr("content.xml", f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {ODF}>'
               f'<office:body><office:presentation>{slide("one", "Opening Slide Title")}{slide("two", "Closing Slide Title")}'
               '</office:presentation></office:body></office:document-content>')
    z.writestr("META-INF/manifest.xml", '<?xml version="1.0" encoding="UTF-8"?>'
               '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
               f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{PRESENTATION}"/>'
               '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>')

LIBRARY = '<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE library:library PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "library.dtd">'
MACRO = f'''Sub Main
  Dim n As Integer
  n = FreeFile
  Open "{os.path.join(os.path.abspath(out), "macro-ran")}" For Output As #n
  Print #n, "ran"
  Close #n
End Sub
'''
TEXT = "application/vnd.oasis.opendocument.text"
with zipfile.ZipFile(os.path.join(out, "macro.odt"), "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr(zipfile.ZipInfo("mimetype"), TEXT, compress_type=zipfile.ZIP_STORED)
    z.writestr("content.xml", f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {ODF} '
               'xmlns:script="urn:oasis:names:tc:opendocument:xmlns:script:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:ooo="http://openoffice.org/2004/office" xmlns:dom="http://www.w3.org/2001/xml-events">'
               '<office:scripts><office:event-listeners><script:event-listener script:language="ooo:script" script:event-name="dom:load" '
               'xlink:href="vnd.sun.star.script:Standard.Module1.Main?language=Basic&amp;location=document" xlink:type="simple"/>'
               '</office:event-listeners></office:scripts>'
               '<office:body><office:text><text:p>Document With A Macro</text:p></office:text></office:body></office:document-content>')
    z.writestr("Basic/script-lc.xml", LIBRARY.replace("library:library PUBLIC", "library:libraries PUBLIC").replace("library.dtd", "libraries.dtd")
               + '<library:libraries xmlns:library="http://openoffice.org/2000/library" xmlns:xlink="http://www.w3.org/1999/xlink">'
               '<library:library library:name="Standard" library:link="false"/></library:libraries>')
    z.writestr("Basic/Standard/script-lb.xml", LIBRARY + '<library:library xmlns:library="http://openoffice.org/2000/library" library:name="Standard" '
               'library:readonly="false" library:passwordprotected="false"><library:element library:name="Module1"/></library:library>')
    z.writestr("Basic/Standard/Module1.xml", '<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE script:module PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "module.dtd">'
               '<script:module xmlns:script="http://openoffice.org/2000/script" script:name="Module1" script:language="StarBasic">'
               + MACRO.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;") + "</script:module>")
    z.writestr("META-INF/manifest.xml", '<?xml version="1.0" encoding="UTF-8"?>'
               '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
               f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{TEXT}"/>'
               + "".join(f'<manifest:file-entry manifest:full-path="{part}" manifest:media-type="text/xml"/>'
                         for part in ("content.xml", "Basic/script-lc.xml", "Basic/Standard/script-lb.xml", "Basic/Standard/Module1.xml"))
               + "</manifest:manifest>")

with open(os.path.join(out, "letter.docx"), "rb") as f:
    whole = f.read()
with open(os.path.join(out, "broken.docx"), "wb") as f:
    f.write(whole[: len(whole) // 2])
