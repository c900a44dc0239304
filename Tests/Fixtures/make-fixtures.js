// Builds the test fixtures with MuPDF's scripting host: `mutool run make-fixtures.js OUTDIR`.
// Each function below states the properties its file is built to have; the Swift tests hold
// the same numbers in Tests/ConformanceTests/FixtureFacts.swift. Geometry in these comments
// is in page space (points, origin at the top-left of the displayed page, y down) unless
// it says "user space" (the PDF's own y-up coordinates).

var outDir = scriptArgs[0];

function newDocument() {
	var doc = new PDFDocument();
	return { doc: doc, helvetica: doc.addSimpleFont(new Font("Helvetica"), "Latin") };
}

function addPage(f, box, rotate, content, extraResources) {
	var resources = { Font: { F1: f.helvetica } };
	for (var key in extraResources) resources[key] = extraResources[key];
	f.doc.insertPage(-1, f.doc.addPage(box, rotate, resources, content));
}

// A filled rectangle given in page space on a page `pageHeight` points tall (unrotated).
function fill(rgb, x, y, w, h, pageHeight) {
	return rgb.join(" ") + " rg " + x + " " + (pageHeight - y - h) + " " + w + " " + h + " re f\n";
}

function save(f, name) {
	f.doc.save(outDir + "/" + name, "");
}

// text.pdf: three US Letter pages (612 x 792), no rotation, Helvetica 12 pt text:
//   page 1: "The quick brown fox jumps over the lazy dog" at user-space baseline (72, 720)
//   page 2: "Renderer provider fixture page two" at user-space baseline (72, 720)
//   page 3: "Third page" at user-space baseline (72, 720)
function makeText() {
	var f = newDocument();
	var lines = ["The quick brown fox jumps over the lazy dog", "Renderer provider fixture page two", "Third page"];
	for (var i = 0; i < lines.length; i++)
		addPage(f, [0, 0, 612, 792], 0, "BT /F1 12 Tf 72 720 Td (" + lines[i] + ") Tj ET\n");
	save(f, "text.pdf");
}

