#include "cmupdf_internal.h"

#include <string.h>

/* The annotation (or widget) object `num` MuPDF loaded for the page; throws when there is none. */
static pdf_annot *annot_with(fz_context *ctx, pdf_page *page, int num)
{
	for (pdf_annot *a = pdf_first_annot(ctx, page); a; a = pdf_next_annot(ctx, a))
		if (pdf_to_num(ctx, pdf_annot_obj(ctx, a)) == num)
			return a;
	for (pdf_annot *w = pdf_first_widget(ctx, page); w; w = pdf_next_widget(ctx, w))
		if (pdf_to_num(ctx, pdf_annot_obj(ctx, w)) == num)
			return w;
	fz_throw(ctx, FZ_ERROR_GENERIC, "page has no annotation object %d", num);
}

/* Gives `annot`, an annotation of the kind `v` names, the record's shape, text style and
   icon, as the record's traits say the kind has them, then draws its appearance from its
   dictionary (whose other entries are written before); puts `kept_appearance` back as its
   normal appearance when given. */
static void apply_fields(fz_context *ctx, pdf_annot *annot, const annotation_record *v, pdf_obj *kept_appearance)
{
	pdf_obj *obj = pdf_annot_obj(ctx, annot);
	if (pdf_annot_type(ctx, annot) != pdf_annot_type_from_string(ctx, v->subtype))
		fz_throw(ctx, FZ_ERROR_GENERIC, "annotation object %d is not a %s annotation", pdf_to_num(ctx, obj), v->subtype);
	if (v->geometry == ANNOTATION_GEOMETRY_QUADS) {
		pdf_clear_annot_quad_points(ctx, annot);
		for (int i = 0; i < v->quad_count; i++) {
			const double *q = v->quads + 8 * i;
			pdf_add_annot_quad_point(ctx, annot, fz_make_quad(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]));
		}
	}
	if (v->geometry == ANNOTATION_GEOMETRY_INK) {
		pdf_clear_annot_ink_list(ctx, annot);
		const double *p = v->ink;
		for (int i = 0; i < v->ink_path_count; i++) {
			pdf_add_annot_ink_list_stroke(ctx, annot);
			for (int j = 0; j < v->ink_counts[i]; j++, p += 2)
				pdf_add_annot_ink_list_stroke_vertex(ctx, annot, fz_make_point(p[0], p[1]));
		}
	}
	if (v->geometry == ANNOTATION_GEOMETRY_LINE && v->point_count == 2)
		pdf_set_annot_line(ctx, annot, fz_make_point(v->points[0], v->points[1]), fz_make_point(v->points[2], v->points[3]));
	else if (v->geometry == ANNOTATION_GEOMETRY_VERTICES) {
		pdf_clear_annot_vertices(ctx, annot);
		for (int i = 0; i < v->point_count; i++)
			pdf_add_annot_vertex(ctx, annot, fz_make_point(v->points[2 * i], v->points[2 * i + 1]));
	}
	int rect_is_given = v->geometry == ANNOTATION_GEOMETRY_RECT;
	fz_rect rect = fz_make_rect(v->rect[0], v->rect[1], v->rect[2], v->rect[3]);
	if (rect_is_given)
		pdf_set_annot_rect(ctx, annot, rect);
	if (v->font && v->has_text_style) {
		float text_color[4] = { v->text_color[0], v->text_color[1], v->text_color[2], v->text_color[3] };
		pdf_set_annot_default_appearance(ctx, annot, v->font, v->font_size, v->text_color_n, text_color);
		pdf_set_annot_quadding(ctx, annot, v->quadding);
	}
	if (v->icon && v->has_icon)
		pdf_set_annot_icon_name(ctx, annot, v->icon);
	/* The entries written over the object primitives do not mark the annotation changed. */
	pdf_dirty_annot(ctx, annot);
	pdf_update_annot(ctx, annot);
	if (kept_appearance)
		pdf_dict_putp(ctx, obj, "AP/N", kept_appearance);
	/* Making the appearance fits notes and stamps to their icon's proportions; the
	   caller's rectangle is where the appearance is to be drawn, so it is put back. */
	if (rect_is_given) {
		fz_matrix page_ctm;
		pdf_page_transform(ctx, pdf_annot_page(ctx, annot), NULL, &page_ctm);
		pdf_dict_put_rect(ctx, obj, PDF_NAME(Rect), fz_transform_rect(rect, fz_invert_matrix(page_ctm)));
	}
}

/* Gives the annotation the record's fields. A stamp keeps the appearance it has (an image,
   another program's drawing) unless its icon changes: MuPDF would draw it anew as the
   icon's text. */
