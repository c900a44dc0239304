#include "cmupdf_internal.h"

/* What MuPDF does of a text or choice field's new value, which EngineSupport writes into the
   field's dictionary over the PDF-object primitives (FormFieldValue): drawing its widgets
   anew from it. (Buttons are written by EngineSupport too.) */

int cmupdf_draw_widgets(cmupdf_document *doc, const int *widgets, const int *pages, int count, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_context *ctx = doc->ctx;
	pdf_page *page = NULL;
	int ok = 1;
	fz_var(page);
	fz_try(ctx) {
		for (int i = 0; i < count; i++) {
			if (pages[i] < 0 || pages[i] >= pdf_count_pages(ctx, doc->pdf))
				continue;
			page = pdf_load_page(ctx, doc->pdf, pages[i]);
			for (pdf_annot *widget = pdf_first_widget(ctx, page); widget; widget = pdf_next_widget(ctx, widget))
				if (pdf_to_num(ctx, pdf_annot_obj(ctx, widget)) == widgets[i]) {
					pdf_dirty_annot(ctx, widget);
					pdf_update_annot(ctx, widget);
				}
			fz_drop_page(ctx, &page->super);
			page = NULL;
		}
	}
	fz_always(ctx)
		if (page)
			fz_drop_page(ctx, &page->super);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}
