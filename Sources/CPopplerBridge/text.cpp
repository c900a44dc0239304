#include "core.h"

#include <poppler/UTF.h>
#include <poppler/goo/gmem.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

/* PDF text strings to and from UTF-8, for the bridge's readers and writers. */

namespace cpoppler {

namespace {

/* UCS-4 code points as UTF-8. */
std::string utf8(const Unicode *text, int length)
{
	std::string out;
	for (int i = 0; i < length; i++) {
		Unicode c = text[i];
		if (c < 0x80) {
			out += static_cast<char>(c);
		} else if (c < 0x800) {
			out += static_cast<char>(0xC0 | (c >> 6));
			out += static_cast<char>(0x80 | (c & 0x3F));
		} else if (c < 0x10000) {
			out += static_cast<char>(0xE0 | (c >> 12));
			out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
			out += static_cast<char>(0x80 | (c & 0x3F));
		} else if (c < 0x110000) {
			out += static_cast<char>(0xF0 | (c >> 18));
			out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
			out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
			out += static_cast<char>(0x80 | (c & 0x3F));
		}
	}
	return out;
}

} // namespace

char *copy_text(const Object &value)
{
	std::string text;
	if (value.isName()) {
		text = value.getName();
	} else if (value.isString()) {
		Unicode *ucs4 = nullptr;
		int length = TextStringToUCS4(value.getString()->toStr(), &ucs4);
		text = utf8(ucs4, length);
		gfree(ucs4);
	} else {
		return nullptr;
	}
	char *copy = strdup(text.c_str());
	if (!copy)
		throw std::bad_alloc();
	return copy;
}

char *copy_text(const Object &dict, const char *key)
{
	return copy_text(dict.dictLookup(key));
}

std::unique_ptr<GooString> utf16_text(const char *text)
{
	return utf8ToUtf16WithBom(text ? text : "");
}

} // namespace cpoppler
