#include "CPopplerCore.h"
#include "core.h"

#include <poppler/Dict.h>
#include <poppler/XRef.h>

#include <cstdlib>
#include <cstring>
#include <new>

/* The Info dictionary, read and written, and the catalog's XMP packet, read, through Poppler's
   core API (a packet is written above the engines, over the PDF-object primitives).
   Catalog::readMetadata keeps the first stream it read, so the packet is looked up in the
   catalog each time. */

extern "C" cpoppler_status cpoppler_core_set_info(cpoppler_core *doc, const char *key, const char *value)
{
	try {
		/* PDFDoc takes the string and removes the entry for NULL. */
		doc->doc->setDocInfoStringEntry(key, value ? cpoppler::pdf_text(value) : nullptr);
	} catch (const std::bad_alloc &) {
		return CPOPPLER_OUT_OF_MEMORY;
	}
	return CPOPPLER_OK;
}

extern "C" int cpoppler_core_xmp(cpoppler_core *doc, char **bytes, long *length)
{
	*bytes = nullptr;
	*length = 0;
	Object catalog = doc->doc->getXRef()->getCatalog();
	if (!catalog.isDict())
		return -1;
	Object metadata = catalog.dictLookup("Metadata");
	if (!metadata.isStream())
		return 0;
	std::vector<unsigned char> packet = metadata.getStream()->toUnsignedChars();
	metadata.streamClose();
	*bytes = static_cast<char *>(std::malloc(packet.empty() ? 1 : packet.size()));
	if (!*bytes)
		return -1;
	std::memcpy(*bytes, packet.data(), packet.size());
	*length = static_cast<long>(packet.size());
	return 1;
}
