#ifndef CPOPPLERCPP_CORE_H
#define CPOPPLERCPP_CORE_H

#include <poppler/PDFDoc.h>

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

#endif