// annotations.pdf: one 612 x 792 page whose /Annots array holds annotation dictionaries
// written out by hand, without appearance streams, in this order (rectangles in user space):
//   1. Text, /NM "note-1", Rect 72 700 92 720, yellow /C, /Contents "A note", /T "Ada",
//      /Subj "Greeting", /Name /Comment, /F 4 (print), /CreationDate D:20240102030405Z,
//      /M D:20240203040506Z, with a Popup (2.), which lists as part of it
//   3. Highlight, unnamed, Rect 70 716 300 732, /QuadPoints 72 732 300 732 72 716 300 716,
//      yellow, /Contents "marked", /F 4
//   4. Link to https://example.org/, Rect 72 500 200 520 (links API, not listed)
//   5. Square, /NM "box", Rect 300 300 400 360, blue /C, red /IC, /BS /W 3, /F 4
//   6. Ink, unnamed, Rect 100 100 200 200, one stroke 110 110, 150 190, 190 110, green, /BS /W 2
//   7. Line, /NM "line-1", Rect 300 100 500 200, /L 310 110 490 190, red, /BS /W 1.5
//   8. PolyLine, unnamed, Rect 50 300 250 400, /Vertices 60 310 150 390 240 310
//   9. Caret, /NM "caret", Rect 400 720 410 730 (read-only kind)
//  10. FileAttachment, unnamed, Rect 500 700 520 720, a file specification of note.txt with
//      no embedded file (read-only kind)
//  11. Highlight, unnamed, Rect 70 600 200 616, /QuadPoints 72 616 200 616 72 600 200 600
// Unnamed annotations are known by positional keys: p1-Highlight-1, p1-Ink-1, p1-PolyLine-1,
// p1-FileAttachment-1 and p1-Highlight-2.
function makeAnnotations() {
	var f = newDocument();
	addPage(f, [0, 0, 612, 792], 0, "BT /F1 12 Tf 72 720 Td (Annotated page) Tj ET\n");
	var d = f.doc;
	var page = d.findPage(0);
	function s(text) { return d.newString(text); }
	var note = d.addObject({
		Type: "Annot", Subtype: "Text", NM: s("note-1"), Rect: [72, 700, 92, 720], C: [1, 1, 0],
		Contents: s("A note"), T: s("Ada"), Subj: s("Greeting"), Name: "Comment", F: 4,
		CreationDate: s("D:20240102030405Z"), M: s("D:20240203040506Z"), P: page,
	});
	var popup = d.addObject({ Type: "Annot", Subtype: "Popup", Rect: [100, 600, 300, 700], Parent: note, P: page });
	note.Popup = popup;
	page.Annots = [
		note, popup,
		d.addObject({ Type: "Annot", Subtype: "Highlight", Rect: [70, 716, 300, 732], QuadPoints: [72, 732, 300, 732, 72, 716, 300, 716], C: [1, 1, 0], Contents: s("marked"), F: 4, P: page }),
		d.addObject({ Type: "Annot", Subtype: "Link", Rect: [72, 500, 200, 520], A: { S: "URI", URI: s("https://example.org/") }, P: page }),
		d.addObject({ Type: "Annot", Subtype: "Square", NM: s("box"), Rect: [300, 300, 400, 360], C: [0, 0, 1], IC: [1, 0, 0], BS: { W: 3 }, F: 4, P: page }),
		d.addObject({ Type: "Annot", Subtype: "Ink", Rect: [100, 100, 200, 200], InkList: [[110, 110, 150, 190, 190, 110]], C: [0, 1, 0], BS: { W: 2 }, P: page }),
		d.addObject({ Type: "Annot", Subtype: "Line", NM: s("line-1"), Rect: [300, 100, 500, 200], L: [310, 110, 490, 190], C: [1, 0, 0], BS: { W: 1.5 }, P: page }),
		d.addObject({ Type: "Annot", Subtype: "PolyLine", Rect: [50, 300, 250, 400], Vertices: [60, 310, 150, 390, 240, 310], C: [0, 0, 0], P: page }),
		d.addObject({ Type: "Annot", Subtype: "Caret", NM: s("caret"), Rect: [400, 720, 410, 730], P: page }),
		d.addObject({ Type: "Annot", Subtype: "FileAttachment", Rect: [500, 700, 520, 720], FS: { Type: "Filespec", F: s("note.txt") }, Name: "Paperclip", P: page }),
		d.addObject({ Type: "Annot", Subtype: "Highlight", Rect: [70, 600, 200, 616], QuadPoints: [72, 616, 200, 616, 72, 600, 200, 600], C: [1, 1, 0], P: page }),
	];
	save(f, "annotations.pdf");
}

// mixed-sizes.pdf: five pages of different sizes, no rotation, each with one line of text:
//   612 x 792, 595.28 x 841.89, 841.89 x 595.28, 200 x 100, 1000 x 300.
function makeMixedSizes() {
	var f = newDocument();
	var sizes = [[612, 792], [595.28, 841.89], [841.89, 595.28], [200, 100], [1000, 300]];
	for (var i = 0; i < sizes.length; i++)
		addPage(f, [0, 0, sizes[i][0], sizes[i][1]], 0, "BT /F1 10 Tf 10 10 Td (Size " + (i + 1) + ") Tj ET\n");
	save(f, "mixed-sizes.pdf");
}

// rotated.pdf: four 612 x 792 pages with /Rotate 0, 90, 180 and 270. Each page fills the
// user-space rectangle (0, 0)-(100, 50), the bottom-left corner of the unrotated page, with
// pure red (255, 0, 0). Displayed, that rectangle lands in page space at
//   rotate 0:   x 0..100,   y 742..792  (page 612 x 792)
//   rotate 90:  x 0..50,    y 0..100    (page 792 x 612)
//   rotate 180: x 512..612, y 0..50     (page 612 x 792)
//   rotate 270: x 742..792, y 512..612  (page 792 x 612)
function makeRotated() {
	var f = newDocument();
	var rotations = [0, 90, 180, 270];
	for (var i = 0; i < rotations.length; i++)
		addPage(f, [0, 0, 612, 792], rotations[i], "1 0 0 rg 0 0 100 50 re f\nBT /F1 24 Tf 200 400 Td (Rotate " + rotations[i] + ") Tj ET\n");
	save(f, "rotated.pdf");
}

