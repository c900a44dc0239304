// Builds sample.pdf, the project's own demonstration document: `mutool run make-sample.js sample.pdf`.
// Three US Letter pages with text, vector graphics, an image, an outline, an internal and an
// external link, and three annotations (a note, a highlight and a square).

var doc = new PDFDocument();
var font = doc.addSimpleFont(new Font("Helvetica"), "Latin");
var bold = doc.addSimpleFont(new Font("Helvetica-Bold"), "Latin");

// A 96 x 96 RGB gradient image.
var size = 96;
var pixels = new Buffer();
for (var y = 0; y < size; y++)
	for (var x = 0; x < size; x++) {
		pixels.writeByte(Math.floor(255 * x / (size - 1)));
		pixels.writeByte(Math.floor(255 * y / (size - 1)));
		pixels.writeByte(160);
	}
var image = doc.addStream(pixels, { Type: "XObject", Subtype: "Image", Width: size, Height: size, ColorSpace: "DeviceRGB", BitsPerComponent: 8 });

function text(f, sizePt, x, y, line) {
	return "BT /" + f + " " + sizePt + " Tf " + x + " " + y + " Td (" + line + ") Tj ET\n";
}

function paragraph(x, y, lines) {
	var out = "";
	for (var i = 0; i < lines.length; i++) out += text("F1", 12, x, y - 16 * i, lines[i]);
	return out;
}

var resources = { Font: { F1: font, F2: bold }, XObject: { Im1: image } };

var page1 = text("F2", 28, 72, 700, "Renderer Provider Sample") +
	paragraph(72, 660, [
		"This document is drawn by MuPDF or Poppler, chosen at run time.",
		"It has text, vector graphics, an image, an outline, links and annotations.",
		"Go to the conclusion on page 3 (internal link).",
		"Visit https://www.example.org/ (external link).",
	]) +
	"0.85 0.1 0.1 rg 72 420 150 100 re f\n" +
	"0.1 0.6 0.2 rg 240 420 150 100 re f\n" +
	"0.1 0.3 0.85 rg 408 420 132 100 re f\n" +
	"0 0 0 RG 3 w 72 380 m 540 380 l S\n" +
	"0.9 0.7 0 rg 306 250 m 356 250 l 356 277.6 333.6 300 306 300 c 278.4 300 256 277.6 256 250 c 256 222.4 278.4 200 306 200 c 333.6 200 356 222.4 356 250 c f\n";
var page2 = text("F2", 20, 72, 700, "An image") +
	"q 288 0 0 288 162 330 cm /Im1 Do Q\n" +
	paragraph(72, 300, ["A gradient image, 96 x 96 pixels, scaled to four inches.", "This sentence is highlighted."]);
var page3 = text("F2", 20, 72, 700, "Conclusion") +
	paragraph(72, 660, ["Both engines draw this page; compare them with hostapp.", "Back to the first page."]);

var contents = [page1, page2, page3];
for (var i = 0; i < contents.length; i++)
	doc.insertPage(-1, doc.addPage([0, 0, 612, 792], 0, resources, contents[i]));

function link(pageIndex, rect, action) {
	var annot = doc.addObject({ Type: "Annot", Subtype: "Link", Rect: rect, Border: [0, 0, 0] });
	for (var key in action) annot[key] = action[key];
	var page = doc.findPage(pageIndex);
	if (!page.Annots) page.Annots = doc.newArray();
	page.Annots.push(annot);
}
link(0, [72, 625, 330, 639], { Dest: [doc.findPage(2), "XYZ", 0, 792, 0] });
link(0, [72, 609, 320, 623], { A: { S: "URI", URI: doc.newString("https://www.example.org/") } });
link(2, [72, 641, 200, 655], { Dest: [doc.findPage(0), "XYZ", 0, 792, 0] });

// Outline: Introduction, An image (with a child, The highlighted sentence), Conclusion.
var outlines = doc.addObject({ Type: "Outlines" });
function item(title, pageIndex, top) {
	return doc.addObject({ Title: doc.newString(title), Parent: outlines, Dest: [doc.findPage(pageIndex), "XYZ", 0, top, 0] });
}
var intro = item("Introduction", 0, 792), img = item("An image", 1, 792), conclusion = item("Conclusion", 2, 792);
var child = item("The highlighted sentence", 1, 300);
child.Parent = img;
img.First = child; img.Last = child; img.Count = 1;
intro.Next = img; img.Prev = intro; img.Next = conclusion; conclusion.Prev = img;
outlines.First = intro; outlines.Last = conclusion; outlines.Count = 4;
doc.getTrailer().Root.Outlines = outlines;
doc.getTrailer().Info = doc.addObject({ Title: doc.newString("Renderer Provider Sample"), Author: doc.newString("The RendererProvider project") });

// Annotations, with appearance streams so that every viewer shows them. Link rectangles
// above are in PDF user space (y up); these setters take MuPDF page space (y down).
var note = doc.loadPage(0).createAnnotation("Text");
note.setRect([500, 80, 520, 100]);
note.setContents("A note on the title.");
note.setColor([1, 0.8, 0]);
note.update();
var highlight = doc.loadPage(1).createAnnotation("Highlight");
highlight.setColor([1, 1, 0]);
highlight.setQuadPoints([[72, 498, 236, 498, 72, 511, 236, 511]]);
highlight.update();
var square = doc.loadPage(2).createAnnotation("Square");
square.setRect([400, 192, 540, 292]);
square.setColor([0.8, 0, 0]);
square.setBorder(2);
square.update();

doc.save(scriptArgs[0], "compress");
