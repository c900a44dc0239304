#include "CPopplerCore.h"
#include "core.h"

#include <poppler/Page.h>
#include <poppler/TextOutputDev.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

/* What poppler-glib does not tell of a document: encryption, each page's /Rotate and boxes,
   and its text as pdftotext writes it: a text device in reading order over the media box at
   72 dpi, without the form feed that ends each page. */

namespace {

void append_text(void *stream, const char *text, int length)
{
	static_cast<std::string *>(stream)->append(text, static_cast<size_t>(length));
}

} // namespace

extern "C" int cpoppler_core_is_encrypted(cpoppler_core *doc)
{
	return doc->doc->isEncrypted() ? 1 : 0;
}

extern "C" int cpoppler_core_page_count(cpoppler_core *doc)
{
	return doc->doc->getNumPages();
}

extern "C" int cpoppler_core_page_rotation(cpoppler_core *doc, int index)
{
	Page *page = doc->doc->getPage(index + 1);
	if (!page)
		return 0;
	int rotate = ((page->getRotate() % 360) + 360) % 360;
	return (90 * ((rotate + 45) / 90)) % 360;
}

extern "C" int cpoppler_core_page_boxes(cpoppler_core *doc, int index, double boxes[20])
{
	Page *page = doc->doc->getPage(index + 1);
	if (!page)
		return 0;
	const PDFRectangle *all[5] = { page->getMediaBox(), page->getCropBox(), page->getBleedBox(), page->getTrimBox(), page->getArtBox() };
	for (int i = 0; i < 5; i++) {
		boxes[4 * i] = all[i]->x1, boxes[4 * i + 1] = all[i]->y1;
		boxes[4 * i + 2] = all[i]->x2, boxes[4 * i + 3] = all[i]->y2;
	}
	return 1;
}

extern "C" char *cpoppler_core_page_text(cpoppler_core *doc, int index)
{
	try {
		if (!doc->doc->getPage(index + 1))
			return nullptr;
		std::string text;
		TextOutputDev device(append_text, &text, false, 0, false, false);
		if (!device.isOk())
			return nullptr;
		doc->doc->displayPage(&device, index + 1, 72, 72, 0, true, false, false);
		if (!text.empty() && text.back() == '\f')
			text.pop_back();
		char *copy = static_cast<char *>(std::malloc(text.size() + 1));
		if (!copy)
			return nullptr;
		std::memcpy(copy, text.data(), text.size());
		copy[text.size()] = 0;
		return copy;
	} catch (const std::bad_alloc &) {
		return nullptr;
	}
}
