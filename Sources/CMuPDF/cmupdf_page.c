#include "cmupdf_internal.h"
#include <stdlib.h>
#include <string.h>

cmupdf_page *cmupdf_load_page(cmupdf_document *doc, int index, cmupdf_error *error)
{
	cmupdf_page *page = calloc(1, sizeof *page);
	if (!page) {
		cmupdf_set_error(error, CMUPDF_ERROR_MEMORY, "out of memory");
		return NULL;
	}
	fz_var(page);
	fz_try(doc->ctx)
		page->page = fz_load_page(doc->ctx, doc->doc, index);
	fz_catch(doc->ctx) {
		cmupdf_set_caught_error(doc->ctx, error);
		free(page);
		page = NULL;
	}
	return page;
}

void cmupdf_drop_page(cmupdf_document *doc, cmupdf_page *page)
{
	if (!page)
		return;
	fz_drop_page(doc->ctx, page->page);
	free(page);
}

/* /Rotate as MuPDF applies it: inherited, taken modulo 360 and rounded to a multiple of 90. */
static int page_rotation(fz_context *ctx, fz_page *page)
{
	pdf_page *pdf_page = pdf_page_from_fz_page(ctx, page);
	if (!pdf_page)
		return 0;
	int rotate = pdf_to_int(ctx, pdf_dict_get_inheritable(ctx, pdf_page->obj, PDF_NAME(Rotate)));
	rotate = ((rotate % 360) + 360) % 360;
	return (90 * ((rotate + 45) / 90)) % 360;
}

