#include "cmupdf_internal.h"

#include <stdio.h>
#include <string.h>

/* A MuPDF stream over a document_stream: buffered reads by position, and seeks that only
   move the position. */
typedef struct {
	document_stream source;
	int64_t position;
	unsigned char buffer[16384];
} stream_state;

static int next_block(fz_context *ctx, fz_stream *stm, size_t max)
{
	stream_state *state = stm->state;
	(void)max;
	long long n = state->source.read(state->source.user, state->position, state->buffer, (long long)sizeof state->buffer);
	if (n < 0)
		fz_throw(ctx, FZ_ERROR_GENERIC, "the document's stream could not be read at offset %lld", (long long)state->position);
	stm->rp = state->buffer;
	stm->wp = state->buffer + n;
	state->position += n;
	stm->pos = state->position;
	if (n == 0)
		return EOF;
	return *stm->rp++;
}

/* fz_seek turns a seek from the current position into one from the start before calling. */
static void seek_to(fz_context *ctx, fz_stream *stm, int64_t offset, int whence)
{
	stream_state *state = stm->state;
	(void)ctx;
	int64_t target = whence == SEEK_END ? state->source.length + offset : offset;
	if (target < 0)
		target = 0;
	if (target > state->source.length)
		target = state->source.length;
	state->position = target;
	stm->pos = target;
	stm->rp = stm->wp = state->buffer;
}

static void drop_state(fz_context *ctx, void *opaque)
{
	stream_state *state = opaque;
	document_stream_release(&state->source);
	fz_free(ctx, state);
}

/* A new MuPDF stream that owns `source`; on failure the source is released. */
static fz_stream *open_source(fz_context *ctx, document_stream source)
{
	stream_state *state = NULL;
	fz_try(ctx)
		state = fz_malloc_struct(ctx, stream_state);
	fz_catch(ctx) {
		document_stream_release(&source);
		fz_rethrow(ctx);
	}
	state->source = source;
	fz_stream *stm = fz_new_stream(ctx, state, next_block, drop_state);
	stm->seek = seek_to;
	return stm;
}

cmupdf_document *cmupdf_open_stream(document_stream source, const char *magic, size_t cache_bytes, cmupdf_log_callback log, void *log_user, cmupdf_error *error)
{
	cmupdf_document *doc = cmupdf_new_document(cache_bytes, log, log_user, error);
	if (!doc) {
		document_stream_release(&source);
		return NULL;
	}
	fz_context *ctx = doc->ctx;
	fz_stream *stream = NULL;
	fz_var(stream);
	fz_var(doc);
	fz_try(ctx) {
		stream = open_source(ctx, source);
		cmupdf_set_opened(ctx, doc, cmupdf_open_with_stream(ctx, magic, stream));
	}
	fz_always(ctx)
		fz_drop_stream(ctx, stream);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		cmupdf_close(doc);
		doc = NULL;
	}
	return doc;
}

/* An fz_output that appends to a document_sink and counts what it wrote, so that MuPDF can
   tell its position (which the cross-reference table needs). */
typedef struct {
	document_sink sink;
	int64_t written;
} sink_state;

static void sink_write(fz_context *ctx, void *opaque, const void *data, size_t count)
{
	sink_state *state = opaque;
	if (state->sink.write(state->sink.user, data, (long long)count) != 0)
		fz_throw(ctx, FZ_ERROR_GENERIC, "the document could not be written to its destination");
	state->written += (int64_t)count;
}

static int64_t sink_tell(fz_context *ctx, void *opaque)
{
	(void)ctx;
	return ((sink_state *)opaque)->written;
}

static void sink_drop(fz_context *ctx, void *opaque)
{
	fz_free(ctx, opaque);
}

/* An fz_output into a growing buffer that MuPDF can seek in, truncate and read back, as it
   does while writing an incremental update (a buffer output allows none of it). */