// cropbox.pdf: one page, media box (0 0 612 792), crop box (100 100 400 500), so the page
// shows 300 x 400 points. Pure red fills user space (100, 100)-(200, 150), which is page
// space x 0..100, y 350..400; pure blue fills user space (0, 0)-(100, 100), outside the crop
// box, so it never shows.
function makeCropBox() {
	var f = newDocument();
	addPage(f, [0, 0, 612, 792], 0, "1 0 0 rg 100 100 100 50 re f\n0 0 1 rg 0 0 100 100 re f\n");
	var page = f.doc.findPage(0);
	page.CropBox = [100, 100, 400, 500];
	save(f, "cropbox.pdf");
}

// boxes.pdf: four pages whose boxes exercise the PDF's inheritance, defaults and clipping
// (user space, [x0 y0 x1 y1]). The page tree's root has /MediaBox [0 0 600 800], which pages
// 1, 2 and 4 inherit.
//   page 1: /CropBox [20 30 580 770], /BleedBox [10 20 590 780], /TrimBox [40 50 560 750],
//           /ArtBox [60 70 540 730].
//   page 2: no box of its own: all five are [0 0 600 800].
//   page 3: /MediaBox [0 0 300 400] of its own; /CropBox [-50 -50 350 450], cut to the media
//           box; /TrimBox [100 100 500 500], cut to [100 100 300 400]; bleed and art boxes
//           default to the (cut) crop box.
//   page 4: /Rotate 90, /CropBox [20 30 580 770], /TrimBox written upside down as
//           [560 750 40 50] (the same rectangle as page 1's).
// Each page shows "Boxes" in Helvetica 12 pt at user-space baseline (100, 200), inside its crop
// box, and a red square at user space (2, 2)-(12, 12), outside the crop box of pages 1 and 4.
function makeBoxes() {
	var f = newDocument();
	for (var i = 0; i < 4; i++) addPage(f, [0, 0, 600, 800], i == 3 ? 90 : 0, "BT /F1 12 Tf 100 200 Td (Boxes) Tj ET\n1 0 0 rg 2 2 10 10 re f\n");
	f.doc.getTrailer().Root.Pages.MediaBox = [0, 0, 600, 800];
	var pages = [0, 1, 2, 3].map(function (i) { return f.doc.findPage(i); });
	pages.forEach(function (page) { page.delete("MediaBox"); });
	pages[0].CropBox = [20, 30, 580, 770];
	pages[0].BleedBox = [10, 20, 590, 780];
	pages[0].TrimBox = [40, 50, 560, 750];
	pages[0].ArtBox = [60, 70, 540, 730];
	pages[2].MediaBox = [0, 0, 300, 400];
	pages[2].CropBox = [-50, -50, 350, 450];
	pages[2].TrimBox = [100, 100, 500, 500];
	pages[3].CropBox = [20, 30, 580, 770];
	pages[3].TrimBox = [560, 750, 40, 50];
	save(f, "boxes.pdf");
}

// colors.pdf: one 612 x 792 page, white, with solid rectangles (page space x, y, w, h):
//   red    (255, 0, 0)     at  72,  72, 144, 144
//   green  (0, 255, 0)     at 252,  72, 144, 144
//   blue   (0, 0, 255)     at 432,  72, 108, 144
//   black  (0, 0, 0)       at  72, 288, 144, 144
//   yellow (255, 255, 0)   at 252, 288, 144, 144
//   gray   DeviceGray 0.2 = (51, 51, 51) at 432, 288, 108, 144
function makeColors() {
	var f = newDocument();
	var h = 792;
	var content = fill([1, 0, 0], 72, 72, 144, 144, h) + fill([0, 1, 0], 252, 72, 144, 144, h) +
		fill([0, 0, 1], 432, 72, 108, 144, h) + fill([0, 0, 0], 72, 288, 144, 144, h) +
		fill([1, 1, 0], 252, 288, 144, 144, h) +
		"0.2 g 432 " + (h - 288 - 144) + " 108 144 re f\n";
	addPage(f, [0, 0, 612, 792], 0, content);
	save(f, "colors.pdf");
}

