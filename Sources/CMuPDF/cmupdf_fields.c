#include "cmupdf_internal.h"

#include <stdlib.h>
#include <string.h>

/* The terminal fields of the AcroForm's field tree, walked depth first in /Fields and /Kids
   order, with /FT, /Ff, /V, /DV and /MaxLen passed down from the ancestors that set them. An
   indirect field met a second time is skipped and the walk stops 32 levels down, so a field
   loop ends the walk there. The Poppler layer walks the same way. */

enum { MAX_DEPTH = 32 };

typedef struct {
	int *seen;
	int seen_count, seen_capacity;
	terminal_field_fn *terminal;
	void *user;
} field_walk;

static void *grow(fz_context *ctx, void *array, int *capacity, size_t size)
{
	int wanted = *capacity ? *capacity * 2 : 8;
	void *grown = realloc(array, size * (size_t)wanted);
	if (!grown)
		fz_throw(ctx, FZ_ERROR_GENERIC, "out of memory listing form fields");
	*capacity = wanted;
	return grown;
}

static char *copy_string(fz_context *ctx, const char *text)
{
	char *copy = strdup(text);
	if (!copy)
		fz_throw(ctx, FZ_ERROR_GENERIC, "out of memory listing form fields");
	return copy;
}

/* A copy of `value` as text: a text string, a name, or an array's items joined by '\n';
   NULL for anything else. */
static char *text_of(fz_context *ctx, pdf_obj *value)
{
	if (pdf_is_name(ctx, value))
		return copy_string(ctx, pdf_to_name(ctx, value));
	if (pdf_is_string(ctx, value))
		return copy_string(ctx, pdf_to_text_string(ctx, value));
	if (!pdf_is_array(ctx, value))
		return NULL;
	fz_buffer *joined = fz_new_buffer(ctx, 64);
	char *text = NULL;
	fz_try(ctx) {
		for (int i = 0; i < pdf_array_len(ctx, value); i++) {
			pdf_obj *item = pdf_array_get(ctx, value, i);
			if (i > 0)
				fz_append_byte(ctx, joined, '\n');
			fz_append_string(ctx, joined, pdf_is_name(ctx, item) ? pdf_to_name(ctx, item) : pdf_to_text_string(ctx, item));
		}
		text = copy_string(ctx, fz_string_from_buffer(ctx, joined));
	}
	fz_always(ctx)
		fz_drop_buffer(ctx, joined);
	fz_catch(ctx)
		fz_rethrow(ctx);
	return text;
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

int cmupdf_widget_page(fz_context *ctx, pdf_document *doc, pdf_obj *widget)
{
	int index = -1;
	fz_var(index);
	fz_try(ctx)
		index = find_page(ctx, doc, widget);
	fz_catch(ctx)
		index = -1;
	return index;
}

static void visit(fz_context *ctx, pdf_document *doc, field_walk *walk, pdf_obj *field, const char *parent, inherited_entries entries, int depth)
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
		pdf_obj *entry;
		if ((entry = pdf_dict_get(ctx, field, PDF_NAME(FT))))
			entries.type = entry;
		if ((entry = pdf_dict_get(ctx, field, PDF_NAME(Ff))))
			entries.flags = entry;
		if ((entry = pdf_dict_get(ctx, field, PDF_NAME(V))))
			entries.value = entry;
		if ((entry = pdf_dict_get(ctx, field, PDF_NAME(DV))))
			entries.default_value = entry;
		if ((entry = pdf_dict_get(ctx, field, PDF_NAME(MaxLen))))
			entries.max_length = entry;
		pdf_obj *kids = pdf_dict_get(ctx, field, PDF_NAME(Kids));
		int has_field_kids = 0;
		for (int i = 0; i < pdf_array_len(ctx, kids); i++)
			if (pdf_dict_get(ctx, pdf_array_get(ctx, kids, i), PDF_NAME(T)))
				has_field_kids = 1;
		if (has_field_kids) {
			for (int i = 0; i < pdf_array_len(ctx, kids); i++)
				visit(ctx, doc, walk, pdf_array_get(ctx, kids, i), name, entries, depth + 1);
		} else {
			walk->terminal(ctx, doc, walk->user, field, name, &entries, pdf_array_len(ctx, kids) > 0 ? kids : NULL);
		}
	}
	fz_always(ctx)
		fz_free(ctx, name);
	fz_catch(ctx)
		fz_rethrow(ctx);
}

