#include "cmupdf_internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A font's ascender and descender as MuPDF's quads use them, and as the ink of its 'h'
   and 'p' glyphs measures them (em units, y up). */
typedef struct {
	fz_font *font;
	float quad_ascender, quad_descender;
	float ink_ascender, ink_descender;
	int measured;
} font_metrics;

typedef struct {
	font_metrics *fonts;
	int count, capacity;
} metrics_cache;

/* The font's entry in the cache, added on first sight; its index is the font's index in
   the text's `fonts`. */
static font_metrics *metrics_for(fz_context *ctx, metrics_cache *cache, fz_font *font)
{
	for (int i = 0; i < cache->count; i++)
		if (cache->fonts[i].font == font)
			return &cache->fonts[i];
	if (cache->count == cache->capacity) {
		int capacity = cache->capacity ? cache->capacity * 2 : 8;
		cache->fonts = fz_realloc_array(ctx, cache->fonts, capacity, font_metrics);
		cache->capacity = capacity;
	}
	font_metrics *m = &cache->fonts[cache->count++];
	memset(m, 0, sizeof *m);
	m->font = font;
	m->quad_ascender = fz_font_ascender(ctx, font);
	m->quad_descender = fz_font_descender(ctx, font);
	int h = fz_encode_character(ctx, font, 'h');
	int p = fz_encode_character(ctx, font, 'p');
	if (h > 0 && p > 0) {
		fz_rect hb = fz_bound_glyph(ctx, font, h, fz_identity);
		fz_rect pb = fz_bound_glyph(ctx, font, p, fz_identity);
		m->ink_ascender = hb.y1;
		m->ink_descender = pb.y0;
		m->measured = m->ink_ascender > 0.3f && m->ink_ascender < m->quad_ascender + 0.01f &&
			m->ink_descender < 0 && m->ink_descender > m->quad_descender - 0.01f;
	}
	return m;
}

/* As `mutool draw -F txt`: characters wholly outside the page's media box are left out. */
static const fz_stext_options text_options = { FZ_STEXT_MEDIABOX_CLIP, 0 };

static fz_point lerp(fz_point a, fz_point b, float t)
{
	fz_point p = { a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t };
	return p;
}

/* MuPDF's quad runs from the font's quad ascender (top edge) to its quad descender
   (bottom edge); move both edges to the measured ink ascender and descender. */
static fz_quad shrink(fz_quad q, const font_metrics *m)
{
	float span = m->quad_ascender - m->quad_descender;
	if (!m->measured || span <= 0)
		return q;
	float top = (m->quad_ascender - m->ink_ascender) / span;
	float bottom = (m->quad_ascender - m->ink_descender) / span;
	fz_quad r;
	r.ul = lerp(q.ul, q.ll, top);
	r.ur = lerp(q.ur, q.lr, top);
	r.ll = lerp(q.ul, q.ll, bottom);
	r.lr = lerp(q.ur, q.lr, bottom);
	return r;
}

int cmupdf_page_text(cmupdf_document *doc, cmupdf_page *page, cmupdf_text *text, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	fz_stext_page *stext = NULL;
	metrics_cache cache = { NULL, 0, 0 };
	int ok = 0;
	text->chars = NULL;
	text->count = 0;
	text->fonts = NULL;
	text->font_count = 0;
	fz_var(stext);
	fz_var(ok);
	fz_try(ctx) {
		fz_rect bounds = fz_bound_page(ctx, page->page);
		stext = fz_new_stext_page_from_page(ctx, page->page, &text_options);
		int capacity = 0, block_index = 0, line_index = 0;
		for (fz_stext_block *block = stext->first_block; block; block = block->next) {
			if (block->type != FZ_STEXT_BLOCK_TEXT)
				continue;
			for (fz_stext_line *line = block->u.t.first_line; line; line = line->next, line_index++) {
				for (fz_stext_char *ch = line->first_char; ch; ch = ch->next) {
					if (text->count == capacity) {
						capacity = capacity ? capacity * 2 : 256;
						text->chars = fz_realloc_array(ctx, text->chars, capacity, cmupdf_char);
					}
					font_metrics *metrics = metrics_for(ctx, &cache, ch->font);
					fz_quad q = shrink(ch->quad, metrics);
					cmupdf_char *out = &text->chars[text->count++];
					out->codepoint = ch->c;
					out->ulx = q.ul.x - bounds.x0; out->uly = q.ul.y - bounds.y0;
					out->urx = q.ur.x - bounds.x0; out->ury = q.ur.y - bounds.y0;
					out->llx = q.ll.x - bounds.x0; out->lly = q.ll.y - bounds.y0;
					out->lrx = q.lr.x - bounds.x0; out->lry = q.lr.y - bounds.y0;
					out->size = ch->size;
					out->line = line_index;
					out->block = block_index;
					out->font = (int)(metrics - cache.fonts);
				}
			}
			block_index++;
		}
		text->fonts = fz_malloc_array(ctx, cache.count > 0 ? cache.count : 1, cmupdf_text_font);
		text->font_count = cache.count;
		for (int i = 0; i < cache.count; i++) {
			const char *name = fz_font_name(ctx, cache.fonts[i].font);
			snprintf(text->fonts[i].name, sizeof text->fonts[i].name, "%s", name ? name : "");
		}
		ok = 1;
	}
	fz_always(ctx) {
		fz_drop_stext_page(ctx, stext);
		fz_free(ctx, cache.fonts);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		cmupdf_text_free(text);
		ok = 0;
	}
	return ok;
}

/* The characters were allocated by MuPDF with its default allocator, which is malloc. */
void cmupdf_text_free(cmupdf_text *text)
{
	free(text->chars);
	free(text->fonts);
	text->chars = NULL;
	text->count = 0;
	text->fonts = NULL;
	text->font_count = 0;
}

char *cmupdf_page_plain_text(cmupdf_document *doc, cmupdf_page *page, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	fz_stext_page *stext = NULL;
	fz_buffer *buffer = NULL;
	char *result = NULL;
	fz_var(stext);
	fz_var(buffer);
	fz_var(result);
	fz_try(ctx) {
		stext = fz_new_stext_page_from_page(ctx, page->page, &text_options);
		buffer = fz_new_buffer_from_stext_page(ctx, stext);
		unsigned char *data;
		size_t length = fz_buffer_storage(ctx, buffer, &data);
		result = malloc(length + 1);
		if (!result)
			fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory for %zu bytes of text", length);
		memcpy(result, data, length);
		result[length] = 0;
	}
	fz_always(ctx) {
		fz_drop_buffer(ctx, buffer);
		fz_drop_stext_page(ctx, stext);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		result = NULL;
	}
	return result;
}
