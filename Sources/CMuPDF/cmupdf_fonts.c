#include "cmupdf_internal.h"

/* The fonts of a PDF's pages, each font dictionary once: those of each page's resources,
   of the forms and patterns they draw (to any depth, each once) and of its annotations'
   appearances, as Poppler's font scanner reads them. */

enum { MAX_RESOURCE_DEPTH = 32 };

typedef struct {
	cmupdf_font_callback font;
	void *user;
	pdf_mark_bits *seen; /* indirect fonts and resources already read */
} font_walk;

static const char *name_or_null(fz_context *ctx, pdf_obj *name)
{
	return pdf_is_name(ctx, name) ? pdf_to_name(ctx, name) : NULL;
}

static int has_font_file(fz_context *ctx, pdf_obj *descriptor)
{
	return pdf_dict_get(ctx, descriptor, PDF_NAME(FontFile)) != NULL
		|| pdf_dict_get(ctx, descriptor, PDF_NAME(FontFile2)) != NULL
		|| pdf_dict_get(ctx, descriptor, PDF_NAME(FontFile3)) != NULL;
}

static void read_resources(fz_context *ctx, font_walk *walk, pdf_obj *resources, int depth);

static void read_font(fz_context *ctx, font_walk *walk, pdf_obj *font, int depth)
{
	pdf_obj *subtype = pdf_dict_get(ctx, font, PDF_NAME(Subtype));
	pdf_obj *descriptor = pdf_dict_get(ctx, font, PDF_NAME(FontDescriptor));
	pdf_obj *descendant_subtype = NULL;
	if (pdf_name_eq(ctx, subtype, PDF_NAME(Type0))) {
		/* A composite font's glyphs and file are its descendant's. */
		pdf_obj *descendant = pdf_array_get(ctx, pdf_dict_get(ctx, font, PDF_NAME(DescendantFonts)), 0);
		descendant_subtype = pdf_dict_get(ctx, descendant, PDF_NAME(Subtype));
		descriptor = pdf_dict_get(ctx, descendant, PDF_NAME(FontDescriptor));
	}
	walk->font(walk->user, name_or_null(ctx, pdf_dict_get(ctx, font, PDF_NAME(BaseFont))), name_or_null(ctx, subtype),
		name_or_null(ctx, descendant_subtype), has_font_file(ctx, descriptor));
	/* A Type 3 font's glyphs are drawn with resources of their own. */
	if (pdf_name_eq(ctx, subtype, PDF_NAME(Type3)))
		read_resources(ctx, walk, pdf_dict_get(ctx, font, PDF_NAME(Resources)), depth + 1);
}

/* Reads the resources of each stream that is a value of `dict` (forms, patterns, appearances). */
static void read_streams_of(fz_context *ctx, font_walk *walk, pdf_obj *dict, int depth)
{
	int i, n = pdf_dict_len(ctx, dict);
	for (i = 0; i < n; i++) {
		pdf_obj *value = pdf_dict_get_val(ctx, dict, i);
		if (pdf_is_indirect(ctx, value) && pdf_mark_bits_set(ctx, walk->seen, value))
			continue;
		read_resources(ctx, walk, pdf_dict_get(ctx, value, PDF_NAME(Resources)), depth + 1);
	}
}

static void read_resources(fz_context *ctx, font_walk *walk, pdf_obj *resources, int depth)
{
	pdf_obj *fonts;
	int i, n;
	if (!pdf_is_dict(ctx, resources) || depth > MAX_RESOURCE_DEPTH)
		return;
	if (pdf_is_indirect(ctx, resources) && pdf_mark_bits_set(ctx, walk->seen, resources))
		return;
	fonts = pdf_dict_get(ctx, resources, PDF_NAME(Font));
	n = pdf_dict_len(ctx, fonts);
	for (i = 0; i < n; i++) {
		pdf_obj *font = pdf_dict_get_val(ctx, fonts, i);
		if (!pdf_is_dict(ctx, font) || (pdf_is_indirect(ctx, font) && pdf_mark_bits_set(ctx, walk->seen, font)))
			continue;
		read_font(ctx, walk, font, depth);
	}
	read_streams_of(ctx, walk, pdf_dict_get(ctx, resources, PDF_NAME(XObject)), depth);
	read_streams_of(ctx, walk, pdf_dict_get(ctx, resources, PDF_NAME(Pattern)), depth);
}

int cmupdf_fonts(cmupdf_document *doc, cmupdf_font_callback font, void *user, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	font_walk walk = { font, user, NULL };
	int ok = 1;
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_var(walk.seen);
	fz_var(ok);
	fz_try(ctx) {
		int p, pages = pdf_count_pages(ctx, doc->pdf);
		walk.seen = pdf_new_mark_bits(ctx, doc->pdf);
		for (p = 0; p < pages; p++) {
			pdf_obj *page = pdf_lookup_page_obj(ctx, doc->pdf, p);
			pdf_obj *annots = pdf_dict_get(ctx, page, PDF_NAME(Annots));
			int a, count = pdf_array_len(ctx, annots);
			read_resources(ctx, &walk, pdf_dict_get_inheritable(ctx, page, PDF_NAME(Resources)), 0);
			for (a = 0; a < count; a++) {
				/* The normal appearance: a stream, or a stream per appearance state. */
				pdf_obj *normal = pdf_dict_get(ctx, pdf_dict_get(ctx, pdf_array_get(ctx, annots, a), PDF_NAME(AP)), PDF_NAME(N));
				if (pdf_is_stream(ctx, normal)) {
					if (!pdf_mark_bits_set(ctx, walk.seen, normal))
						read_resources(ctx, &walk, pdf_dict_get(ctx, normal, PDF_NAME(Resources)), 1);
				} else {
					read_streams_of(ctx, &walk, normal, 0);
				}
			}
		}
	}
	fz_always(ctx) {
		pdf_drop_mark_bits(ctx, walk.seen);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}
