#ifndef CPOPPLERGLIBSTREAM_H
#define CPOPPLERGLIBSTREAM_H

/* A document_stream as a seekable GInputStream, for poppler_document_new_from_stream. */

#include "CDocumentStream.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A new GInputStream (returned as void *, a GObject to unreference) that owns `source` and
   releases it when finalised. */
void *cpoppler_glib_stream_new(document_stream source);

#ifdef __cplusplus
}
#endif

#endif
