#include "cmupdf_internal.h"

#include <stdlib.h>
#include <string.h>

/* The signature fields of the AcroForm's field tree, walked depth first in /Fields and
   /Kids order. An indirect field met a second time is skipped and the walk stops 32 levels
   down, so a field loop ends the walk there. */

enum { MAX_DEPTH = 32 };

typedef struct {
	signature_record *records;
	int count, capacity;
	int *seen;
	int seen_count, seen_capacity;
} field_walk;

static void *grow(fz_context *ctx, void *array, int *capacity, size_t size)
{
	int wanted = *capacity ? *capacity * 2 : 8;
	void *grown = realloc(array, size * (size_t)wanted);
	if (!grown)
		fz_throw(ctx, FZ_ERROR_GENERIC, "out of memory listing signature fields");
	*capacity = wanted;
	return grown;
}

static char *copy_string(fz_context *ctx, const char *text)
{
	char *copy = strdup(text);
	if (!copy)
		fz_throw(ctx, FZ_ERROR_GENERIC, "out of memory listing signature fields");
	return copy;
}

/* A copy of the text string or name at `key`; NULL when the key holds neither. */
static char *text_entry(fz_context *ctx, pdf_obj *dict, pdf_obj *key)
{
	pdf_obj *value = pdf_dict_get(ctx, dict, key);
	if (pdf_is_name(ctx, value))
		return copy_string(ctx, pdf_to_name(ctx, value));
	if (pdf_is_string(ctx, value))
		return copy_string(ctx, pdf_to_text_string(ctx, value));
	return NULL;
}

/* True the first time `field` (an indirect object) is met. */
static int first_visit(fz_context *ctx, field_walk *walk, pdf_obj *field)
{
	int number = pdf_to_num(ctx, field);
	if (number <= 0)
		return 1;
	for (int i = 0; i < walk->seen_count; i++)
		if (walk->seen[i] == number)
			return 0;
	if (walk->seen_count == walk->seen_capacity)
		walk->seen = grow(ctx, walk->seen, &walk->seen_capacity, sizeof *walk->seen);
	walk->seen[walk->seen_count++] = number;
	return 1;
}

/* The index of the page showing `widget`: its /P, else the page whose /Annots lists it;
   -1 when neither is found. */
static int find_page(fz_context *ctx, pdf_document *doc, pdf_obj *widget)
{
	pdf_obj *page = pdf_dict_get(ctx, widget, PDF_NAME(P));
	if (pdf_is_dict(ctx, page)) {
		int index = pdf_lookup_page_number(ctx, doc, page);
		if (index >= 0)
			return index;
	}
	int number = pdf_to_num(ctx, widget);
	int count = pdf_count_pages(ctx, doc);
	for (int i = 0; number > 0 && i < count; i++) {
		pdf_obj *annots = pdf_dict_get(ctx, pdf_lookup_page_obj(ctx, doc, i), PDF_NAME(Annots));
		for (int k = 0; k < pdf_array_len(ctx, annots); k++)
			if (pdf_to_num(ctx, pdf_array_get(ctx, annots, k)) == number)
				return i;
	}
	return -1;
}

/* find_page, or -1 when the page tree cannot be read. */
static int page_of(fz_context *ctx, pdf_document *doc, pdf_obj *widget)
{
	int index = -1;
	fz_var(index);
	fz_try(ctx)
		index = find_page(ctx, doc, widget);
	fz_catch(ctx)
		index = -1;
	return index;
}

