#include "CDocumentStream.h"

#include <stddef.h>

void document_stream_release(document_stream *stream)
{
	if (stream->release)
		stream->release(stream->user);
	stream->release = NULL;
	stream->read = NULL;
	stream->user = NULL;
}
