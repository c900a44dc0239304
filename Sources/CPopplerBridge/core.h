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

/* An output stream that hands everything Poppler writes, formatted text included, to
   append(), counting what it took. */
class AppendingOutStream : public OutStream
{
public:
	void close() override { }
	Goffset getPos() override { return written; }
	void put(char c) override { take(&c, 1); }
	void printf(const char *format, ...) override;

protected:
	/* Keeps `count` bytes; returns false when they could not be kept. */
	virtual bool append(const char *data, size_t count) = 0;

private:
	void take(const char *data, size_t count)
	{
		if (append(data, count))
			written += static_cast<Goffset>(count);
	}

	Goffset written = 0;
};

/* The password as Poppler takes it; none for NULL. */
std::optional<GooString> password_of(const char *password);

/* `doc` when its document opened, else NULL (and `doc` deleted). */
cpoppler_core *checked(cpoppler_core *doc);

/* A copy from malloc of `value` when it is a string or a name (a text string decoded to
   UTF-8); NULL when it is neither. Throws std::bad_alloc. */
char *copy_text(const Object &value);

/* copy_text of the value at `key` of `dict`. */
char *copy_text(const Object &dict, const char *key);

/* UTF-8 `text` as UTF-16BE with its byte order mark, which Poppler's text setters expect. */
std::unique_ptr<GooString> utf16_text(const char *text);

/* Writes the document with its changes to `out`: the original bytes and an incremental
   update, or a complete rewrite. Returns Poppler's error code. */
int write_document(cpoppler_core *doc, OutStream *out, bool rewrite);

/* The object `syntax` writes, parsed against `xref`; objError when it is not one. */
Object parse(XRef *xref, const char *syntax);

/* The reference of object `num` with the generation the cross-reference table gives it;
   Ref::INVALID() when there is no such object or it is free. */
Ref reference(XRef *xref, int num);

} // namespace cpoppler

#endif