// metadata.pdf: one page and an Info dictionary with
//   Title "Fixture Metadata: ünïcødé", Author "Ada Lovelace", Subject "Renderer fixtures",
//   Keywords "pdf, fixture, metadata", Creator "make-fixtures.js", Producer "mutool run",
//   CreationDate D:20240102030405+01'00' (2024-01-02T02:04:05Z),
//   ModDate D:20250607080910Z (2025-06-07T08:09:10Z).
function makeMetadata() {
	var f = newDocument();
	addPage(f, [0, 0, 612, 792], 0, "BT /F1 12 Tf 72 720 Td (Metadata) Tj ET\n");
	var info = f.doc.addObject({
		Title: f.doc.newString("Fixture Metadata: \u00fcn\u00efc\u00f8d\u00e9"),
		Author: f.doc.newString("Ada Lovelace"),
		Subject: f.doc.newString("Renderer fixtures"),
		Keywords: f.doc.newString("pdf, fixture, metadata"),
		Creator: f.doc.newString("make-fixtures.js"),
		Producer: f.doc.newString("mutool run"),
		CreationDate: f.doc.newString("D:20240102030405+01'00'"),
		ModDate: f.doc.newString("D:20250607080910Z"),
	});
	f.doc.getTrailer().Info = info;
	save(f, "metadata.pdf");
}

// metadata-xmp.pdf: one page, an Info dictionary with Title "Old title", Author "Old author",
// Producer "mutool run", and an uncompressed XMP packet in the catalog's /Metadata that
// holds the facts in each form XMP allows, across three rdf:Description elements:
//   1. dc:title (rdf:Alt, x-default "Old title") and dc:creator (rdf:Seq, "Old author") as
//      elements, beside dc:rights (rdf:Alt, x-default "Fixture rights"), which is no fact;
//   2. xmp:CreatorTool "make-fixtures.js" and pdf:Producer "mutool run" as attributes only;
//   3. properties of other schemas: pdfaid:part 2 (the PDF/A identification schema) and
//      fx:project "renderer-provider" in the namespace http://example.org/ns/fixture/.
function makeMetadataXMP() {
	var f = newDocument();
	addPage(f, [0, 0, 612, 792], 0, "BT /F1 12 Tf 72 720 Td (Metadata in XMP) Tj ET\n");
	f.doc.getTrailer().Info = f.doc.addObject({
		Title: f.doc.newString("Old title"),
		Author: f.doc.newString("Old author"),
		Producer: f.doc.newString("mutool run"),
	});
	var packet = [
		'<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>',
		'<x:xmpmeta xmlns:x="adobe:ns:meta/">',
		' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
		'  <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">',
		'   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Old title</rdf:li></rdf:Alt></dc:title>',
		'   <dc:creator><rdf:Seq><rdf:li>Old author</rdf:li></rdf:Seq></dc:creator>',
		'   <dc:rights><rdf:Alt><rdf:li xml:lang="x-default">Fixture rights</rdf:li></rdf:Alt></dc:rights>',
		'  </rdf:Description>',
		'  <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/"',
		'    xmp:CreatorTool="make-fixtures.js" pdf:Producer="mutool run"/>',
		'  <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" xmlns:fx="http://example.org/ns/fixture/">',
		'   <pdfaid:part>2</pdfaid:part>',
		'   <fx:project>renderer-provider</fx:project>',
		'  </rdf:Description>',
		' </rdf:RDF>',
		'</x:xmpmeta>',
		'<?xpacket end="w"?>',
	].join("\n");
	f.doc.getTrailer().Root.Metadata = f.doc.addStream(packet, { Type: f.doc.newName("Metadata"), Subtype: f.doc.newName("XML") });
	save(f, "metadata-xmp.pdf");
}

// labels.pdf: nine pages with a /PageLabels number tree:
//   pages 0-1 lower roman (i, ii); pages 2-3 decimal (1, 2); pages 4-5 prefix "A-", decimal
//   from 7; page 6 prefix "Cover" and no style (Cover); pages 7-8 upper letters
//   from 26 (Z, AA).
function makeLabels() {
	var f = newDocument();
	for (var i = 0; i < 9; i++)
		addPage(f, [0, 0, 300, 300], 0, "BT /F1 12 Tf 20 20 Td (Page index " + i + ") Tj ET\n");
	var d = f.doc;
	var nums = [
		0, { S: "r" },
		2, { S: "D" },
		4, { S: "D", P: d.newString("A-"), St: 7 },
		6, { P: d.newString("Cover") },
		7, { S: "A", St: 26 },
	];
	d.getTrailer().Root.PageLabels = d.addObject({ Nums: nums });
	save(f, "labels.pdf");
}

