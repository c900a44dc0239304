#ifndef CPOPPLERCPP_CORE_H
#define CPOPPLERCPP_CORE_H

#include <poppler/PDFDoc.h>
#include <poppler/Stream.h>

#include <memory>
#include <optional>
#include <vector>

/* A core document, with the bytes it was opened from (declared first: they must outlive it). */
struct cpoppler_core {
	std::vector<char> bytes;
	std::unique_ptr<PDFDoc> doc;
	std::optional<GooString> password;
	bool reconstructed = false;
};

namespace cpoppler {

/* The password as Poppler takes it; none for NULL. */
std::optional<GooString> password_of(const char *password);

/* `doc` when its document opened, else NULL (and `doc` deleted). */
cpoppler_core *checked(cpoppler_core *doc);

/* Writes the document with its changes to `out`: the original bytes and an incremental
   update, or a complete rewrite. Returns Poppler's error code. */
int write_document(cpoppler_core *doc, OutStream *out, bool rewrite);

} // namespace cpoppler

#endif
