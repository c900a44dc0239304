#ifndef CMUPDF_INTERNAL_H
#define CMUPDF_INTERNAL_H

#include "CMuPDF.h"
#include <mupdf/fitz.h>
#include <mupdf/pdf.h>

/* Where a context's warnings and errors go; must outlive the context. */
typedef struct {
	cmupdf_log_callback log;  /* NULL drops the messages */
	void *user;
} cmupdf_log_target;

struct cmupdf_document {
	fz_context *ctx;
	fz_document *doc;  /* any format MuPDF opens */
	pdf_document *pdf; /* the same document when it is a PDF, else NULL */
	cmupdf_log_target log;
};

/* Sets `doc`'s documents from `opened` (which it then owns). Throws. */
void cmupdf_set_opened(fz_context *ctx, cmupdf_document *doc, fz_document *opened);
/* Shows and hides the document's optional-content groups as its default configuration
   (/OCProperties /D) says, where MuPDF took another (cmupdf_layers.c); warns, changing
   nothing more, when that configuration cannot be read. */
void cmupdf_apply_default_layers(fz_context *ctx, pdf_document *pdf);

/* Opens the document in `stream` as `magic` says (a file extension or MIME type MuPDF
   knows; NULL for PDF). Throws. */
fz_document *cmupdf_open_with_stream(fz_context *ctx, const char *magic, fz_stream *stream);

/* In a call that only a PDF can answer: returns `failure` with `error` set when `doc` is
   of another format. (The Swift layer does not make these calls for other formats; this
   keeps a NULL PDF from ever being used.) */
#define CMUPDF_REQUIRE_PDF(doc, error, failure) \
	do { \
		if (!(doc)->pdf) { \
			cmupdf_set_error((error), CMUPDF_ERROR_ARGUMENT, "the document is not a PDF"); \
			return (failure); \
		} \
	} while (0)

struct cmupdf_page {
	fz_page *page;
};

/* A document with a new context and no PDF yet; NULL with `error` set on failure. */
cmupdf_document *cmupdf_new_document(size_t cache_bytes, cmupdf_log_callback log, void *log_user, cmupdf_error *error);

/* Writes `pdf` with its changes to `out`: the original bytes and an incremental update, or
   (`incremental` 0) a whole new file, garbage collected and compressed. Throws. */
void cmupdf_write_document(fz_context *ctx, pdf_document *pdf, fz_output *out, int incremental);

/* The PDF page under `page`. Throws when it is not a PDF page. */
pdf_page *cmupdf_pdf_page(fz_context *ctx, cmupdf_page *page);

/* Copies the exception just caught on `ctx` into `error` (which may be NULL). */
void cmupdf_set_caught_error(fz_context *ctx, cmupdf_error *error);

/* Sets `error` (which may be NULL) to `code` and `message`. */
void cmupdf_set_error(cmupdf_error *error, int code, const char *message);

/* A new MuPDF context whose warnings and errors go to `target`, never to stderr. */
/* A context whose store (MuPDF's cache of fonts, images and glyphs) keeps at most
   `cache_bytes` bytes. */
fz_context *cmupdf_new_context(cmupdf_log_target *target, size_t cache_bytes, cmupdf_error *error);

#endif
