#include "cmupdf_internal.h"

/* Page editing: the page tree through MuPDF's own calls, which keep its page map. Blank
   pages and pages copied from another PDF are made over the PDF-object primitives, and what
   pointed to a deleted page is dropped there too, above the engines, in Swift (EngineSupport's
   PDFObjectEditing+Pages and +Merging). */

int cmupdf_insert_page_object(cmupdf_document *doc, int at, int num, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_context *ctx = doc->ctx;
	pdf_obj *page = NULL;
	int ok = 1;
	fz_var(page);
	fz_try(ctx) {
		page = pdf_new_indirect(ctx, doc->pdf, num, 0);
		pdf_insert_page(ctx, doc->pdf, at, page);
	}
	fz_always(ctx)
		pdf_drop_obj(ctx, page);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_delete_pages(cmupdf_document *doc, const int *indices, int count, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_try(ctx) {
		/* From the last page to the first, so the indices still name the same pages. */
		for (int i = count - 1; i >= 0; i--)
			pdf_delete_page(ctx, doc->pdf, indices[i]);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_move_page(cmupdf_document *doc, int from, int to, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_context *ctx = doc->ctx;
	pdf_obj *page = NULL;
	int ok = 1;
	fz_var(page);
	fz_try(ctx) {
		page = pdf_keep_obj(ctx, pdf_lookup_page_obj(ctx, doc->pdf, from));
		pdf_delete_page(ctx, doc->pdf, from);
		pdf_insert_page(ctx, doc->pdf, to, page);
	}
	fz_always(ctx)
		pdf_drop_obj(ctx, page);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_rotate_page(cmupdf_document *doc, int index, int degrees, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_try(ctx)
		pdf_dict_put_int(ctx, pdf_lookup_page_obj(ctx, doc->pdf, index), PDF_NAME(Rotate), degrees);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}