void cmupdf_walk_fields(fz_context *ctx, pdf_document *doc, terminal_field_fn *terminal, void *user)
{
	field_walk walk = { NULL, 0, 0, terminal, user };
	fz_try(ctx) {
		pdf_obj *root = pdf_dict_get(ctx, pdf_trailer(ctx, doc), PDF_NAME(Root));
		pdf_obj *fields = pdf_dict_getl(ctx, root, PDF_NAME(AcroForm), PDF_NAME(Fields), NULL);
		inherited_entries none = { NULL };
		for (int i = 0; i < pdf_array_len(ctx, fields); i++)
			visit(ctx, doc, &walk, pdf_array_get(ctx, fields, i), "", none, 0);
	}
	fz_always(ctx)
		free(walk.seen);
	fz_catch(ctx)
		fz_rethrow(ctx);
}

// MARK: Signatures

typedef struct {
	signature_record *records;
	int count, capacity;
} signature_list;

static void add_signature(fz_context *ctx, pdf_document *doc, void *user, pdf_obj *field, const char *name,
	const inherited_entries *entries, pdf_obj *widgets)
{
	if (!pdf_name_eq(ctx, entries->type, PDF_NAME(Sig)))
		return;
	signature_list *list = user;
	if (list->count == list->capacity)
		list->records = grow(ctx, list->records, &list->capacity, sizeof *list->records);
	signature_record *record = &list->records[list->count++];
	memset(record, 0, sizeof *record);
	record->field = copy_string(ctx, name);
	record->page = cmupdf_widget_page(ctx, doc, widgets ? pdf_array_get(ctx, widgets, 0) : field);
	pdf_obj *value = entries->value;
	record->is_signed = pdf_is_dict(ctx, value);
	if (!record->is_signed)
		return;
	record->signer = text_of(ctx, pdf_dict_get(ctx, value, PDF_NAME(Name)));
	record->reason = text_of(ctx, pdf_dict_get(ctx, value, PDF_NAME(Reason)));
	record->location = text_of(ctx, pdf_dict_get(ctx, value, PDF_NAME(Location)));
	record->date = text_of(ctx, pdf_dict_get(ctx, value, PDF_NAME(M)));
	record->sub_filter = text_of(ctx, pdf_dict_get(ctx, value, PDF_NAME(SubFilter)));
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

int cmupdf_signatures(cmupdf_document *doc, signature_record **records, long long *file_size, cmupdf_error *error)
{
	if (!doc->pdf) { /* other formats have no form */
		*records = NULL;
		*file_size = 0;
		return 0;
	}
	fz_context *ctx = doc->ctx;
	signature_list list = { NULL, 0, 0 };
	int count = -1;
	fz_var(count);
	*file_size = doc->pdf->file_size;
	fz_try(ctx) {
		cmupdf_walk_fields(ctx, doc->pdf, add_signature, &list);
		count = list.count;
	}
	fz_catch(ctx) {
		signature_records_free(list.records, list.count);
		list.records = NULL;
		cmupdf_set_caught_error(ctx, error);
	}
	*records = list.records;
	return count;
}

// MARK: Form fields

typedef struct {
	form_field_record *records;
	int count, capacity;
} field_list;

/* The name of `widget`'s "on" appearance state: the key of /AP /N other than Off. */
static char *on_state(fz_context *ctx, pdf_obj *widget)
{
	pdf_obj *normal = pdf_dict_getl(ctx, widget, PDF_NAME(AP), PDF_NAME(N), NULL);
	if (pdf_is_stream(ctx, normal))
		return NULL; /* one appearance, no states (MuPDF reads a stream as its dictionary) */
	for (int i = 0; i < pdf_dict_len(ctx, normal); i++) {
		pdf_obj *key = pdf_dict_get_key(ctx, normal, i);
		if (!pdf_name_eq(ctx, key, PDF_NAME(Off)))
			return copy_string(ctx, pdf_to_name(ctx, key));
	}
	return NULL;
}

static char **new_strings(fz_context *ctx, int count)
{
	char **strings = calloc((size_t)(count > 0 ? count : 1), sizeof *strings);
	if (!strings)
		fz_throw(ctx, FZ_ERROR_GENERIC, "out of memory listing form fields");
	return strings;
}

static void add_field(fz_context *ctx, pdf_document *doc, void *user, pdf_obj *field, const char *name,
	const inherited_entries *entries, pdf_obj *widgets)
{
	field_list *list = user;
	if (list->count == list->capacity)
		list->records = grow(ctx, list->records, &list->capacity, sizeof *list->records);
	form_field_record *record = &list->records[list->count++];
	memset(record, 0, sizeof *record);
	record->name = copy_string(ctx, name);
	fz_strlcpy(record->type, pdf_is_name(ctx, entries->type) ? pdf_to_name(ctx, entries->type) : "", sizeof record->type);
	record->flags = pdf_is_int(ctx, entries->flags) ? pdf_to_int(ctx, entries->flags) : 0;
	/* A signature's value is its signature dictionary, listed by cmupdf_signatures. */
	if (!pdf_is_dict(ctx, entries->value))
		record->value = text_of(ctx, entries->value);
	record->default_value = text_of(ctx, entries->default_value);
	record->max_length = pdf_is_int(ctx, entries->max_length) ? pdf_to_int(ctx, entries->max_length) : -1;

	pdf_obj *options = pdf_dict_get(ctx, field, PDF_NAME(Opt));
	int option_count = pdf_array_len(ctx, options);
	record->option_values = new_strings(ctx, option_count);
	record->option_labels = new_strings(ctx, option_count);
	record->option_count = option_count;
	for (int i = 0; i < option_count; i++) {
		pdf_obj *option = pdf_array_get(ctx, options, i);
		int pair = pdf_is_array(ctx, option);
		record->option_values[i] = copy_string(ctx, pdf_to_text_string(ctx, pair ? pdf_array_get(ctx, option, 0) : option));
		record->option_labels[i] = copy_string(ctx, pdf_to_text_string(ctx, pair ? pdf_array_get(ctx, option, 1) : option));
	}

	int widget_count = widgets ? pdf_array_len(ctx, widgets) : 1;
	record->widget_pages = malloc(sizeof *record->widget_pages * (size_t)widget_count);
	record->widget_rects = malloc(sizeof *record->widget_rects * 4 * (size_t)widget_count);
	record->widget_states = new_strings(ctx, widget_count);
	record->widget_count = widget_count;
	if (!record->widget_pages || !record->widget_rects)
		fz_throw(ctx, FZ_ERROR_GENERIC, "out of memory listing form fields");
	for (int i = 0; i < widget_count; i++) {
		pdf_obj *widget = widgets ? pdf_array_get(ctx, widgets, i) : field;
		fz_rect rect = pdf_dict_get_rect(ctx, widget, PDF_NAME(Rect));
		record->widget_pages[i] = cmupdf_widget_page(ctx, doc, widget);
		record->widget_rects[4 * i] = rect.x0;
		record->widget_rects[4 * i + 1] = rect.y0;
		record->widget_rects[4 * i + 2] = rect.x1;
		record->widget_rects[4 * i + 3] = rect.y1;
		if (pdf_name_eq(ctx, entries->type, PDF_NAME(Btn)))
			record->widget_states[i] = on_state(ctx, widget);
	}
}

int cmupdf_form_fields(cmupdf_document *doc, form_field_record **records, cmupdf_error *error)
{
	if (!doc->pdf) { /* other formats have no form */
		*records = NULL;
		return 0;
	}
	fz_context *ctx = doc->ctx;
	field_list list = { NULL, 0, 0 };
	int count = -1;
	fz_var(count);
	fz_try(ctx) {
		cmupdf_walk_fields(ctx, doc->pdf, add_field, &list);
		count = list.count;
	}
	fz_catch(ctx) {
		form_field_records_free(list.records, list.count);
		list.records = NULL;
		cmupdf_set_caught_error(ctx, error);
	}
	*records = list.records;
	return count;
}
