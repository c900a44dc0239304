#include "cmupdf_internal.h"

int cmupdf_apply_redactions(cmupdf_document *doc, cmupdf_page *page, int black_boxes, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, -1);
	fz_context *ctx = doc->ctx;
	/* Pixels: only the image's pixels under an area are blanked, not the whole image. */
	pdf_redact_options options = { black_boxes, PDF_REDACT_IMAGE_PIXELS };
	int redacted = -1;
	fz_var(redacted);
	fz_try(ctx)
		redacted = pdf_redact_page(ctx, doc->pdf, cmupdf_pdf_page(ctx, page), &options) ? 1 : 0;
	fz_catch(ctx)
		cmupdf_set_caught_error(ctx, error);
	return redacted;
}
