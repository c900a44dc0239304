#include "cmupdf_internal.h"

/* Flattening: each page's widgets become part of its content. The appearance a widget shows
   (/AP /N, or its /AS state) is drawn as a form XObject, placed on the widget's /Rect as ISO
   32000-1 algorithm 12.5.5 places it; hidden and no-view widgets are dropped undrawn. The
   page's own content is wrapped in q/Q so the drawing starts from default user space. Then
   the widgets are removed from the page and the AcroForm from the catalog. */

/* The appearance `widget` shows: its normal appearance, or the state /AS names. */
static pdf_obj *shown_appearance(fz_context *ctx, pdf_obj *widget)
{
	pdf_obj *normal = pdf_dict_getl(ctx, widget, PDF_NAME(AP), PDF_NAME(N), NULL);
	if (pdf_is_stream(ctx, normal))
		return normal;
	pdf_obj *state = pdf_dict_get(ctx, widget, PDF_NAME(AS));
	pdf_obj *chosen = pdf_is_name(ctx, state) ? pdf_dict_get(ctx, normal, state) : NULL;
	return pdf_is_stream(ctx, chosen) ? chosen : NULL;
}

/* The matrix taking the appearance's transformed /BBox onto the widget's /Rect. */
static int placement(fz_context *ctx, pdf_obj *appearance, fz_rect rect, fz_matrix *matrix)
{
	fz_rect box = fz_transform_rect(pdf_dict_get_rect(ctx, appearance, PDF_NAME(BBox)), pdf_dict_get_matrix(ctx, appearance, PDF_NAME(Matrix)));
	float width = box.x1 - box.x0, height = box.y1 - box.y0;
	if (width <= 0 || height <= 0 || fz_is_empty_rect(rect))
		return 0;
	float sx = (rect.x1 - rect.x0) / width, sy = (rect.y1 - rect.y0) / height;
	*matrix = fz_make_matrix(sx, 0, 0, sy, rect.x0 - box.x0 * sx, rect.y0 - box.y0 * sy);
	return 1;
}

/* The page's own /XObject resources, made for it (from what it inherits) when it has none. */
static pdf_obj *page_xobjects(fz_context *ctx, pdf_obj *page)
{
	pdf_obj *resources = pdf_dict_get(ctx, page, PDF_NAME(Resources));
	if (!pdf_is_dict(ctx, resources)) {
		pdf_obj *inherited = pdf_dict_get_inheritable(ctx, page, PDF_NAME(Resources));
		resources = pdf_is_dict(ctx, inherited) ? pdf_copy_dict(ctx, inherited) : pdf_new_dict(ctx, pdf_get_bound_document(ctx, page), 2);
		pdf_dict_put_drop(ctx, page, PDF_NAME(Resources), resources);
	}
	pdf_obj *xobjects = pdf_dict_get(ctx, resources, PDF_NAME(XObject));
	if (!pdf_is_dict(ctx, xobjects))
		xobjects = pdf_dict_put_dict(ctx, resources, PDF_NAME(XObject), 4);
	return xobjects;
}

/* Puts the page's content between the streams `before` and `after`. */
static void wrap_contents(fz_context *ctx, pdf_document *doc, pdf_obj *page, fz_buffer *before, fz_buffer *after)
{
	pdf_obj *contents = pdf_dict_get(ctx, page, PDF_NAME(Contents));
	pdf_obj *wrapped = pdf_new_array(ctx, doc, 4);
	pdf_obj *first = NULL, *last = NULL;
	fz_var(first);
	fz_var(last);
	fz_try(ctx) {
		first = pdf_add_stream(ctx, doc, before, NULL, 0);
		last = pdf_add_stream(ctx, doc, after, NULL, 0);
		pdf_array_push(ctx, wrapped, first);
		if (pdf_is_array(ctx, contents))
			for (int i = 0; i < pdf_array_len(ctx, contents); i++)
				pdf_array_push(ctx, wrapped, pdf_array_get(ctx, contents, i));
		else if (contents)
			pdf_array_push(ctx, wrapped, contents);
		pdf_array_push(ctx, wrapped, last);
		pdf_dict_put(ctx, page, PDF_NAME(Contents), wrapped);
	}
	fz_always(ctx) {
		pdf_drop_obj(ctx, first);
		pdf_drop_obj(ctx, last);
		pdf_drop_obj(ctx, wrapped);
	}
	fz_catch(ctx)
		fz_rethrow(ctx);
}

/* Flattens the widgets of one page; returns how many were drawn. */
static int flatten_page(fz_context *ctx, pdf_document *doc, pdf_page *page, int *next_name)
{
	int drawn = 0;
	fz_buffer *before = fz_new_buffer_from_shared_data(ctx, (const unsigned char *)"q\n", 2);
	fz_buffer *after = NULL;
	fz_var(after);
	fz_var(drawn);
	fz_try(ctx) {
		after = fz_new_buffer(ctx, 256);
		fz_append_string(ctx, after, "Q\n");
		pdf_annot *widget = pdf_first_widget(ctx, page);
		if (widget) {
			pdf_obj *xobjects = page_xobjects(ctx, page->obj);
			for (; widget; widget = pdf_next_widget(ctx, widget)) {
				pdf_update_annot(ctx, widget);
				pdf_obj *object = pdf_annot_obj(ctx, widget);
				pdf_obj *appearance = shown_appearance(ctx, object);
				fz_matrix matrix;
				if (pdf_annot_flags(ctx, widget) & (PDF_ANNOT_IS_HIDDEN | PDF_ANNOT_IS_NO_VIEW) || !appearance
					|| !placement(ctx, appearance, pdf_dict_get_rect(ctx, object, PDF_NAME(Rect)), &matrix))
					continue;
				char name[32];
				do
					fz_snprintf(name, sizeof name, "FlatWidget%d", (*next_name)++);
				while (pdf_dict_gets(ctx, xobjects, name));
				pdf_dict_puts(ctx, xobjects, name, appearance);
				fz_append_printf(ctx, after, "q %g %g %g %g %g %g cm /%s Do Q\n", matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f, name);
				drawn++;
			}
			wrap_contents(ctx, doc, page->obj, before, after);
			while ((widget = pdf_first_widget(ctx, page)))
				pdf_delete_annot(ctx, page, widget);
		}
	}
	fz_always(ctx) {
		fz_drop_buffer(ctx, before);
		fz_drop_buffer(ctx, after);
	}
	fz_catch(ctx)
		fz_rethrow(ctx);
	return drawn;
}

int cmupdf_flatten_form(cmupdf_document *doc, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, -1);
	fz_context *ctx = doc->ctx;
	pdf_document *pdf = doc->pdf;
	int drawn = 0, next_name = 0, failed = 0;
	pdf_page *page = NULL;
	fz_var(drawn);
	fz_var(page);
	fz_try(ctx) {
		for (int i = 0; i < pdf_count_pages(ctx, pdf); i++) {
			page = pdf_load_page(ctx, pdf, i);
			drawn += flatten_page(ctx, pdf, page, &next_name);
			fz_drop_page(ctx, &page->super);
			page = NULL;
		}
		pdf_dict_del(ctx, pdf_dict_get(ctx, pdf_trailer(ctx, pdf), PDF_NAME(Root)), PDF_NAME(AcroForm));
	}
	fz_catch(ctx) {
		fz_drop_page(ctx, page ? &page->super : NULL);
		cmupdf_set_caught_error(ctx, error);
		failed = 1;
	}
	return failed ? -1 : drawn;
}
