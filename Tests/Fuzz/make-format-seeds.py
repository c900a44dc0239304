#!/usr/bin/env python3
"""Writes the seed inputs of the formats fuzz target (FuzzFormats) into a folder: one file
per parser the project wrote itself, each a well-formed example of what that parser reads,
and the hostile shapes the parsers must refuse (an XML entity naming a file, a billion laughs,
UTF-16 XML, FDF that loops). Nothing here is copied from elsewhere.

  make-format-seeds.py FOLDER
"""
import io
import os
import sys
import zipfile

folder = sys.argv[1]
os.makedirs(folder, exist_ok=True)
XFDF = 'xmlns="http://ns.adobe.com/xfdf/"'
seeds = {
    "annotations.xfdf": f'<?xml version="1.0" encoding="UTF-8"?><xfdf {XFDF}><annots>'
    '<square page="0" rect="100,100,180,140" name="s1" color="#FF0000" title="ann"><contents>box</contents></square>'
    '<ink page="0" rect="10,10,60,60" name="i1"><inklist><gesture>10,10;20,30;60,60</gesture></inklist></ink>'
    '<highlight page="0" rect="72,700,300,716" coords="72,716,300,716,72,700,300,700" name="h1"/>'
    '<line page="0" rect="0,0,100,100" start="0,0" end="100,100" name="l1"/>'
    '<polygon page="0" rect="0,0,50,50" name="p1"><vertices>0,0;50,0;25,50</vertices></polygon>'
    "</annots></xfdf>",
    "command.xfdf": f"<xfdf {XFDF}><add><text page=\"0\" rect=\"10,10,30,30\" name=\"n1\"><contents>hi</contents></text></add>"
    "<modify><square page=\"0\" rect=\"1,1,9,9\" name=\"s1\"/></modify><delete><id>s2</id></delete></xfdf>",
    "fields.xfdf": f'<xfdf {XFDF}><fields><field name="person"><field name="name"><value>Ada</value></field></field>'
    '<field name="choices"><value>a</value><value>b</value></field></fields></xfdf>',
    "entity.xfdf": '<?xml version="1.0"?><!DOCTYPE xfdf [<!ENTITY s SYSTEM "file:///etc/hostname">]>'
    f"<xfdf {XFDF}><fields><field name=\"x\"><value>&s;</value></field></fields></xfdf>",
    "laughs.xfdf": '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
    f"<xfdf {XFDF}><fields><field name=\"x\"><value>&b;</value></field></fields></xfdf>",
    "values.fdf": "%FDF-1.2\n1 0 obj\n<< /FDF << /Fields [ << /T (person) /Kids [ << /T (name) /V (Ada \\(A.\\) L\\374) >> ] >>"
    " << /T <63686F69636573> /V [ (a) (b) ] >> << /T (box) /V /On >> ] >> >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
    "loop.fdf": "%FDF-1.2\n1 0 obj\n<< /FDF << /Fields [ 2 0 R ] >> >>\nendobj\n2 0 obj\n<< /T (a) /Kids [ 2 0 R ] >>\nendobj\n"
    "trailer\n<< /Root 1 0 R >>\n%%EOF\n",
    "packet.xmp": '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">'
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about=""'
    ' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" pdf:Producer="seed">'
    '<dc:title><rdf:Alt><rdf:li xml:lang="x-default">A title</rdf:li></rdf:Alt></dc:title>'
    '<dc:creator><rdf:Seq><rdf:li>Ada</rdf:li></rdf:Seq></dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>'
    '<?xpacket end="w"?>',
}
# The collaboration messages, in the API's JSON: a push of each action, the server's answers.
NOTE = ('{"id": "n1", "kind": "Ink", "pageIndex": 0, "rect": {"origin": {"x": 10, "y": 10}, "size": {"width": 50, "height": 50}},'
        ' "inkPaths": [[{"x": 10, "y": 10}, {"x": 60, "y": 60}]], "color": {"red": 1, "green": 0, "blue": 0, "alpha": 1},'
        ' "contents": "seed", "author": "ann"}')
seeds["push.json"] = ('{"changes": [{"operationID": "o1", "action": "add", "annotation": %s},'
                      ' {"operationID": "o2", "action": "modify", "annotation": %s, "baseRevision": 3},'
                      ' {"operationID": "o3", "action": "delete", "annotationID": "n2"}]}' % (NOTE, NOTE))
seeds["answer.json"] = ('{"revision": 4, "results": [{"operationID": "o1", "status": "applied", "revision": 4},'
                        ' {"operationID": "o2", "status": "rejected", "reason": "conflict", "current": {"annotation": %s, "revision": 3}}]}' % NOTE)
seeds["changes.json"] = '{"revision": 4, "added": [{"annotation": %s, "revision": 4}], "updated": [], "deleted": ["n2"]}' % NOTE
seeds["snapshot.json"] = '{"revision": 4, "annotations": [{"annotation": %s, "revision": 4}]}' % NOTE
for name, text in seeds.items():
    with open(os.path.join(folder, name), "w", encoding="utf-8") as out:
        out.write(text)
# XML in UTF-16, which the XML reader refuses rather than search for declarations in it.
with open(os.path.join(folder, "utf16.xfdf"), "wb") as out:
    out.write(seeds["entity.xfdf"].encode("utf-16"))
# ZIP packages the content sniffer tells apart by the names in their central directory.
for name, members in {"book.zip": ["mimetype", "META-INF/container.xml"], "comic.zip": ["001.png", "002.jpg"],
                      "xps.zip": ["FixedDocumentSequence.fdseq", "[Content_Types].xml"]}.items():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as package:
        for member in members:
            package.writestr(member, "application/epub+zip" if member == "mimetype" else "x")
    with open(os.path.join(folder, name), "wb") as out:
        out.write(buffer.getvalue())
print(len(os.listdir(folder)), "seeds in", folder)
