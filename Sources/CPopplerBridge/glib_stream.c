#include "CPopplerGlibStream.h"

#include <gio/gio.h>

/* A seekable GInputStream over a document_stream, for poppler_document_new_from_stream:
   reads by position, seeks that only move the position.

   It derives from GMemoryInputStream, with every read and seek its own: poppler-glib 22.12
   reads a memory or local-file stream by position as it needs it, but copies any other
   stream into a cache as large as the whole document (measured: 53 MB for a 53 MB file). */

typedef struct {
	GMemoryInputStream parent;
	document_stream source;
	goffset position;
} CpopplerInputStream;

typedef struct {
	GMemoryInputStreamClass parent_class;
} CpopplerInputStreamClass;

static void cpoppler_input_stream_seekable_init(GSeekableIface *iface);

G_DEFINE_TYPE_WITH_CODE(CpopplerInputStream, cpoppler_input_stream, G_TYPE_MEMORY_INPUT_STREAM,
	G_IMPLEMENT_INTERFACE(G_TYPE_SEEKABLE, cpoppler_input_stream_seekable_init))

static gssize read_block(GInputStream *stream, void *buffer, gsize count, GCancellable *cancellable, GError **error)
{
	CpopplerInputStream *self = (CpopplerInputStream *)stream;
	(void)cancellable;
	long long n = self->source.read(self->source.user, self->position, buffer, (long long)count);
	if (n < 0) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "the document's stream could not be read at offset %lld", (long long)self->position);
		return -1;
	}
	self->position += n;
	return (gssize)n;
}

static gssize skip(GInputStream *stream, gsize count, GCancellable *cancellable, GError **error)
{
	CpopplerInputStream *self = (CpopplerInputStream *)stream;
	(void)cancellable;
	(void)error;
	goffset left = self->source.length > self->position ? self->source.length - self->position : 0;
	gssize skipped = (goffset)count < left ? (gssize)count : (gssize)left;
	self->position += skipped;
	return skipped;
}

static goffset tell(GSeekable *seekable)
{
	return ((CpopplerInputStream *)seekable)->position;
}

static gboolean can_seek(GSeekable *seekable)
{
	(void)seekable;
	return TRUE;
}

static gboolean seek(GSeekable *seekable, goffset offset, GSeekType type, GCancellable *cancellable, GError **error)
{
	CpopplerInputStream *self = (CpopplerInputStream *)seekable;
	(void)cancellable;
	goffset target = offset;
	if (type == G_SEEK_CUR)
		target = self->position + offset;
	else if (type == G_SEEK_END)
		target = self->source.length + offset;
	if (target < 0) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "cannot seek before the start of the document");
		return FALSE;
	}
	self->position = target;
	return TRUE;
}

static gboolean can_truncate(GSeekable *seekable)
{
	(void)seekable;
	return FALSE;
}

static gboolean truncate_stream(GSeekable *seekable, goffset offset, GCancellable *cancellable, GError **error)
{
	(void)seekable;
	(void)offset;
	(void)cancellable;
	g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "the document's stream is read-only");
	return FALSE;
}

static void cpoppler_input_stream_seekable_init(GSeekableIface *iface)
{
	iface->tell = tell;
	iface->can_seek = can_seek;
	iface->seek = seek;
	iface->can_truncate = can_truncate;
	iface->truncate_fn = truncate_stream;
}

static void finalize(GObject *object)
{
	document_stream_release(&((CpopplerInputStream *)object)->source);
	G_OBJECT_CLASS(cpoppler_input_stream_parent_class)->finalize(object);
}

static void cpoppler_input_stream_class_init(CpopplerInputStreamClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = finalize;
	G_INPUT_STREAM_CLASS(klass)->read_fn = read_block;
	G_INPUT_STREAM_CLASS(klass)->skip = skip;
}

static void cpoppler_input_stream_init(CpopplerInputStream *self)
{
	self->position = 0;
}

void *cpoppler_glib_stream_new(document_stream source)
{
	CpopplerInputStream *stream = g_object_new(cpoppler_input_stream_get_type(), NULL);
	stream->source = source;
	return stream;
}