typedef struct {
	fz_buffer *buffer;
	size_t position;
} memory_state;

static void memory_write(fz_context *ctx, void *opaque, const void *data, size_t count)
{
	memory_state *state = opaque;
	fz_buffer *buffer = state->buffer;
	size_t overlap = state->position < buffer->len ? buffer->len - state->position : 0;
	if (overlap > count)
		overlap = count;
	memcpy(buffer->data + state->position, data, overlap);
	if (count > overlap)
		fz_append_data(ctx, buffer, (const unsigned char *)data + overlap, count - overlap);
	state->position += count;
}

static void memory_seek(fz_context *ctx, void *opaque, int64_t offset, int whence)
{
	memory_state *state = opaque;
	int64_t base = whence == SEEK_END ? (int64_t)state->buffer->len : whence == SEEK_CUR ? (int64_t)state->position : 0;
	int64_t target = base + offset;
	if (target < 0 || target > (int64_t)state->buffer->len)
		fz_throw(ctx, FZ_ERROR_GENERIC, "cannot seek outside the document being written");
	state->position = (size_t)target;
}

static int64_t memory_tell(fz_context *ctx, void *opaque)
{
	(void)ctx;
	return (int64_t)((memory_state *)opaque)->position;
}

static void memory_truncate(fz_context *ctx, void *opaque)
{
	memory_state *state = opaque;
	(void)ctx;
	if (state->position < state->buffer->len)
		state->buffer->len = state->position;
}

static fz_stream *memory_as_stream(fz_context *ctx, void *opaque)
{
	return fz_open_buffer(ctx, ((memory_state *)opaque)->buffer);
}

static void memory_drop(fz_context *ctx, void *opaque)
{
	memory_state *state = opaque;
	fz_drop_buffer(ctx, state->buffer);
	fz_free(ctx, state);
}

static fz_output *new_memory_output(fz_context *ctx, fz_buffer *buffer)
{
	memory_state *state = fz_malloc_struct(ctx, memory_state);
	fz_output *out = NULL;
	fz_try(ctx)
		out = fz_new_output(ctx, 0, state, memory_write, NULL, memory_drop);
	fz_catch(ctx) {
		fz_free(ctx, state);
		fz_rethrow(ctx);
	}
	state->buffer = fz_keep_buffer(ctx, buffer);
	out->seek = memory_seek;
	out->tell = memory_tell;
	out->truncate = memory_truncate;
	out->as_stream = memory_as_stream;
	return out;
}

int cmupdf_write(cmupdf_document *doc, document_sink sink, int incremental, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_context *ctx = doc->ctx;
	fz_output *out = NULL;
	fz_output *memory = NULL;
	fz_buffer *buffer = NULL;
	sink_state *state = NULL;
	int ok = 1;
	fz_var(out);
	fz_var(memory);
	fz_var(buffer);
	fz_var(state);
	fz_try(ctx) {
		state = fz_malloc_struct(ctx, sink_state);
		state->sink = sink;
		out = fz_new_output(ctx, 65536, state, sink_write, NULL, sink_drop);
		state = NULL; /* the output owns it now */
		out->tell = sink_tell;
		if (incremental) {
			/* MuPDF reads back what it wrote of an incremental update, which a sink cannot
			   give: the update is made in memory, then written out. */
			buffer = fz_new_buffer(ctx, 1 << 20);
			memory = new_memory_output(ctx, buffer);
			cmupdf_write_document(ctx, doc->pdf, memory, 1);
			fz_close_output(ctx, memory);
			fz_write_data(ctx, out, buffer->data, buffer->len);
		} else {
			cmupdf_write_document(ctx, doc->pdf, out, 0);
		}
		fz_close_output(ctx, out);
	}
	fz_always(ctx) {
		fz_drop_output(ctx, memory);
		fz_drop_buffer(ctx, buffer);
		fz_drop_output(ctx, out);
		fz_free(ctx, state);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}