int cmupdf_page_geometry(cmupdf_document *doc, cmupdf_page *page, cmupdf_geometry *geometry, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_var(ok);
	fz_try(ctx) {
		fz_rect bounds = fz_bound_page(ctx, page->page);
		geometry->x0 = bounds.x0;
		geometry->y0 = bounds.y0;
		geometry->x1 = bounds.x1;
		geometry->y1 = bounds.y1;
		geometry->rotation = page_rotation(ctx, page->page);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

/* Sets `pixels` pixels of n bytes each to `value`: one memset when its bytes are equal
   (white, black, transparent), else the first pixel repeated by doubling copies. */
static void fill(unsigned char *samples, size_t pixels, int n, const unsigned char *value)
{
	size_t total = pixels * (size_t)n;
	if (total == 0)
		return;
	int uniform = 1;
	for (int i = 1; i < n; i++)
		uniform &= value[i] == value[0];
	if (uniform) {
		memset(samples, value[0], total);
		return;
	}
	memcpy(samples, value, n);
	for (size_t done = n; done < total; done *= 2)
		memcpy(samples + done, samples, done < total - done ? done : total - done);
}

struct cmupdf_cookie {
	fz_cookie cookie;
};

cmupdf_cookie *cmupdf_new_cookie(void)
{
	return calloc(1, sizeof(cmupdf_cookie));
}

/* Another thread sets the flag while the page is drawn; MuPDF reads it as a plain int, as its
   cookie is meant to be used. The project's own accesses are atomic. */
void cmupdf_abort_cookie(cmupdf_cookie *cookie)
{
	__atomic_store_n(&cookie->cookie.abort, 1, __ATOMIC_RELAXED);
}

void cmupdf_drop_cookie(cmupdf_cookie *cookie)
{
	free(cookie);
}

/* The separations a page is drawn with, as `mutool draw` draws it: a page with spot colours
 * has them blended into the process colours (composite), and a page that uses overprint gets
 * an empty set, which turns MuPDF's overprint simulation on. Other pages get none. Without
 * them, MuPDF draws such pages straight to RGB and differs from its own tool by a level or
 * two in up to 9% of the pixels (the Ghostscript colour-management manual, pages 1, 18, 21). */
static fz_separations *composite_separations(fz_context *ctx, fz_page *page)
{
	fz_separations *separations = fz_page_separations(ctx, page);
	if (separations) {
		int count = fz_count_separations(ctx, separations);
		for (int i = 0; i < count; i++)
			fz_set_separation_behavior(ctx, separations, i, FZ_SEPARATION_COMPOSITE);
		return separations;
	}
	return fz_page_uses_overprint(ctx, page) ? fz_new_separations(ctx, 0) : NULL;
}

/* As `mutool draw` does: the draw device carries the transform and the page runs with the
   identity matrix, so the pixels are the same as mutool's at the same resolution. */
int cmupdf_render(cmupdf_document *doc, cmupdf_page *page, float scale, int x, int y, int w, int h, int n,
	const unsigned char *background, int annotations, unsigned char *samples, cmupdf_cookie *cookie, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	fz_separations *separations = NULL;
	fz_pixmap *pixmap = NULL;
	fz_device *device = NULL;
	int ok = 0;
	fz_var(separations);
	fz_var(pixmap);
	fz_var(device);
	fz_var(ok);
	fz_try(ctx) {
		fz_matrix ctm = fz_scale(scale, scale);
		fz_irect page_pixels = fz_round_rect(fz_transform_rect(fz_bound_page(ctx, page->page), ctm));
		fz_irect area = { page_pixels.x0 + x, page_pixels.y0 + y, page_pixels.x0 + x + w, page_pixels.y0 + y + h };
		fz_colorspace *colorspace = n == 1 ? fz_device_gray(ctx) : fz_device_rgb(ctx);
		separations = composite_separations(ctx, page->page);
		pixmap = fz_new_pixmap_with_bbox_and_data(ctx, colorspace, area, separations, n == 4, samples);
		fill(samples, (size_t)w * (size_t)h, n, background);
		device = fz_new_draw_device(ctx, ctm, pixmap);
		fz_cookie *progress = cookie ? &cookie->cookie : NULL;
		if (annotations)
			fz_run_page(ctx, page->page, device, fz_identity, progress);
		else
			fz_run_page_contents(ctx, page->page, device, fz_identity, progress);
		fz_close_device(ctx, device);
		if (cookie && __atomic_load_n(&cookie->cookie.abort, __ATOMIC_RELAXED))
			fz_throw(ctx, FZ_ERROR_ABORT, "drawing was stopped");
		ok = 1;
	}
	fz_always(ctx) {
		fz_drop_device(ctx, device);
		fz_drop_pixmap(ctx, pixmap);
		fz_drop_separations(ctx, separations);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

pdf_page *cmupdf_pdf_page(fz_context *ctx, cmupdf_page *page)
{
	pdf_page *pdf = pdf_page_from_fz_page(ctx, page->page);
	if (!pdf)
		fz_throw(ctx, FZ_ERROR_GENERIC, "not a PDF page");
	return pdf;
}

int cmupdf_page_space(cmupdf_document *doc, cmupdf_page *page, float box[4], int *rotation, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_try(ctx) {
		pdf_page *pdf = pdf_page_from_fz_page(ctx, page->page);
		fz_rect bounds;
		fz_matrix ctm;
		if (!pdf) {
			/* Other formats lay pages out in page space already, upright. */
			bounds = fz_bound_page(ctx, page->page);
			box[0] = bounds.x0, box[1] = bounds.y0, box[2] = bounds.x1, box[3] = bounds.y1;
			*rotation = 0;
			break;
		}
		pdf_page_transform(ctx, pdf, &bounds, &ctm);
		box[0] = bounds.x0, box[1] = bounds.y0, box[2] = bounds.x1, box[3] = bounds.y1;
		int rotate = pdf_to_int(ctx, pdf_dict_get_inheritable(ctx, pdf->obj, PDF_NAME(Rotate)));
		rotate = ((rotate % 360) + 360) % 360;
		*rotation = (90 * ((rotate + 45) / 90)) % 360;
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

/* A box the page dictionary (or, when `inherited`, its page tree) gives as four numbers,
   corners in either order; 0 when it gives none or something else. */
static int read_box(fz_context *ctx, pdf_obj *page, pdf_obj *name, int inherited, fz_rect *box)
{
	pdf_obj *array = inherited ? pdf_dict_get_inheritable(ctx, page, name) : pdf_dict_get(ctx, page, name);
	if (!pdf_is_array(ctx, array) || pdf_array_len(ctx, array) != 4)
		return 0;
	float v[4];
	for (int i = 0; i < 4; i++) {
		pdf_obj *number = pdf_array_get(ctx, array, i);
		if (!pdf_is_number(ctx, number))
			return 0;
		v[i] = pdf_to_real(ctx, number);
	}
	*box = fz_make_rect(fz_min(v[0], v[2]), fz_min(v[1], v[3]), fz_max(v[0], v[2]), fz_max(v[1], v[3]));
	return 1;
}

int cmupdf_page_boxes(cmupdf_document *doc, cmupdf_page *page, double boxes[20], int *given, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_try(ctx) {
		pdf_page *pdf = pdf_page_from_fz_page(ctx, page->page);
		fz_rect found[5];
		*given = 0;
		if (!pdf) {
			found[0] = found[1] = fz_bound_page(ctx, page->page); /* other formats: the page is every box */
			*given = 3;
		} else {
			pdf_obj *names[5] = { PDF_NAME(MediaBox), PDF_NAME(CropBox), PDF_NAME(BleedBox), PDF_NAME(TrimBox), PDF_NAME(ArtBox) };
			for (int i = 0; i < 5; i++)
				if (read_box(ctx, pdf->obj, names[i], i < 2, &found[i]))
					*given |= 1 << i;
			if (!(*given & 1)) {
				found[0] = fz_make_rect(0, 0, 612, 792);
				*given |= 1;
			}
		}
		for (int i = 0; i < 5; i++) {
			if (!(*given & (1 << i)))
				found[i] = fz_make_rect(0, 0, 0, 0);
			boxes[4 * i] = found[i].x0, boxes[4 * i + 1] = found[i].y0;
			boxes[4 * i + 2] = found[i].x1, boxes[4 * i + 3] = found[i].y1;
		}
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}
