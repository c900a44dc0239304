#include "CPopplerCore.h"
#include "core.h"
#include "library.h"

#include <poppler/Stream.h>

#include <cstring>
#include <memory>
#include <new>

namespace {

/* The application's stream, released when the last Poppler stream over it goes. */
struct SharedSource {
	document_stream source;
	explicit SharedSource(document_stream s) : source(s) { }
	~SharedSource() { document_stream_release(&source); }
	SharedSource(const SharedSource &) = delete;
	SharedSource &operator=(const SharedSource &) = delete;
};

/* A Poppler base stream that reads a document_stream by position: the whole document, or
   (for the objects inside it) a part of it. Every copy and substream shares the source. */
class CallbackStream : public BaseStream
{
public:
	CallbackStream(std::shared_ptr<SharedSource> sourceA, Goffset startA, bool limitedA, Goffset lengthA, Object &&dictA)
		: BaseStream(std::move(dictA), lengthA), source(std::move(sourceA)), start(startA), limited(limitedA)
	{
		bufPtr = bufEnd = buf;
		bufPos = start;
	}

	BaseStream *copy() override { return new CallbackStream(source, start, limited, length, dict.copy()); }

	Stream *makeSubStream(Goffset startA, bool limitedA, Goffset lengthA, Object &&dictA) override
	{
		return new CallbackStream(source, startA, limitedA, lengthA, std::move(dictA));
	}

	StreamKind getKind() const override { return strWeird; }
	void reset() override { moveTo(start); }
	void close() override { }
	int getChar() override { return (bufPtr >= bufEnd && !fillBuf()) ? EOF : (*bufPtr++ & 0xff); }
	int lookChar() override { return (bufPtr >= bufEnd && !fillBuf()) ? EOF : (*bufPtr & 0xff); }
	Goffset getPos() override { return bufPos + (bufPtr - buf); }

	void setPos(Goffset pos, int dir = 0) override
	{
		Goffset size = source->source.length;
		if (dir >= 0)
			moveTo(pos < size ? pos : size);
		else
			moveTo(size - (pos < size ? pos : size));
	}

	Goffset getStart() override { return start; }

	void moveStart(Goffset delta) override
	{
		start += delta;
		moveTo(start);
	}

	int getUnfilteredChar() override { return getChar(); }
	void unfilteredReset() override { reset(); }

private:
	bool hasGetChars() override { return true; }

	int getChars(int count, unsigned char *buffer) override
	{
		int n = 0;
		while (n < count) {
			if (bufPtr >= bufEnd && !fillBuf())
				break;
			int m = static_cast<int>(bufEnd - bufPtr);
			if (m > count - n)
				m = count - n;
			std::memcpy(buffer + n, bufPtr, m);
			bufPtr += m;
			n += m;
		}
		return n;
	}

	void moveTo(Goffset pos)
	{
		bufPos = pos;
		bufPtr = bufEnd = buf;
	}

	bool fillBuf()
	{
		bufPos += bufEnd - buf;
		bufPtr = bufEnd = buf;
		long long wanted = sizeof buf;
		if (limited) {
			if (bufPos >= start + length)
				return false;
			if (bufPos + wanted > start + length)
				wanted = start + length - bufPos;
		}
		long long got = source->source.read(source->source.user, bufPos, buf, wanted);
		if (got <= 0)
			return false;
		bufEnd = buf + got;
		return true;
	}

	std::shared_ptr<SharedSource> source;
	Goffset start;
	bool limited;
	char buf[16384];
	char *bufPtr;
	char *bufEnd;
	Goffset bufPos;
};

/* A Poppler output stream that appends to a document_sink; after a failed write it takes
   nothing more. */
class SinkOutStream : public cpoppler::AppendingOutStream
{
public:
	explicit SinkOutStream(document_sink sinkA) : sink(sinkA) { }
	bool failed = false;

protected:
	bool append(const char *data, size_t count) override
	{
		if (failed || sink.write(sink.user, data, static_cast<long long>(count)) != 0)
			failed = true;
		return !failed;
	}

private:
	document_sink sink;
};

} // namespace

extern "C" cpoppler_core *cpoppler_core_open_stream(document_stream source, const char *password)
{
	std::shared_ptr<SharedSource> shared;
	try {
		shared = std::make_shared<SharedSource>(source);
	} catch (const std::bad_alloc &) {
		document_stream_release(&source);
		return nullptr;
	}
	try {
		cpoppler::pin_library();
		auto *doc = new cpoppler_core;
		doc->password = cpoppler::password_of(password);
		auto *stream = new CallbackStream(shared, 0, false, shared->source.length, Object(objNull));
		doc->doc = std::make_unique<PDFDoc>(stream, doc->password, doc->password, nullptr, [doc] { doc->reconstructed = true; });
		return cpoppler::checked(doc);
	} catch (const std::bad_alloc &) {
		return nullptr;
	}
}

extern "C" int cpoppler_core_write(cpoppler_core *doc, document_sink sink, int rewrite)
{
	try {
		SinkOutStream out(sink);
		int status = cpoppler::write_document(doc, &out, rewrite != 0);
		if (status == errNone && out.failed)
			return errFileIO;
		return status;
	} catch (const std::bad_alloc &) {
		return errFileIO;
	}
}