static void apply(fz_context *ctx, pdf_annot *annot, const annotation_record *v)
{
	pdf_obj *obj = pdf_annot_obj(ctx, annot);
	pdf_obj *kept = NULL;
	fz_var(kept);
	if (pdf_annot_type(ctx, annot) == PDF_ANNOT_STAMP && pdf_is_stream(ctx, pdf_dict_getp(ctx, obj, "AP/N"))
		&& (!v->icon || !strcmp(v->icon, pdf_annot_icon_name(ctx, annot))))
		kept = pdf_keep_obj(ctx, pdf_dict_getp(ctx, obj, "AP/N"));
	fz_try(ctx)
		apply_fields(ctx, annot, v, kept);
	fz_always(ctx)
		pdf_drop_obj(ctx, kept);
	fz_catch(ctx)
		fz_rethrow(ctx);
}

int cmupdf_create_annot(cmupdf_document *doc, cmupdf_page *page, const annotation_record *values, int *num, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	pdf_annot *annot = NULL;
	int ok = 1;
	fz_var(annot);
	fz_try(ctx) {
		enum pdf_annot_type type = pdf_annot_type_from_string(ctx, values->subtype);
		if (type == PDF_ANNOT_UNKNOWN)
			fz_throw(ctx, FZ_ERROR_GENERIC, "unknown annotation subtype %s", values->subtype);
		annot = pdf_create_annot(ctx, cmupdf_pdf_page(ctx, page), type);
		*num = pdf_to_num(ctx, pdf_annot_obj(ctx, annot));
	}
	fz_always(ctx)
		pdf_drop_annot(ctx, annot);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_update_annot(cmupdf_document *doc, cmupdf_page *page, int num, const annotation_record *values, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_try(ctx)
		apply(ctx, annot_with(ctx, cmupdf_pdf_page(ctx, page), num), values);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_delete_annot(cmupdf_document *doc, cmupdf_page *page, int num, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_try(ctx) {
		pdf_page *pdf = cmupdf_pdf_page(ctx, page);
		pdf_annot *annot = annot_with(ctx, pdf, num);
		if (pdf_annot_type(ctx, annot) == PDF_ANNOT_WIDGET)
			fz_throw(ctx, FZ_ERROR_GENERIC, "form fields cannot be deleted as annotations");
		pdf_delete_annot(ctx, pdf, annot);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

/* A pixmap of `n` bytes a pixel (no alpha) holding `samples`, packed rows of `width`. */
static fz_pixmap *pixmap_of(fz_context *ctx, fz_colorspace *colorspace, int width, int height, const unsigned char *samples, int n)
{
	fz_pixmap *pixmap = fz_new_pixmap(ctx, colorspace, width, height, NULL, 0);
	unsigned char *rows = fz_pixmap_samples(ctx, pixmap);
	ptrdiff_t stride = fz_pixmap_stride(ctx, pixmap);
	for (int y = 0; y < height; y++)
		memcpy(rows + y * stride, samples + (size_t)y * width * n, (size_t)width * n);
	return pixmap;
}

int cmupdf_set_stamp_image(cmupdf_document *doc, cmupdf_page *page, int num, int width, int height,
	const unsigned char *rgb, const unsigned char *alpha, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	fz_pixmap *color = NULL, *opacity = NULL;
	fz_image *mask = NULL, *image = NULL;
	int ok = 1;
	fz_var(color);
	fz_var(opacity);
	fz_var(mask);
	fz_var(image);
	fz_try(ctx) {
		pdf_annot *annot = annot_with(ctx, cmupdf_pdf_page(ctx, page), num);
		if (pdf_annot_type(ctx, annot) != PDF_ANNOT_STAMP)
			fz_throw(ctx, FZ_ERROR_GENERIC, "only a stamp annotation shows an image");
		color = pixmap_of(ctx, fz_device_rgb(ctx), width, height, rgb, 3);
		if (alpha) {
			opacity = pixmap_of(ctx, fz_device_gray(ctx), width, height, alpha, 1);
			mask = fz_new_image_from_pixmap(ctx, opacity, NULL);
		}
		image = fz_new_image_from_pixmap(ctx, color, mask);
		/* MuPDF fits the rectangle to the image's proportions in the page's shown space;
		   an image turned back for a turned page has the other proportions there, and the
		   caller's rectangle already has the right ones, so it is put back. */
		fz_rect rect = pdf_bound_annot(ctx, annot);
		pdf_set_annot_stamp_image(ctx, annot, image);
		pdf_set_annot_rect(ctx, annot, rect);
	}
	fz_always(ctx) {
		fz_drop_image(ctx, image);
		fz_drop_image(ctx, mask);
		fz_drop_pixmap(ctx, opacity);
		fz_drop_pixmap(ctx, color);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}
