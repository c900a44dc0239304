#include "cmupdf_internal.h"

#include <string.h>

/* Text and choice values written as the Poppler layer writes them through Poppler's form API,
   so that a file filled by either engine holds the same objects: a text field's /V is a text
   string (empty when cleared); a choice field's /V is a text string, or an array of them for
   several, empty when none is chosen, with /I the chosen options' indices when the field is
   multi-select. The widgets then get new appearances from MuPDF. (Buttons are written by
   EngineSupport over the PDF-object primitives.) */

/* The field and its widgets, loaded from the numbers the value gives; dropped by
   cmupdf_set_form_field. */
typedef struct {
	pdf_obj *field;
	pdf_obj **widgets;
	const form_field_value *value;
} loaded_field;

/* A choice field's /V (a text string, or an array of them for several, empty when none is
   chosen) and, when it is multi-select, /I, the chosen options' indices. */
static void write_choice(fz_context *ctx, const loaded_field *found)
{
	const form_field_value *v = found->value;
	if (v->value_count <= 1) {
		pdf_dict_put_text_string(ctx, found->field, PDF_NAME(V), v->value_count ? v->values[0] : "");
	} else {
		pdf_obj *array = pdf_dict_put_array(ctx, found->field, PDF_NAME(V), v->value_count);
		for (int i = 0; i < v->value_count; i++)
			pdf_array_push_text_string(ctx, array, v->values[i]);
	}
	if (!(v->flags & PDF_CH_FIELD_IS_MULTI_SELECT)) {
		pdf_dict_del(ctx, found->field, PDF_NAME(I));
		return;
	}
	pdf_obj *indices = pdf_dict_put_array(ctx, found->field, PDF_NAME(I), v->value_count);
	for (int i = 0; i < v->value_count; i++)
		if (v->option_indices[i] >= 0)
			pdf_array_push_int(ctx, indices, v->option_indices[i]);
}

/* Gives every widget of the field a new appearance, made by MuPDF from the field's value. */
static void regenerate_appearances(fz_context *ctx, pdf_document *doc, const loaded_field *found)
{
	for (int i = 0; i < found->value->widget_count; i++) {
		int index = found->value->pages[i];
		if (index < 0 || index >= pdf_count_pages(ctx, doc))
			continue;
		pdf_page *page = pdf_load_page(ctx, doc, index);
		fz_try(ctx) {
			for (pdf_annot *annot = pdf_first_widget(ctx, page); annot; annot = pdf_next_widget(ctx, annot))
				if (pdf_to_num(ctx, pdf_annot_obj(ctx, annot)) == found->value->widgets[i]) {
					pdf_dirty_annot(ctx, annot);
					pdf_update_annot(ctx, annot);
				}
		}
		fz_always(ctx)
			fz_drop_page(ctx, &page->super);
		fz_catch(ctx)
			fz_rethrow(ctx);
	}
}

/* The object `num`, which must be a dictionary; throws otherwise. */
static pdf_obj *load_dictionary(fz_context *ctx, pdf_document *doc, int num)
{
	if (num <= 0 || num >= pdf_xref_len(ctx, doc))
		fz_throw(ctx, FZ_ERROR_GENERIC, "the form names no object %d", num);
	pdf_obj *obj = pdf_new_indirect(ctx, doc, num, 0);
	if (!pdf_is_dict(ctx, obj)) {
		pdf_drop_obj(ctx, obj);
		fz_throw(ctx, FZ_ERROR_GENERIC, "object %d is not a dictionary", num);
	}
	return obj;
}

int cmupdf_set_form_field(cmupdf_document *doc, const form_field_value *value, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_context *ctx = doc->ctx;
	loaded_field found = { NULL, NULL, value };
	int ok = 1;
	fz_var(found);
	fz_var(ok);
	fz_try(ctx) {
		found.field = load_dictionary(ctx, doc->pdf, value->field);
		found.widgets = fz_calloc(ctx, (size_t)(value->widget_count > 0 ? value->widget_count : 1), sizeof *found.widgets);
		for (int i = 0; i < value->widget_count; i++)
			found.widgets[i] = load_dictionary(ctx, doc->pdf, value->widgets[i]);
		if (!strcmp(value->type, "Ch")) {
			write_choice(ctx, &found);
			regenerate_appearances(ctx, doc->pdf, &found);
		} else if (!strcmp(value->type, "Tx")) {
			pdf_dict_put_text_string(ctx, found.field, PDF_NAME(V), value->value_count ? value->values[0] : "");
			regenerate_appearances(ctx, doc->pdf, &found);
		} else {
			fz_throw(ctx, FZ_ERROR_GENERIC, "the field takes no value");
		}
	}
	fz_always(ctx) {
		for (int i = 0; found.widgets && i < value->widget_count; i++)
			pdf_drop_obj(ctx, found.widgets[i]);
		fz_free(ctx, found.widgets);
		pdf_drop_obj(ctx, found.field);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}
