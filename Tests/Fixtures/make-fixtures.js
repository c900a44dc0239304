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

makeText();
makeMixedSizes();
makeRotated();
makeCropBox();
makeColors();
makeMetadata();
makeLabels();