// search.pdf: three 612 x 792 pages of Helvetica 12 pt, baselines at user-space y 700 (and 680):
//   page 0: "Apple apple APPLE pineapple"
//   page 1: "apple pie and apples"
//   page 2: "Banana split ends one" / next line "line of text"
// "apple" matches 6 times ignoring case (4 on page 0, 2 on page 1), 4 times case-sensitively,
// 4 times as a whole word ignoring case, 2 times as a whole word with case; "one line" once,
// across the two lines of page 2.
function makeSearch() {
	var f = newDocument();
	addPage(f, [0, 0, 612, 792], 0, "BT /F1 12 Tf 72 700 Td (Apple apple APPLE pineapple) Tj ET\n");
	addPage(f, [0, 0, 612, 792], 0, "BT /F1 12 Tf 72 700 Td (apple pie and apples) Tj ET\n");
	addPage(f, [0, 0, 612, 792], 0, "BT /F1 12 Tf 72 700 Td (Banana split ends one) Tj 0 -20 Td (line of text) Tj ET\n");
	save(f, "search.pdf");
}

function outlineItem(d, fields) {
	var item = d.addObject({});
	for (var key in fields) item[key] = fields[key];
	return item;
}

function chain(parent, items) {
	for (var i = 0; i < items.length; i++) {
		items[i].Parent = parent;
		if (i > 0) items[i].Prev = items[i - 1];
		if (i + 1 < items.length) items[i].Next = items[i + 1];
	}
	parent.First = items[0];
	parent.Last = items[items.length - 1];
}

// outline.pdf: four 612 x 792 pages; a named destination "sec12" = page 2, user-space top 400;
// the outline (destinations in page space):
//   Chapter 1 (open)     -> page 0 (0, 0)
//     Section 1.1        -> page 1 (72, 292)
//     Section 1.2        -> named "sec12": page 2 (0, 392)
//   Chapter 2 (closed)   -> page 3, Fit (no point)
//     Section 2.1        -> page 3, FitH 600: (0, 192)
//   Website              -> https://example.org/
// and links on page 0 (page space x, y, w, h):
//   72, 72, 128, 20  -> page 3 (0, 0)
//   72, 122, 178, 20 -> https://example.org/docs
//   72, 172, 128, 20 -> named "sec12": page 2 (0, 392)
function makeOutline() {
	var f = newDocument();
	for (var i = 0; i < 4; i++)
		addPage(f, [0, 0, 612, 792], 0, "BT /F1 24 Tf 72 740 Td (Outline page " + (i + 1) + ") Tj ET\n");
	var d = f.doc;
	var page = function (i) { return d.findPage(i); };
	d.getTrailer().Root.Names = d.addObject({ Dests: d.addObject({ Names: [d.newString("sec12"), [page(2), "XYZ", 0, 400, null]] }) });
	var outlines = d.addObject({ Type: "Outlines" });
	var c1 = outlineItem(d, { Title: d.newString("Chapter 1"), Dest: [page(0), "XYZ", 0, 792, 0], Count: 2 });
	var s11 = outlineItem(d, { Title: d.newString("Section 1.1"), Dest: [page(1), "XYZ", 72, 500, 0] });
	var s12 = outlineItem(d, { Title: d.newString("Section 1.2"), Dest: d.newString("sec12") });
	var c2 = outlineItem(d, { Title: d.newString("Chapter 2"), Dest: [page(3), "Fit"], Count: -1 });
	var s21 = outlineItem(d, { Title: d.newString("Section 2.1"), Dest: [page(3), "FitH", 600] });
	var web = outlineItem(d, { Title: d.newString("Website"), A: { S: "URI", URI: d.newString("https://example.org/") } });
	chain(outlines, [c1, c2, web]);
	chain(c1, [s11, s12]);
	chain(c2, [s21]);
	outlines.Count = 4;
	d.getTrailer().Root.Outlines = outlines;
	page(0).Annots = [
		d.addObject({ Type: "Annot", Subtype: "Link", Rect: [72, 700, 200, 720], Border: [0, 0, 0], Dest: [page(3), "XYZ", 0, 792, 0] }),
		d.addObject({ Type: "Annot", Subtype: "Link", Rect: [72, 650, 250, 670], Border: [0, 0, 0], A: { S: "URI", URI: d.newString("https://example.org/docs") } }),
		d.addObject({ Type: "Annot", Subtype: "Link", Rect: [72, 600, 200, 620], Border: [0, 0, 0], Dest: d.newString("sec12") }),
	];
	save(f, "outline.pdf");
}

