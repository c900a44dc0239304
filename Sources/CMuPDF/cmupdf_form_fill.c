#include "cmupdf_internal.h"

#include <string.h>

/* Form values written as the Poppler layer writes them through Poppler's form API, so that a
   file filled by either engine holds the same objects: a text field's /V is a text string
   (empty when cleared); a button's /V is the state's name, each widget's /AS that state when
   the widget has it, else Off; a choice field's /V is a text string, or an array of them for
   several, empty when none is chosen, with /I the chosen options' indices when the field is
   multi-select. Text and choice widgets then get new appearances from MuPDF. */

typedef struct {
	const char *name;
	pdf_obj *field, *widgets, *type, *flags;
} field_lookup;

static void match_name(fz_context *ctx, pdf_document *doc, void *user, pdf_obj *field, const char *name,
	const inherited_entries *entries, pdf_obj *widgets)
{
	field_lookup *lookup = user;
	if (lookup->field || strcmp(name, lookup->name) != 0)
		return;
	lookup->field = field;
	lookup->widgets = widgets;
	lookup->type = entries->type;
	lookup->flags = entries->flags;
}

static pdf_obj *widget_at(fz_context *ctx, const field_lookup *lookup, int index)
{
	return lookup->widgets ? pdf_array_get(ctx, lookup->widgets, index) : lookup->field;
}

static int widget_count(fz_context *ctx, const field_lookup *lookup)
{
	return lookup->widgets ? pdf_array_len(ctx, lookup->widgets) : 1;
}

static void set_button(fz_context *ctx, const field_lookup *lookup, const char *state)
{
	pdf_dict_put_name(ctx, lookup->field, PDF_NAME(V), state);
	for (int i = 0; i < widget_count(ctx, lookup); i++) {
		pdf_obj *widget = widget_at(ctx, lookup, i);
		pdf_obj *normal = pdf_dict_getl(ctx, widget, PDF_NAME(AP), PDF_NAME(N), NULL);
		int has_state = pdf_is_dict(ctx, normal) && pdf_dict_gets(ctx, normal, state);
		pdf_dict_put_name(ctx, widget, PDF_NAME(AS), has_state ? state : "Off");
	}
}

static void set_choice(fz_context *ctx, pdf_document *doc, const field_lookup *lookup, const char **values, int count)
{
	if (count <= 1) {
		pdf_dict_put_text_string(ctx, lookup->field, PDF_NAME(V), count ? values[0] : "");
	} else {
		pdf_obj *array = pdf_dict_put_array(ctx, lookup->field, PDF_NAME(V), count);
		for (int i = 0; i < count; i++)
			pdf_array_push_text_string(ctx, array, values[i]);
	}
	if (!(pdf_to_int(ctx, lookup->flags) & PDF_CH_FIELD_IS_MULTI_SELECT)) {
		pdf_dict_del(ctx, lookup->field, PDF_NAME(I));
		return;
	}
	pdf_obj *options = pdf_dict_get(ctx, lookup->field, PDF_NAME(Opt));
	pdf_obj *indices = pdf_dict_put_array(ctx, lookup->field, PDF_NAME(I), count);
	for (int i = 0; i < pdf_array_len(ctx, options); i++) {
		pdf_obj *option = pdf_array_get(ctx, options, i);
		const char *export = pdf_to_text_string(ctx, pdf_is_array(ctx, option) ? pdf_array_get(ctx, option, 0) : option);
		for (int k = 0; k < count; k++)
			if (!strcmp(export, values[k])) {
				pdf_array_push_int(ctx, indices, i);
				break;
			}
	}
}

/* Gives every widget of the field a new appearance, made by MuPDF from the field's value. */
static void regenerate_appearances(fz_context *ctx, pdf_document *doc, const field_lookup *lookup)
{
	for (int i = 0; i < widget_count(ctx, lookup); i++) {
		pdf_obj *widget = widget_at(ctx, lookup, i);
		int index = cmupdf_widget_page(ctx, doc, widget);
		if (index < 0)
			continue;
		pdf_page *page = pdf_load_page(ctx, doc, index);
		fz_try(ctx) {
			for (pdf_annot *annot = pdf_first_widget(ctx, page); annot; annot = pdf_next_widget(ctx, annot))
				if (pdf_to_num(ctx, pdf_annot_obj(ctx, annot)) == pdf_to_num(ctx, widget)) {
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

int cmupdf_set_form_field(cmupdf_document *doc, const char *name, const char **values, int count, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, -1);
	fz_context *ctx = doc->ctx;
	field_lookup lookup = { name };
	int result = -1;
	fz_var(result);
	fz_try(ctx) {
		cmupdf_walk_fields(ctx, doc->pdf, match_name, &lookup);
		if (!lookup.field) {
			result = 1;
		} else if (!pdf_is_indirect(ctx, lookup.field)) {
			fz_throw(ctx, FZ_ERROR_GENERIC, "the field %s is not an indirect object", name);
		} else if (pdf_name_eq(ctx, lookup.type, PDF_NAME(Btn))) {
			set_button(ctx, &lookup, count ? values[0] : "Off");
			result = 0;
		} else if (pdf_name_eq(ctx, lookup.type, PDF_NAME(Ch))) {
			set_choice(ctx, doc->pdf, &lookup, values, count);
			regenerate_appearances(ctx, doc->pdf, &lookup);
			result = 0;
		} else if (pdf_name_eq(ctx, lookup.type, PDF_NAME(Tx))) {
			pdf_dict_put_text_string(ctx, lookup.field, PDF_NAME(V), count ? values[0] : "");
			regenerate_appearances(ctx, doc->pdf, &lookup);
			result = 0;
		} else {
			fz_throw(ctx, FZ_ERROR_GENERIC, "the field %s takes no value", name);
		}
	}
	fz_catch(ctx)
		cmupdf_set_caught_error(ctx, error);
	return result;
}

int cmupdf_xfa_facts(cmupdf_document *doc)
{
	if (!doc->pdf)
		return 0;
	fz_context *ctx = doc->ctx;
	int facts = 0;
	fz_var(facts);
	fz_try(ctx) {
		pdf_obj *root = pdf_dict_get(ctx, pdf_trailer(ctx, doc->pdf), PDF_NAME(Root));
		if (pdf_dict_getl(ctx, root, PDF_NAME(AcroForm), PDF_NAME(XFA), NULL))
			facts |= 1;
		if (pdf_to_bool(ctx, pdf_dict_gets(ctx, root, "NeedsRendering")))
			facts |= 2;
	}
	fz_catch(ctx)
		facts = 0;
	return facts;
}
