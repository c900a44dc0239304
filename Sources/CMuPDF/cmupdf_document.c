#include "cmupdf_internal.h"
#include <stdlib.h>
#include <string.h>

static cmupdf_document *new_document(size_t cache_bytes, cmupdf_log_callback log, void *log_user, cmupdf_error *error)
{
	cmupdf_document *doc = calloc(1, sizeof *doc);
	if (!doc) {
		cmupdf_set_error(error, CMUPDF_ERROR_MEMORY, "out of memory");
		return NULL;
	}
	doc->log.log = log;
	doc->log.user = log_user;
	doc->ctx = cmupdf_new_context(&doc->log, cache_bytes, error);
	if (!doc->ctx) {
		free(doc);
		return NULL;
	}
	return doc;
}

cmupdf_document *cmupdf_open_file(const char *path, size_t cache_bytes, cmupdf_log_callback log, void *log_user, cmupdf_error *error)
{
	cmupdf_document *doc = new_document(cache_bytes, log, log_user, error);
	if (!doc)
		return NULL;
	fz_context *ctx = doc->ctx;
	fz_var(doc);
	fz_try(ctx)
		doc->pdf = pdf_open_document(ctx, path);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		cmupdf_close(doc);
		doc = NULL;
	}
	return doc;
}

cmupdf_document *cmupdf_open_memory(const unsigned char *data, size_t length, size_t cache_bytes, cmupdf_log_callback log, void *log_user, cmupdf_error *error)
{
	cmupdf_document *doc = new_document(cache_bytes, log, log_user, error);
	if (!doc)
		return NULL;
	fz_context *ctx = doc->ctx;
	fz_buffer *buffer = NULL;
	fz_stream *stream = NULL;
	fz_var(buffer);
	fz_var(stream);
	fz_var(doc);
	fz_try(ctx) {
		buffer = fz_new_buffer_from_copied_data(ctx, data, length);
		stream = fz_open_buffer(ctx, buffer);
		doc->pdf = pdf_open_document_with_stream(ctx, stream);
	}
	fz_always(ctx) {
		fz_drop_stream(ctx, stream);
		fz_drop_buffer(ctx, buffer);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		cmupdf_close(doc);
		doc = NULL;
	}
	return doc;
}

void cmupdf_close(cmupdf_document *doc)
{
	if (!doc)
		return;
	pdf_drop_document(doc->ctx, doc->pdf);
	fz_drop_context(doc->ctx);
	free(doc);
}

int cmupdf_needs_password(cmupdf_document *doc)
{
	return pdf_needs_password(doc->ctx, doc->pdf);
}

int cmupdf_authenticate(cmupdf_document *doc, const char *password)
{
	int result = 0;
	fz_var(result);
	fz_try(doc->ctx)
		result = pdf_authenticate_password(doc->ctx, doc->pdf, password);
	fz_catch(doc->ctx)
		result = 0;
	return result;
}

int cmupdf_page_count(cmupdf_document *doc, cmupdf_error *error)
{
	int count = -1;
	fz_var(count);
	fz_try(doc->ctx)
		count = pdf_count_pages(doc->ctx, doc->pdf);
	fz_catch(doc->ctx) {
		cmupdf_set_caught_error(doc->ctx, error);
		count = -1;
	}
	return count;
}

int cmupdf_metadata(cmupdf_document *doc, const char *key, char *buffer, int size)
{
	int length = -1;
	fz_var(length);
	fz_try(doc->ctx)
		length = fz_lookup_metadata(doc->ctx, &doc->pdf->super, key, buffer, size);
	fz_catch(doc->ctx)
		length = -1;
	return length;
}

int cmupdf_pdf_version(cmupdf_document *doc)
{
	int version = 0;
	fz_var(version);
	fz_try(doc->ctx)
		version = pdf_version(doc->ctx, doc->pdf);
	fz_catch(doc->ctx)
		version = 0;
	return version;
}

int cmupdf_encryption(cmupdf_document *doc, int *bits)
{
	if (!doc->pdf->crypt)
		return 0;
	*bits = pdf_crypt_permissions(doc->ctx, doc->pdf->crypt);
	return 1;
}