// outline-cycle.pdf: one page; outline A, B, C where C's /Next leads back to A, B's only
// child B1 has /Next pointing to itself and /First pointing back to B. Read with cycles cut
// where they close: A, B (child B1, no children), C.
function makeOutlineCycle() {
	var f = newDocument();
	addPage(f, [0, 0, 612, 792], 0, "BT /F1 24 Tf 72 740 Td (Circular outline) Tj ET\n");
	var d = f.doc;
	var dest = [d.findPage(0), "XYZ", 0, 792, 0];
	var outlines = d.addObject({ Type: "Outlines" });
	var a = outlineItem(d, { Title: d.newString("A"), Dest: dest });
	var b = outlineItem(d, { Title: d.newString("B"), Dest: dest, Count: 1 });
	var c = outlineItem(d, { Title: d.newString("C"), Dest: dest });
	var b1 = outlineItem(d, { Title: d.newString("B1"), Dest: dest });
	chain(outlines, [a, b, c]);
	c.Next = a;
	chain(b, [b1]);
	b1.Next = b1;
	b1.First = b;
	b1.Last = b;
	outlines.Count = 4;
	d.getTrailer().Root.Outlines = outlines;
	save(f, "outline-cycle.pdf");
}

// outline-deep.pdf: one page; an outline 150 levels deep, "Level 1" holding "Level 2" and so
// on, all open. Outlines are cut at 100 levels: "Level 1" to "Level 100" are read.
function makeOutlineDeep() {
	var f = newDocument();
	addPage(f, [0, 0, 612, 792], 0, "BT /F1 24 Tf 72 740 Td (Deep outline) Tj ET\n");
	var d = f.doc;
	var dest = [d.findPage(0), "XYZ", 0, 792, 0];
	var parent = d.addObject({ Type: "Outlines", Count: 150 });
	d.getTrailer().Root.Outlines = parent;
	for (var level = 1; level <= 150; level++) {
		var item = outlineItem(d, { Title: d.newString("Level " + level), Dest: dest, Count: 150 - level });
		chain(parent, [item]);
		parent = item;
	}
	save(f, "outline-deep.pdf");
}

// long.pdf: 100 pages of 200 x 200 points that share one font (Helvetica) and one image
// XObject /Im1: 2 x 2 pixels, red and green on top, blue and yellow below, drawn as a
// 50 x 50 point square with its top-left corner at (20, 20) in page space. Page i (from 1)
// also says "Page i" at user-space baseline (20, 100).
function makeLong() {
	var f = newDocument();
	var d = f.doc;
	var pixels = new Buffer();
	[255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0].forEach(function (b) { pixels.writeByte(b); });
	var image = d.addStream(pixels, {
		Type: "XObject", Subtype: "Image", Width: 2, Height: 2, ColorSpace: "DeviceRGB", BitsPerComponent: 8,
	});
	for (var i = 1; i <= 100; i++)
		addPage(f, [0, 0, 200, 200], 0,
			"q 50 0 0 50 20 130 cm /Im1 Do Q BT /F1 12 Tf 20 100 Td (Page " + i + ") Tj ET\n",
			{ XObject: { Im1: image } });
	save(f, "long.pdf");
}

makeText();
makeAnnotations();
makeSearch();
makeOutline();
makeOutlineCycle();
makeOutlineDeep();
makeMixedSizes();
makeRotated();
makeCropBox();
makeBoxes();
makeColors();
makeMetadata();
makeMetadataXMP();
makeLabels();
makeLong();
