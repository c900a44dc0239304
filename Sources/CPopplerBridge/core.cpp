#include "CPopplerCore.h"
#include "core.h"
#include "library.h"

#include <poppler/ErrorCodes.h>
#include <poppler/Stream.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <string>

namespace {

/* Collects what Poppler writes, for serialising a document to memory. */
class MemoryOutStream : public cpoppler::AppendingOutStream
{
public:
	std::string bytes;

protected:
	bool append(const char *data, size_t count) override
	{
		bytes.append(data, count);
		return true;
	}
};

} // namespace

namespace cpoppler {

void AppendingOutStream::printf(const char *format, ...)
{
	va_list args;
	va_start(args, format);
	va_list measure;
	va_copy(measure, args);
	int length = std::vsnprintf(nullptr, 0, format, measure);
	va_end(measure);
	if (length > 0) {
		std::string text(static_cast<size_t>(length) + 1, '\0');
		std::vsnprintf(&text[0], text.size(), format, args);
		take(text.data(), static_cast<size_t>(length));
	}
	va_end(args);
}

std::optional<GooString> password_of(const char *password)
{
	if (!password)
		return std::nullopt;
	return GooString(password);
}

cpoppler_core *checked(cpoppler_core *doc)
{
	if (!doc->doc || !doc->doc->isOk()) {
		delete doc;
		return nullptr;
	}
	return doc;
}

/* A complete rewrite of a document whose cross-reference table Poppler rebuilt loses the
   changes made since (measured with Poppler 22.12), so the changes are first appended in
   memory and the result, read afresh, is rewritten. */
static int rewrite_reconstructed(cpoppler_core *doc, OutStream *out)
{
	MemoryOutStream changed;
	int status = doc->doc->saveAs(&changed, writeForceIncremental);
	if (status != errNone)
		return status;
	auto *stream = new MemStream(changed.bytes.data(), 0, static_cast<Goffset>(changed.bytes.size()), Object(objNull));
	PDFDoc reread(stream, doc->password, doc->password);
	if (!reread.isOk())
		return reread.getErrorCode();
	return reread.saveAs(out, writeForceRewrite);
}

int write_document(cpoppler_core *doc, OutStream *out, bool rewrite)
{
	if (rewrite && doc->reconstructed)
		return rewrite_reconstructed(doc, out);
	return doc->doc->saveAs(out, rewrite ? writeForceRewrite : writeForceIncremental);
}

} // namespace cpoppler

extern "C" cpoppler_core *cpoppler_core_open_file(const char *path, const char *password)
{
	try {
		cpoppler::pin_library();
		auto *doc = new cpoppler_core;
		doc->password = cpoppler::password_of(password);
		doc->doc = std::make_unique<PDFDoc>(std::make_unique<GooString>(path), doc->password, doc->password, nullptr, [doc] { doc->reconstructed = true; });
		return cpoppler::checked(doc);
	} catch (const std::bad_alloc &) {
		return nullptr;
	}
}

extern "C" cpoppler_core *cpoppler_core_open_data(const char *data, long length, const char *password)
{
	try {
		cpoppler::pin_library();
		auto *doc = new cpoppler_core;
		doc->bytes.assign(data, data + length);
		doc->password = cpoppler::password_of(password);
		auto *stream = new MemStream(doc->bytes.data(), 0, static_cast<Goffset>(doc->bytes.size()), Object(objNull));
		doc->doc = std::make_unique<PDFDoc>(stream, doc->password, doc->password, nullptr, [doc] { doc->reconstructed = true; });
		return cpoppler::checked(doc);
	} catch (const std::bad_alloc &) {
		return nullptr;
	}
}

extern "C" void cpoppler_core_close(cpoppler_core *doc)
{
	delete doc;
}

extern "C" int cpoppler_core_was_reconstructed(cpoppler_core *doc)
{
	return doc->reconstructed ? 1 : 0;
}

extern "C" int cpoppler_core_save(cpoppler_core *doc, const char *path, int rewrite)
{
	try {
		FILE *file = std::fopen(path, "wb");
		if (!file)
			return errOpenFile;
		FileOutStream out(file, 0);
		int status = cpoppler::write_document(doc, &out, rewrite != 0);
		if (std::fclose(file) != 0 && status == errNone)
			status = errFileIO;
		return status;
	} catch (const std::bad_alloc &) {
		return errFileIO;
	}
}

extern "C" int cpoppler_core_serialize(cpoppler_core *doc, char **bytes, long *length)
{
	try {
		MemoryOutStream out;
		int status = doc->doc->saveAs(&out, writeForceIncremental);
		if (status != errNone)
			return status;
		char *copy = static_cast<char *>(std::malloc(out.bytes.size() ? out.bytes.size() : 1));
		if (!copy)
			return errFileIO;
		std::memcpy(copy, out.bytes.data(), out.bytes.size());
		*bytes = copy;
		*length = static_cast<long>(out.bytes.size());
		return errNone;
	} catch (const std::bad_alloc &) {
		return errFileIO;
	}
}
