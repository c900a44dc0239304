#include "cmupdf_internal.h"
#include <stdlib.h>
#include <string.h>

cmupdf_document *cmupdf_new_document(size_t cache_bytes, cmupdf_log_callback log, void *log_user, cmupdf_error *error)
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

void cmupdf_set_opened(fz_context *ctx, cmupdf_document *doc, fz_document *opened)
{
	doc->doc = opened;
	doc->pdf = pdf_specifics(ctx, opened);
	if (doc->pdf)
		cmupdf_apply_default_layers(ctx, doc->pdf);
}

fz_document *cmupdf_open_with_stream(fz_context *ctx, const char *magic, fz_stream *stream)
{
	if (!magic)
		return &pdf_open_document_with_stream(ctx, stream)->super;
	fz_document *opened = fz_open_document_with_stream(ctx, magic, stream);
	if (!opened)
		fz_throw(ctx, FZ_ERROR_GENERIC, "MuPDF has no handler for %s", magic);
	return opened;
}

cmupdf_document *cmupdf_open_file(const char *path, const char *magic, size_t cache_bytes, cmupdf_log_callback log, void *log_user, cmupdf_error *error)
{
	cmupdf_document *doc = cmupdf_new_document(cache_bytes, log, log_user, error);
	if (!doc)
		return NULL;
	fz_context *ctx = doc->ctx;
	fz_stream *stream = NULL;
	fz_var(doc);
	fz_var(stream);
	fz_try(ctx) {
		if (magic) {
			stream = fz_open_file(ctx, path);
			cmupdf_set_opened(ctx, doc, cmupdf_open_with_stream(ctx, magic, stream));
		} else
			cmupdf_set_opened(ctx, doc, &pdf_open_document(ctx, path)->super);
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

cmupdf_document *cmupdf_open_memory(const unsigned char *data, size_t length, const char *magic, size_t cache_bytes, cmupdf_log_callback log, void *log_user, cmupdf_error *error)
{
	cmupdf_document *doc = cmupdf_new_document(cache_bytes, log, log_user, error);
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
		cmupdf_set_opened(ctx, doc, cmupdf_open_with_stream(ctx, magic, stream));
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
	fz_drop_document(doc->ctx, doc->doc);
	fz_drop_context(doc->ctx);
	free(doc);
}

int cmupdf_layout(cmupdf_document *doc, float width, float height, float font_size, cmupdf_error *error)
{
	int ok = 1;
	fz_try(doc->ctx)
		fz_layout_document(doc->ctx, doc->doc, width, height, font_size);
	fz_catch(doc->ctx) {
		cmupdf_set_caught_error(doc->ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_was_repaired(cmupdf_document *doc)
{
	return doc->pdf ? pdf_was_repaired(doc->ctx, doc->pdf) : 0;
}

int cmupdf_needs_password(cmupdf_document *doc)
{
	return fz_needs_password(doc->ctx, doc->doc);
}

int cmupdf_authenticate(cmupdf_document *doc, const char *password)
{
	int result = 0;
	fz_var(result);
	fz_try(doc->ctx)
		result = fz_authenticate_password(doc->ctx, doc->doc, password);
	fz_catch(doc->ctx)
		result = 0;
	return result;
}

/* Whether `node` is an inner node of the page tree, by the rule MuPDF's page lookup uses. */
static int is_page_tree_node(fz_context *ctx, pdf_obj *node)
{
	pdf_obj *type = pdf_dict_get(ctx, node, PDF_NAME(Type));
	if (type)
		return pdf_name_eq(ctx, type, PDF_NAME(Pages));
	return pdf_is_array(ctx, pdf_dict_get(ctx, node, PDF_NAME(Kids))) && !pdf_dict_get(ctx, node, PDF_NAME(MediaBox));
}

/* Adds the pages under `node` to *count, visiting at most *budget nodes and no deeper than
   64 levels; a node met again on its own path (a loop) adds nothing. */
static void count_page_tree_leaves(fz_context *ctx, pdf_obj *node, int depth, int *count, int *budget)
{
	if (!pdf_is_dict(ctx, node) || *budget <= 0 || depth > 64)
		return;
	(*budget)--;
	if (!is_page_tree_node(ctx, node)) {
		(*count)++;
		return;
	}
	if (pdf_mark_obj(ctx, node))
		return;
	fz_try(ctx) {
		pdf_obj *kids = pdf_dict_get(ctx, node, PDF_NAME(Kids));
		for (int i = 0, n = pdf_array_len(ctx, kids); i < n; i++)
			count_page_tree_leaves(ctx, pdf_array_get(ctx, kids, i), depth + 1, count, budget);
	}
	fz_always(ctx)
		pdf_unmark_obj(ctx, node);
	fz_catch(ctx)
		fz_rethrow(ctx);
}

/* The page count the page tree's root claims, unless that is more pages than the file has
   objects (each page is one): then the pages the tree holds, each path counted once. */
static int trusted_page_count(fz_context *ctx, pdf_document *pdf)
{
	int claimed = pdf_count_pages(ctx, pdf);
	int objects = pdf_xref_len(ctx, pdf);
	if (claimed <= objects)
		return claimed;
	int count = 0, budget = objects;
	count_page_tree_leaves(ctx, pdf_dict_getp(ctx, pdf_trailer(ctx, pdf), "Root/Pages"), 0, &count, &budget);
	fz_warn(ctx, "the page tree claims %d pages in a file of %d objects; it holds %d", claimed, objects, count);
	return count;
}

int cmupdf_page_count(cmupdf_document *doc, cmupdf_error *error)
{
	int count = -1;
	fz_var(count);
	fz_try(doc->ctx)
		count = doc->pdf ? trusted_page_count(doc->ctx, doc->pdf) : fz_count_pages(doc->ctx, doc->doc);
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
		length = fz_lookup_metadata(doc->ctx, doc->doc, key, buffer, size);
	fz_catch(doc->ctx)
		length = -1;
	return length;
}

int cmupdf_pdf_version(cmupdf_document *doc)
{
	int version = 0;
	fz_var(version);
	fz_try(doc->ctx)
		version = doc->pdf ? pdf_version(doc->ctx, doc->pdf) : 0;
	fz_catch(doc->ctx)
		version = 0;
	return version;
}

int cmupdf_encryption(cmupdf_document *doc, int *bits)
{
	if (!doc->pdf || !doc->pdf->crypt)
		return 0;
	*bits = pdf_crypt_permissions(doc->ctx, doc->pdf->crypt);
	return 1;
}
