#include "cmupdf_internal.h"

/* Brings every widget's appearance stream up to date with its field's value, as MuPDF draws
   it, so that what the objects hold is what the widget shows (flattening, written above the
   engines over the PDF-object primitives, draws those streams). */
int cmupdf_update_widget_appearances(cmupdf_document *doc, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_context *ctx = doc->ctx;
	pdf_document *pdf = doc->pdf;
	pdf_page *page = NULL;
	int ok = 1;
	fz_var(page);
	fz_try(ctx) {
		for (int i = 0; i < pdf_count_pages(ctx, pdf); i++) {
			page = pdf_load_page(ctx, pdf, i);
			for (pdf_annot *widget = pdf_first_widget(ctx, page); widget; widget = pdf_next_widget(ctx, widget))
				pdf_update_annot(ctx, widget);
			fz_drop_page(ctx, &page->super);
			page = NULL;
		}
	}
	fz_catch(ctx) {
		fz_drop_page(ctx, page ? &page->super : NULL);
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}
