#include "cmupdf_internal.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* PDF objects: the primitives EngineSupport's PDFObjectEditing writes outline and link
   edits on. Objects are changed in place in the document, so MuPDF keeps them for an
   incremental save. */

/* The object `syntax` writes, parsed against `pdf`'s objects; the caller drops it. Throws.
   The parser reads a reference ("5 0 R") as one only inside an array or a dictionary, so
   `syntax` is read as the one item of an array. */
static pdf_obj *parse(fz_context *ctx, pdf_document *pdf, const char *syntax)
{
	size_t length = strlen(syntax);
	char *wrapped = fz_malloc(ctx, length + 3);
	fz_stream *stream = NULL;
	pdf_obj *array = NULL, *obj = NULL;
	pdf_lexbuf lexbuf;
	fz_var(stream);
	fz_var(array);
	wrapped[0] = '[';
	memcpy(wrapped + 1, syntax, length);
	wrapped[length + 1] = ']';
	wrapped[length + 2] = 0;
	pdf_lexbuf_init(ctx, &lexbuf, PDF_LEXBUF_SMALL);
	fz_try(ctx) {
		stream = fz_open_memory(ctx, (const unsigned char *)wrapped, length + 2);
		array = pdf_parse_stm_obj(ctx, pdf, stream, &lexbuf);
		if (!pdf_is_array(ctx, array) || pdf_array_len(ctx, array) != 1)
			fz_throw(ctx, FZ_ERROR_SYNTAX, "not one PDF object");
		obj = pdf_keep_obj(ctx, pdf_array_get(ctx, array, 0));
	}
	fz_always(ctx) {
		pdf_drop_obj(ctx, array);
		fz_drop_stream(ctx, stream);
		pdf_lexbuf_fin(ctx, &lexbuf);
		fz_free(ctx, wrapped);
	}
	fz_catch(ctx)
		fz_rethrow(ctx);
	return obj;
}

/* Hands `obj` to `each` as tokens, `depth` levels down. Throws. */
static void emit(fz_context *ctx, pdf_obj *obj, int depth, pdf_token_callback each, void *user)
{
	int i;
	if (depth > PDF_TOKEN_MAX_DEPTH) {
		each(user, PDF_TOKEN_NULL, 0, 0, NULL, 0);
	} else if (pdf_is_indirect(ctx, obj)) {
		/* checked first: the other tests follow references */
		each(user, PDF_TOKEN_REFERENCE, pdf_to_num(ctx, obj), pdf_to_gen(ctx, obj), NULL, 0);
	} else if (pdf_is_bool(ctx, obj)) {
		each(user, PDF_TOKEN_BOOL, pdf_to_bool(ctx, obj), 0, NULL, 0);
	} else if (pdf_is_int(ctx, obj)) {
		each(user, PDF_TOKEN_INTEGER, (double)pdf_to_int64(ctx, obj), 0, NULL, 0);
	} else if (pdf_is_real(ctx, obj)) {
		each(user, PDF_TOKEN_REAL, pdf_to_real(ctx, obj), 0, NULL, 0);
	} else if (pdf_is_name(ctx, obj)) {
		const char *name = pdf_to_name(ctx, obj);
		each(user, PDF_TOKEN_NAME, 0, 0, name, strlen(name));
	} else if (pdf_is_string(ctx, obj)) {
		each(user, PDF_TOKEN_STRING, 0, 0, pdf_to_str_buf(ctx, obj), pdf_to_str_len(ctx, obj));
	} else if (pdf_is_array(ctx, obj)) {
		each(user, PDF_TOKEN_ARRAY_BEGIN, 0, 0, NULL, 0);
		for (i = 0; i < pdf_array_len(ctx, obj); i++)
			emit(ctx, pdf_array_get(ctx, obj, i), depth + 1, each, user);
		each(user, PDF_TOKEN_ARRAY_END, 0, 0, NULL, 0);
	} else if (pdf_is_dict(ctx, obj)) {
		each(user, PDF_TOKEN_DICT_BEGIN, 0, 0, NULL, 0);
		for (i = 0; i < pdf_dict_len(ctx, obj); i++) {
			const char *key = pdf_to_name(ctx, pdf_dict_get_key(ctx, obj, i));
			each(user, PDF_TOKEN_KEY, 0, 0, key, strlen(key));
			emit(ctx, pdf_dict_get_val(ctx, obj, i), depth + 1, each, user);
		}
		each(user, PDF_TOKEN_DICT_END, 0, 0, NULL, 0);
	} else {
		each(user, PDF_TOKEN_NULL, 0, 0, NULL, 0);
	}
}

