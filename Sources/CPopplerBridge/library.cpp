#include "library.h"

#include <poppler/cpp/poppler-document.h>

namespace cpoppler {

std::mutex &library_lock()
{
	static std::mutex lock;
	return lock;
}

/* poppler-cpp creates Poppler's process-wide parameters when its first document opens and
   destroys them when its last one closes, under poppler-glib's documents too. One small
   document kept open for the life of the process keeps them alive. */
void pin_library()
{
	static const char minimal_pdf[] =
		"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
		"2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
		"trailer<</Root 1 0 R/Size 3>>\n%%EOF\n";
	static poppler::document *pinned = nullptr;
	if (!pinned)
		pinned = poppler::document::load_from_raw_data(minimal_pdf, sizeof minimal_pdf - 1);
}

} // namespace cpoppler
