#include "cmupdf_internal.h"
#include <stdlib.h>
#include <string.h>

/* The files a PDF embeds: those of the /EmbeddedFiles name tree in the order of their keys,
   then those of file-attachment annotations in page order, as Poppler lists them. Each is
   a file specification whose /EF /F stream holds the bytes. */

typedef struct {
	pdf_obj *specs; /* an array of the file specifications, in order */
	pdf_obj *keys;  /* the name tree's keys (names), for the first count_in_tree */
	int count_in_tree;
	int *pages;     /* per specification: its annotation's page, or -1 */
	int capacity;   /* of pages */
} attachment_list;

/* Appends `spec`, found on `page` (-1: in the name tree). Throws. */
static void push_spec(fz_context *ctx, attachment_list *list, pdf_obj *spec, int page)
{
	int count = pdf_array_len(ctx, list->specs);
	if (count == list->capacity) {
		list->capacity *= 2;
		list->pages = fz_realloc_array(ctx, list->pages, list->capacity, int);
	}
	list->pages[count] = page;
	pdf_array_push(ctx, list->specs, spec);
}

static void drop_list(fz_context *ctx, attachment_list *list)
{
	pdf_drop_obj(ctx, list->specs);
	pdf_drop_obj(ctx, list->keys);
	fz_free(ctx, list->pages);
}

/* The name tree as a dict of key names to specifications, sorted by key. Throws. */
static pdf_obj *load_tree(fz_context *ctx, pdf_document *doc)
{
	pdf_obj *tree = pdf_load_name_tree(ctx, doc, PDF_NAME(EmbeddedFiles));
	pdf_sort_dict(ctx, tree);
	return tree;
}

/* Fills `list`. Throws. */
static void load_list(fz_context *ctx, pdf_document *doc, attachment_list *list)
{
	pdf_obj *tree = NULL;
	int i, p, n, pages;
	fz_var(tree);
	list->specs = pdf_new_array(ctx, doc, 8);
	list->keys = pdf_new_array(ctx, doc, 8);
	list->capacity = 16;
	list->pages = fz_malloc_array(ctx, list->capacity, int);
	list->count_in_tree = 0;
	fz_try(ctx) {
		tree = load_tree(ctx, doc);
		n = pdf_dict_len(ctx, tree);
		for (i = 0; i < n; i++) {
			pdf_obj *spec = pdf_dict_get_val(ctx, tree, i);
			if (!pdf_is_embedded_file(ctx, spec))
				continue;
			push_spec(ctx, list, spec, -1);
			pdf_array_push(ctx, list->keys, pdf_dict_get_key(ctx, tree, i));
			list->count_in_tree++;
		}
		pages = pdf_count_pages(ctx, doc);
		for (p = 0; p < pages; p++) {
			pdf_obj *annots = pdf_dict_get(ctx, pdf_lookup_page_obj(ctx, doc, p), PDF_NAME(Annots));
			n = pdf_array_len(ctx, annots);
			for (i = 0; i < n; i++) {
				pdf_obj *annot = pdf_array_get(ctx, annots, i);
				pdf_obj *spec = pdf_dict_get(ctx, annot, PDF_NAME(FS));
				if (!pdf_name_eq(ctx, pdf_dict_get(ctx, annot, PDF_NAME(Subtype)), PDF_NAME(FileAttachment)) || !pdf_is_embedded_file(ctx, spec))
					continue;
				push_spec(ctx, list, spec, p);
			}
		}
	}
	fz_always(ctx)
		pdf_drop_obj(ctx, tree);
	fz_catch(ctx)
		fz_rethrow(ctx);
}

static const char *text_or_null(fz_context *ctx, pdf_obj *obj)
{
	return pdf_is_string(ctx, obj) ? pdf_to_text_string(ctx, obj) : NULL;
}

