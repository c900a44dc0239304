#include "cmupdf_internal.h"

/* Widgets' appearance streams, drawn by MuPDF from their fields' values: every widget's,
   before a form is flattened (flattening, written above the engines over the PDF-object
   primitives, draws those streams), and a field's widgets', after EngineSupport wrote its
   value over the primitives (FormFieldValue). */

/* Draws the widgets of page `index` anew: all of them (`only` NULL), or those whose object
   number is among the `count` of `only`, marked changed first (a value written over the
   object primitives does not mark them). */
static void draw_page_widgets(fz_context *ctx, pdf_document *pdf, int index, const int *only, int count)
{
	pdf_page *page = pdf_load_page(ctx, pdf, index);
	fz_try(ctx) {
		for (pdf_annot *widget = pdf_first_widget(ctx, page); widget; widget = pdf_next_widget(ctx, widget)) {
			if (only) {
				int num = pdf_to_num(ctx, pdf_annot_obj(ctx, widget)), wanted = 0;
				for (int i = 0; i < count && !wanted; i++)
					wanted = only[i] == num;
				if (!wanted)
					continue;
				pdf_dirty_annot(ctx, widget);
			}
			pdf_update_annot(ctx, widget);
		}
	}
	fz_always(ctx)
		fz_drop_page(ctx, &page->super);
	fz_catch(ctx)
		fz_rethrow(ctx);
}

int cmupdf_update_widget_appearances(cmupdf_document *doc, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_try(ctx)
		for (int i = 0; i < pdf_count_pages(ctx, doc->pdf); i++)
			draw_page_widgets(ctx, doc->pdf, i, NULL, 0);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_draw_widgets(cmupdf_document *doc, const int *widgets, const int *pages, int count, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_try(ctx)
		for (int i = 0; i < count; i++)
			if (pages[i] >= 0 && pages[i] < pdf_count_pages(ctx, doc->pdf))
				draw_page_widgets(ctx, doc->pdf, pages[i], widgets + i, 1);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}
