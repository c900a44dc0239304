#include "cmupdf_internal.h"

#include <string.h>

int cmupdf_file_identifier(cmupdf_document *doc, unsigned char *buffer, int size)
{
	if (!doc->pdf)
		return 0;
	fz_context *ctx = doc->ctx;
	int length = 0;
	fz_try(ctx) {
		pdf_obj *id = pdf_array_get(ctx, pdf_dict_get(ctx, pdf_trailer(ctx, doc->pdf), PDF_NAME(ID)), 0);
		if (pdf_is_string(ctx, id)) {
			length = (int)pdf_to_str_len(ctx, id);
			memcpy(buffer, pdf_to_str_buf(ctx, id), length < size ? length : size);
		}
	}
	fz_catch(ctx)
		length = 0;
	return length;
}

int cmupdf_can_save_incrementally(cmupdf_document *doc)
{
	if (!doc->pdf)
		return 0;
	fz_context *ctx = doc->ctx;
	int can = 0;
	fz_try(ctx)
		can = pdf_can_be_saved_incrementally(ctx, doc->pdf);
	fz_catch(ctx)
		can = 0;
	return can;
}

/* Copies the bytes the document was opened from to `out`. */
static void copy_original(fz_context *ctx, pdf_document *doc, fz_output *out)
{
	unsigned char buffer[65536];
	size_t n;
	fz_seek(ctx, doc->file, 0, SEEK_SET);
	while ((n = fz_read(ctx, doc->file, buffer, sizeof buffer)) > 0)
		fz_write_data(ctx, out, buffer, n);
}

/* The options of a save: an incremental update, or a whole file without unused objects. */
static pdf_write_options save_options(int incremental)
{
	pdf_write_options options = pdf_default_write_options;
	if (incremental) {
		options.do_incremental = 1;
	} else {
		options.do_garbage = 1;
		options.do_compress = 1;
	}
	return options;
}

/* Writes the document as `options` say; an incremental update after the original bytes,
   since MuPDF writes only the update. Throws. */
static void write_with(fz_context *ctx, pdf_document *pdf, fz_output *out, pdf_write_options *options)
{
	if (options->do_incremental)
		copy_original(ctx, pdf, out);
	pdf_write_document(ctx, pdf, out, options);
}

void cmupdf_write_document(fz_context *ctx, pdf_document *pdf, fz_output *out, int incremental)
{
	pdf_write_options options = save_options(incremental);
	write_with(ctx, pdf, out, &options);
}

/* Writes the document to `path`, a new file, as `options` say. Returns 1, or 0 with `error` set. */
static int save_to_path(cmupdf_document *doc, const char *path, pdf_write_options *options, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	fz_output *out = NULL;
	int ok = 1;
	fz_var(out);
	fz_try(ctx) {
		out = fz_new_output_with_path(ctx, path, 0);
		write_with(ctx, doc->pdf, out, options);
		fz_close_output(ctx, out);
	}
	fz_always(ctx)
		fz_drop_output(ctx, out);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_save(cmupdf_document *doc, const char *path, int incremental, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	pdf_write_options options = save_options(incremental);
	return save_to_path(doc, path, &options, error);
}

int cmupdf_save_protected(cmupdf_document *doc, const char *path, int method, int permissions,
	const char *user_password, const char *owner_password, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	pdf_write_options options = save_options(0);
	options.do_encrypt = method == 2 ? PDF_ENCRYPT_AES_256 : method == 1 ? PDF_ENCRYPT_AES_128 : PDF_ENCRYPT_NONE;
	options.permissions = permissions;
	fz_strlcpy(options.upwd_utf8, user_password, sizeof options.upwd_utf8);
	fz_strlcpy(options.opwd_utf8, owner_password, sizeof options.opwd_utf8);
	return save_to_path(doc, path, &options, error);
}
