#include "cmupdf_internal.h"

#include <stdlib.h>
#include <string.h>

int cmupdf_set_info(cmupdf_document *doc, const char *key, const char *value, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_try(ctx) {
		pdf_obj *info = pdf_dict_get(ctx, pdf_trailer(ctx, doc->pdf), PDF_NAME(Info));
		if (!pdf_is_dict(ctx, info) && value) {
			info = pdf_add_new_dict(ctx, doc->pdf, 8);
			/* Adding an object can move the trailer: fetch it again. */
			pdf_dict_put_drop(ctx, pdf_trailer(ctx, doc->pdf), PDF_NAME(Info), info);
		}
		if (value)
			pdf_dict_puts_drop(ctx, info, key, pdf_new_text_string(ctx, value));
		else if (pdf_is_dict(ctx, info))
			pdf_dict_dels(ctx, info, key);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_xmp(cmupdf_document *doc, unsigned char **bytes, size_t *length, cmupdf_error *error)
{
	if (!doc->pdf) { /* other formats have no XMP packet */
		*bytes = NULL;
		*length = 0;
		return 1;
	}
	fz_context *ctx = doc->ctx;
	fz_buffer *buffer = NULL;
	int ok = 1;
	*bytes = NULL;
	*length = 0;
	fz_var(buffer);
	fz_try(ctx) {
		pdf_obj *root = pdf_dict_get(ctx, pdf_trailer(ctx, doc->pdf), PDF_NAME(Root));
		pdf_obj *metadata = pdf_dict_get(ctx, root, PDF_NAME(Metadata));
		if (pdf_is_stream(ctx, metadata)) {
			unsigned char *data;
			buffer = pdf_load_stream(ctx, metadata);
			size_t count = fz_buffer_storage(ctx, buffer, &data);
			*bytes = malloc(count ? count : 1);
			if (!*bytes)
				fz_throw(ctx, FZ_ERROR_GENERIC, "out of memory copying the XMP packet");
			memcpy(*bytes, data, count);
			*length = count;
		}
	}
	fz_always(ctx)
		fz_drop_buffer(ctx, buffer);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}