/* Sets `num` and `gen` to the reference `obj` is; throws, naming `what`, when it is none. */
static void reference_of(fz_context *ctx, pdf_obj *obj, const char *what, int *num, int *gen)
{
	if (!pdf_is_indirect(ctx, obj))
		fz_throw(ctx, FZ_ERROR_SYNTAX, "%s is not an indirect object", what);
	*num = pdf_to_num(ctx, obj);
	*gen = pdf_to_gen(ctx, obj);
}

int cmupdf_catalog_reference(cmupdf_document *doc, int *num, int *gen, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_var(ok);
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_try(ctx) {
		reference_of(ctx, pdf_dict_get(ctx, pdf_trailer(ctx, doc->pdf), PDF_NAME(Root)), "the catalog", num, gen);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_page_reference(cmupdf_document *doc, int index, int *num, int *gen, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_var(ok);
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_try(ctx) {
		reference_of(ctx, pdf_lookup_page_obj(ctx, doc->pdf, index), "the page", num, gen);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_object_tokens(cmupdf_document *doc, int num, pdf_token_callback each, void *user, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	pdf_obj *obj = NULL;
	int ok = 1;
	fz_var(obj);
	fz_var(ok);
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_try(ctx) {
		if (num > 0 && num < pdf_xref_len(ctx, doc->pdf))
			obj = pdf_load_object(ctx, doc->pdf, num);
		emit(ctx, obj, 0, each, user);
	}
	fz_always(ctx)
		pdf_drop_obj(ctx, obj);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_trailer_tokens(cmupdf_document *doc, pdf_token_callback each, void *user, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_var(ok);
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_try(ctx)
		emit(ctx, pdf_trailer(ctx, doc->pdf), 0, each, user);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

long long cmupdf_file_length(cmupdf_document *doc)
{
	return doc->pdf ? (long long)doc->pdf->file_size : 0;
}

int cmupdf_stream_contents(cmupdf_document *doc, int num, size_t limit, int decoded, unsigned char **bytes, size_t *length, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	fz_stream *stream = NULL;
	unsigned char *data = NULL;
	int ok = 1;
	fz_var(stream);
	fz_var(data);
	fz_var(ok);
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	*bytes = NULL;
	*length = 0;
	fz_try(ctx) {
		if (limit < SIZE_MAX && pdf_obj_num_is_stream(ctx, doc->pdf, num)) {
			/* Read in growing chunks: the limit is a bound, not the size to expect. */
			size_t count = 0, capacity = 0;
			stream = decoded ? pdf_open_stream_number(ctx, doc->pdf, num) : pdf_open_raw_stream_number(ctx, doc->pdf, num);
			for (;;) {
				if (count == capacity) {
					size_t grown = capacity < 65536 ? 65536 : capacity * 2;
					if (grown > limit + 1)
						grown = limit + 1;
					if (grown == capacity)
						break;
					unsigned char *larger = realloc(data, grown);
					if (!larger)
						fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory reading a stream");
					data = larger;
					capacity = grown;
				}
				size_t got = fz_read(ctx, stream, data + count, capacity - count);
				if (got == 0)
					break;
				count += got;
			}
			if (count <= limit) {
				*bytes = data ? data : malloc(1);
				if (!*bytes)
					fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory reading a stream");
				*length = count;
				data = NULL;
			}
		}
	}
	fz_always(ctx) {
		free(data);
		fz_drop_stream(ctx, stream);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_add_object(cmupdf_document *doc, const char *syntax, int *num, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	pdf_obj *obj = NULL, *ref = NULL;
	int ok = 1;
	fz_var(obj);
	fz_var(ref);
	fz_var(ok);
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_try(ctx) {
		obj = parse(ctx, doc->pdf, syntax);
		ref = pdf_add_object(ctx, doc->pdf, obj);
		*num = pdf_to_num(ctx, ref);
	}
	fz_always(ctx) {
		pdf_drop_obj(ctx, ref);
		pdf_drop_obj(ctx, obj);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_add_stream(cmupdf_document *doc, const char *syntax, const unsigned char *bytes, size_t length, int *num, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	pdf_obj *dict = NULL, *ref = NULL;
	fz_buffer *buffer = NULL;
	int ok = 1;
	fz_var(dict);
	fz_var(ref);
	fz_var(buffer);
	fz_var(ok);
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_try(ctx) {
		dict = parse(ctx, doc->pdf, syntax);
		if (!pdf_is_dict(ctx, dict))
			fz_throw(ctx, FZ_ERROR_SYNTAX, "a stream's dictionary is not a dictionary");
		buffer = fz_new_buffer_from_copied_data(ctx, bytes, length);
		/* Stored as given (compressed = 1): MuPDF sets /Length and adds no filter. */
		ref = pdf_add_stream(ctx, doc->pdf, buffer, dict, 1);
		*num = pdf_to_num(ctx, ref);
	}
	fz_always(ctx) {
		pdf_drop_obj(ctx, ref);
		pdf_drop_obj(ctx, dict);
		fz_drop_buffer(ctx, buffer);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_replace_object(cmupdf_document *doc, int num, const char *syntax, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	pdf_obj *obj = NULL;
	int ok = 1;
	fz_var(obj);
	fz_var(ok);
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_try(ctx) {
		obj = parse(ctx, doc->pdf, syntax);
		pdf_update_object(ctx, doc->pdf, num, obj);
	}
	fz_always(ctx)
		pdf_drop_obj(ctx, obj);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_set_entry(cmupdf_document *doc, int num, const char *key, const char *syntax, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	pdf_obj *dict = NULL;
	int ok = 1;
	fz_var(dict);
	fz_var(ok);
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_try(ctx) {
		dict = pdf_load_object(ctx, doc->pdf, num);
		if (!pdf_is_dict(ctx, dict))
			fz_throw(ctx, FZ_ERROR_SYNTAX, "object %d is not a dictionary", num);
		if (syntax)
			pdf_dict_puts_drop(ctx, dict, key, parse(ctx, doc->pdf, syntax));
		else
			pdf_dict_dels(ctx, dict, key);
	}
	fz_always(ctx)
		pdf_drop_obj(ctx, dict);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_set_trailer_entry(cmupdf_document *doc, const char *key, const char *syntax, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_var(ok);
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_try(ctx) {
		if (syntax)
			pdf_dict_puts_drop(ctx, pdf_trailer(ctx, doc->pdf), key, parse(ctx, doc->pdf, syntax));
		else
			pdf_dict_dels(ctx, pdf_trailer(ctx, doc->pdf), key);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_append_annotation(cmupdf_document *doc, int index, int num, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_var(ok);
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_try(ctx) {
		pdf_obj *page = pdf_lookup_page_obj(ctx, doc->pdf, index);
		pdf_obj *annots = pdf_dict_get(ctx, page, PDF_NAME(Annots));
		if (!pdf_is_array(ctx, annots))
			annots = pdf_dict_put_array(ctx, page, PDF_NAME(Annots), 1);
		pdf_array_push_drop(ctx, annots, pdf_new_indirect(ctx, doc->pdf, num, 0));
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_remove_annotation(cmupdf_document *doc, int index, int num, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_var(ok);
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_try(ctx) {
		pdf_obj *annots = pdf_dict_get(ctx, pdf_lookup_page_obj(ctx, doc->pdf, index), PDF_NAME(Annots));
		int i;
		for (i = pdf_array_len(ctx, annots) - 1; i >= 0; i--)
			if (pdf_to_num(ctx, pdf_array_get(ctx, annots, i)) == num)
				pdf_array_delete(ctx, annots, i);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}