int cmupdf_attachments(cmupdf_document *doc, cmupdf_attachment_callback each, void *user, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	attachment_list list = { NULL, NULL, 0, NULL, 0 };
	int ok = 1;
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_var(list);
	fz_var(ok);
	fz_try(ctx) {
		int i, n;
		load_list(ctx, doc->pdf, &list);
		n = pdf_array_len(ctx, list.specs);
		for (i = 0; i < n; i++) {
			pdf_obj *spec = pdf_array_get(ctx, list.specs, i);
			pdf_obj *params = pdf_dict_getp(ctx, spec, "EF/F/Params");
			pdf_obj *checksum = pdf_dict_get(ctx, params, PDF_NAME(CheckSum));
			pdf_embedded_file_params facts;
			cmupdf_attachment attachment;
			pdf_get_embedded_file_params(ctx, spec, &facts);
			attachment.name = facts.filename;
			attachment.description = text_or_null(ctx, pdf_dict_get(ctx, spec, PDF_NAME(Desc)));
			attachment.size = pdf_is_int(ctx, pdf_dict_get(ctx, params, PDF_NAME(Size))) ? facts.size : -1;
			attachment.created = facts.created;
			attachment.modified = facts.modified;
			attachment.checksum = pdf_is_string(ctx, checksum) ? (const unsigned char *)pdf_to_str_buf(ctx, checksum) : NULL;
			attachment.checksum_length = pdf_is_string(ctx, checksum) ? (int)pdf_to_str_len(ctx, checksum) : 0;
			attachment.page = list.pages[i];
			each(user, &attachment);
		}
	}
	fz_always(ctx)
		drop_list(ctx, &list);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_attachment_contents(cmupdf_document *doc, int index, unsigned char **bytes, size_t *length, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	attachment_list list = { NULL, NULL, 0, NULL, 0 };
	fz_buffer *buffer = NULL;
	int ok = 1;
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	*bytes = NULL;
	*length = 0;
	fz_var(list);
	fz_var(buffer);
	fz_var(ok);
	fz_try(ctx) {
		unsigned char *data;
		size_t count;
		load_list(ctx, doc->pdf, &list);
		if (index < 0 || index >= pdf_array_len(ctx, list.specs))
			fz_throw(ctx, FZ_ERROR_GENERIC, "the document has no attachment %d", index);
		buffer = pdf_load_embedded_file_contents(ctx, pdf_array_get(ctx, list.specs, index));
		if (!buffer)
			fz_throw(ctx, FZ_ERROR_GENERIC, "the attachment holds no file");
		count = fz_buffer_storage(ctx, buffer, &data);
		*bytes = malloc(count ? count : 1);
		if (!*bytes)
			fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory copying the attachment");
		memcpy(*bytes, data, count);
		*length = count;
	}
	fz_always(ctx) {
		fz_drop_buffer(ctx, buffer);
		drop_list(ctx, &list);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

/* Writes `tree` (key names to specifications) as the document's /EmbeddedFiles, one flat
   /Names array in key order; an empty tree removes the entry. Throws. */
static void write_tree(fz_context *ctx, pdf_document *doc, pdf_obj *tree)
{
	pdf_obj *root = pdf_dict_get(ctx, pdf_trailer(ctx, doc), PDF_NAME(Root));
	pdf_obj *names = pdf_dict_get(ctx, root, PDF_NAME(Names));
	pdf_obj *flat;
	int i, n = pdf_dict_len(ctx, tree);
	if (n == 0) {
		pdf_dict_del(ctx, names, PDF_NAME(EmbeddedFiles));
		return;
	}
	if (!pdf_is_dict(ctx, names))
		names = pdf_dict_put_dict(ctx, root, PDF_NAME(Names), 1);
	pdf_sort_dict(ctx, tree);
	flat = pdf_dict_put_array(ctx, pdf_dict_put_dict(ctx, names, PDF_NAME(EmbeddedFiles), 1), PDF_NAME(Names), 2 * n);
	for (i = 0; i < n; i++) {
		const char *key = pdf_to_name(ctx, pdf_dict_get_key(ctx, tree, i));
		pdf_array_push_drop(ctx, flat, pdf_new_string(ctx, key, strlen(key)));
		pdf_array_push(ctx, flat, pdf_dict_get_val(ctx, tree, i));
	}
}

int cmupdf_add_attachment(cmupdf_document *doc, const char *name, const char *description, const unsigned char *data, size_t length,
	long long modified, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	pdf_obj *tree = NULL;
	pdf_obj *spec = NULL;
	fz_buffer *buffer = NULL;
	int ok = 1;
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_var(tree);
	fz_var(spec);
	fz_var(buffer);
	fz_var(ok);
	pdf_begin_operation(ctx, doc->pdf, "Add attachment");
	fz_try(ctx) {
		tree = load_tree(ctx, doc->pdf);
		if (pdf_dict_gets(ctx, tree, name))
			fz_throw(ctx, FZ_ERROR_GENERIC, "the document already has an attachment named %s", name);
		buffer = fz_new_buffer_from_copied_data(ctx, data, length);
		spec = pdf_add_embedded_file(ctx, doc->pdf, name, NULL, buffer, -1, modified, 1);
		if (description && *description)
			pdf_dict_put_text_string(ctx, spec, PDF_NAME(Desc), description);
		pdf_dict_puts(ctx, tree, name, spec);
		write_tree(ctx, doc->pdf, tree);
	}
	fz_always(ctx) {
		pdf_end_operation(ctx, doc->pdf);
		fz_drop_buffer(ctx, buffer);
		pdf_drop_obj(ctx, spec);
		pdf_drop_obj(ctx, tree);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_remove_attachment(cmupdf_document *doc, int index, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	attachment_list list = { NULL, NULL, 0, NULL, 0 };
	pdf_obj *tree = NULL;
	int ok = 1;
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_var(list);
	fz_var(tree);
	fz_var(ok);
	pdf_begin_operation(ctx, doc->pdf, "Remove attachment");
	fz_try(ctx) {
		load_list(ctx, doc->pdf, &list);
		if (index < 0 || index >= pdf_array_len(ctx, list.specs))
			fz_throw(ctx, FZ_ERROR_GENERIC, "the document has no attachment %d", index);
		if (index >= list.count_in_tree)
			fz_throw(ctx, FZ_ERROR_GENERIC, "attachment %d belongs to an annotation: remove the annotation", index);
		tree = load_tree(ctx, doc->pdf);
		pdf_dict_del(ctx, tree, pdf_array_get(ctx, list.keys, index));
		write_tree(ctx, doc->pdf, tree);
	}
	fz_always(ctx) {
		pdf_end_operation(ctx, doc->pdf);
		pdf_drop_obj(ctx, tree);
		drop_list(ctx, &list);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}