static void add_signature(fz_context *ctx, pdf_document *doc, field_walk *walk, pdf_obj *field, const char *name, pdf_obj *widget)
{
	if (walk->count == walk->capacity)
		walk->records = grow(ctx, walk->records, &walk->capacity, sizeof *walk->records);
	signature_record *record = &walk->records[walk->count++];
	memset(record, 0, sizeof *record);
	record->field = copy_string(ctx, name);
	record->page = page_of(ctx, doc, widget);
	pdf_obj *value = pdf_dict_get(ctx, field, PDF_NAME(V));
	record->is_signed = pdf_is_dict(ctx, value);
	if (!record->is_signed)
		return;
	record->signer = text_entry(ctx, value, PDF_NAME(Name));
	record->reason = text_entry(ctx, value, PDF_NAME(Reason));
	record->location = text_entry(ctx, value, PDF_NAME(Location));
	record->date = text_entry(ctx, value, PDF_NAME(M));
	record->sub_filter = text_entry(ctx, value, PDF_NAME(SubFilter));
	pdf_obj *ranges = pdf_dict_get(ctx, value, PDF_NAME(ByteRange));
	int pairs = pdf_array_len(ctx, ranges) / 2;
	if (pairs > 0) {
		record->ranges = malloc(sizeof *record->ranges * 2 * (size_t)pairs);
		if (!record->ranges)
			fz_throw(ctx, FZ_ERROR_GENERIC, "out of memory listing signature fields");
		for (int i = 0; i < 2 * pairs; i++)
			record->ranges[i] = pdf_to_int64(ctx, pdf_array_get(ctx, ranges, i));
		record->range_count = pairs;
	}
}

static void visit(fz_context *ctx, pdf_document *doc, field_walk *walk, pdf_obj *field, const char *parent, pdf_obj *type, int depth)
{
	if (depth > MAX_DEPTH || !pdf_is_dict(ctx, field) || !first_visit(ctx, walk, field))
		return;
	pdf_obj *partial = pdf_dict_get(ctx, field, PDF_NAME(T));
	const char *own = pdf_is_string(ctx, partial) ? pdf_to_text_string(ctx, partial) : "";
	size_t length = strlen(parent) + 1 + strlen(own) + 1;
	char *name = fz_malloc(ctx, length);
	fz_try(ctx) {
		if (*parent && *own)
			fz_snprintf(name, length, "%s.%s", parent, own);
		else
			fz_snprintf(name, length, "%s", *own ? own : parent);
		pdf_obj *own_type = pdf_dict_get(ctx, field, PDF_NAME(FT));
		if (own_type)
			type = own_type;
		pdf_obj *kids = pdf_dict_get(ctx, field, PDF_NAME(Kids));
		int has_field_kids = 0;
		for (int i = 0; i < pdf_array_len(ctx, kids); i++)
			if (pdf_dict_get(ctx, pdf_array_get(ctx, kids, i), PDF_NAME(T)))
				has_field_kids = 1;
		if (has_field_kids) {
			for (int i = 0; i < pdf_array_len(ctx, kids); i++)
				visit(ctx, doc, walk, pdf_array_get(ctx, kids, i), name, type, depth + 1);
		} else if (pdf_name_eq(ctx, type, PDF_NAME(Sig))) {
			add_signature(ctx, doc, walk, field, name, pdf_array_len(ctx, kids) > 0 ? pdf_array_get(ctx, kids, 0) : field);
		}
	}
	fz_always(ctx)
		fz_free(ctx, name);
	fz_catch(ctx)
		fz_rethrow(ctx);
}

int cmupdf_signatures(cmupdf_document *doc, signature_record **records, long long *file_size, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	field_walk walk = { 0 };
	int count = -1;
	*records = NULL;
	*file_size = doc->pdf->file_size;
	fz_var(count);
	fz_try(ctx) {
		pdf_obj *root = pdf_dict_get(ctx, pdf_trailer(ctx, doc->pdf), PDF_NAME(Root));
		pdf_obj *fields = pdf_dict_getl(ctx, root, PDF_NAME(AcroForm), PDF_NAME(Fields), NULL);
		for (int i = 0; i < pdf_array_len(ctx, fields); i++)
			visit(ctx, doc->pdf, &walk, pdf_array_get(ctx, fields, i), "", NULL, 0);
		count = walk.count;
	}
	fz_always(ctx)
		free(walk.seen);
	fz_catch(ctx) {
		signature_records_free(walk.records, walk.count);
		walk.records = NULL;
		cmupdf_set_caught_error(ctx, error);
	}
	*records = walk.records;
	return count;
}
