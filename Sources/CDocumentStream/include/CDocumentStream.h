#ifndef CDOCUMENTSTREAM_H
#define CDOCUMENTSTREAM_H

/*
 * How an engine's C layer reads a document from, and writes one to, something other than
 * a file path: an application's file system, such as an encrypted one, that must never
 * put the document's bytes on disk in plain text. Both engines' C layers take these.
 */

#ifdef __cplusplus
extern "C" {
#endif

/* A document's bytes, read by position. The engine calls `read` from the thread using the
   document, and `release` once, when it no longer needs the stream. */
typedef struct document_stream {
	void *user;
	/* The number of bytes. */
	long long length;
	/* Reads up to `count` bytes at `offset` into `buffer`; returns how many were read (0 at
	   the end), or -1 when reading failed (the reason is kept on the Swift side). */
	long long (*read)(void *user, long long offset, void *buffer, long long count);
	void (*release)(void *user);
} document_stream;

/* Where a document being saved goes, in order. */
typedef struct document_sink {
	void *user;
	/* Appends `count` bytes; returns 0, or -1 when writing failed. */
	int (*write)(void *user, const void *data, long long count);
} document_sink;

/* Calls the stream's release once, and forgets it. */
void document_stream_release(document_stream *stream);

#ifdef __cplusplus
}
#endif

#endif
