#include "cmupdf_internal.h"

#include <stdlib.h>
#include <string.h>

/* A copy of a PDF text string as UTF-8 from malloc; NULL for an absent key. */
static char *copy_text(fz_context *ctx, pdf_obj *dict, const char *key)
{
	pdf_obj *value = pdf_dict_gets(ctx, dict, key);
	if (!pdf_is_string(ctx, value) && !pdf_is_name(ctx, value))
		return NULL;
	const char *text = pdf_is_name(ctx, value) ? pdf_to_name(ctx, value) : pdf_to_text_string(ctx, value);
	return strdup(text);
}

/* The border width from /BS /W, else the third number of /Border. */
static int read_border(fz_context *ctx, pdf_obj *obj, double *width)
{
	pdf_obj *w = pdf_dict_get(ctx, pdf_dict_get(ctx, obj, PDF_NAME(BS)), PDF_NAME(W));
	if (pdf_is_number(ctx, w)) {
		*width = pdf_to_real(ctx, w);
		return 1;
	}
	pdf_obj *border = pdf_dict_get(ctx, obj, PDF_NAME(Border));
	if (pdf_array_len(ctx, border) >= 3) {
		*width = pdf_to_real(ctx, pdf_array_get(ctx, border, 2));
		return 1;
	}
	return 0;
}

static int read_color(fz_context *ctx, pdf_obj *array, double color[4])
{
	int n = pdf_array_len(ctx, array);
	if (n != 1 && n != 3 && n != 4)
		return 0;
	for (int i = 0; i < n; i++)
		color[i] = pdf_to_real(ctx, pdf_array_get(ctx, array, i));
	return n;
}

/* Reads one annotation's fields; throws on allocation failure. */
static void read_annot(fz_context *ctx, pdf_annot *annot, fz_matrix page_ctm, annotation_record *a)
{
	pdf_obj *obj = pdf_annot_obj(ctx, annot);
	fz_strlcpy(a->subtype, pdf_to_name(ctx, pdf_dict_get(ctx, obj, PDF_NAME(Subtype))), sizeof a->subtype);
	a->name = copy_text(ctx, obj, "NM");
	/* pdf_annot_rect refuses some subtypes in 1.21, so /Rect is read directly. */
	fz_rect rect = fz_transform_rect(pdf_dict_get_rect(ctx, obj, PDF_NAME(Rect)), page_ctm);
	a->rect[0] = rect.x0, a->rect[1] = rect.y0, a->rect[2] = rect.x1, a->rect[3] = rect.y1;

	if (pdf_annot_has_quad_points(ctx, annot)) {
		int n = pdf_annot_quad_point_count(ctx, annot);
		a->quads = malloc(sizeof(double) * 8 * (n ? n : 1));
		if (!a->quads)
			fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory");
		for (int i = 0; i < n; i++) {
			fz_quad q = pdf_annot_quad_point(ctx, annot, i);
			double *f = a->quads + 8 * i;
			f[0] = q.ul.x, f[1] = q.ul.y, f[2] = q.ur.x, f[3] = q.ur.y;
			f[4] = q.ll.x, f[5] = q.ll.y, f[6] = q.lr.x, f[7] = q.lr.y;
		}
		a->quad_count = n;
	}
	if (pdf_annot_has_ink_list(ctx, annot)) {
		int paths = pdf_annot_ink_list_count(ctx, annot), total = 0;
		for (int i = 0; i < paths; i++)
			total += pdf_annot_ink_list_stroke_count(ctx, annot, i);
		a->ink_counts = malloc(sizeof(int) * (paths ? paths : 1));
		a->ink = malloc(sizeof(double) * 2 * (total ? total : 1));
		if (!a->ink_counts || !a->ink)
			fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory");
		int k = 0;
		for (int i = 0; i < paths; i++) {
			int count = pdf_annot_ink_list_stroke_count(ctx, annot, i);
			a->ink_counts[i] = count;
			for (int j = 0; j < count; j++, k++) {
				fz_point p = pdf_annot_ink_list_stroke_vertex(ctx, annot, i, j);
				a->ink[2 * k] = p.x, a->ink[2 * k + 1] = p.y;
			}
		}
		a->ink_path_count = paths;
	}
	if (pdf_annot_has_line(ctx, annot)) {
		fz_point p, q;
		pdf_annot_line(ctx, annot, &p, &q);
		a->points = malloc(sizeof(double) * 4);
		if (!a->points)
			fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory");
		a->points[0] = p.x, a->points[1] = p.y, a->points[2] = q.x, a->points[3] = q.y;
		a->point_count = 2;
	} else if (pdf_annot_has_vertices(ctx, annot)) {
		int n = pdf_annot_vertex_count(ctx, annot);
		a->points = malloc(sizeof(double) * 2 * (n ? n : 1));
		if (!a->points)
			fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory");
		for (int i = 0; i < n; i++) {
			fz_point p = pdf_annot_vertex(ctx, annot, i);
			a->points[2 * i] = p.x, a->points[2 * i + 1] = p.y;
		}
		a->point_count = n;
	}
	a->color_n = read_color(ctx, pdf_dict_get(ctx, obj, PDF_NAME(C)), a->color);
	a->interior_n = read_color(ctx, pdf_dict_get(ctx, obj, PDF_NAME(IC)), a->interior);
	pdf_obj *ca = pdf_dict_get(ctx, obj, PDF_NAME(CA));
	a->opacity = pdf_is_number(ctx, ca) ? pdf_to_real(ctx, ca) : 1;
	a->has_border = read_border(ctx, obj, &a->border);
	a->contents = copy_text(ctx, obj, "Contents");
	a->author = copy_text(ctx, obj, "T");
	a->subject = copy_text(ctx, obj, "Subj");
	a->state = copy_text(ctx, obj, "State");
	a->state_model = copy_text(ctx, obj, "StateModel");
	if (pdf_annot_has_icon_name(ctx, annot))
		a->icon = copy_text(ctx, obj, "Name");
	a->created = copy_text(ctx, obj, "CreationDate");
	a->modified = copy_text(ctx, obj, "M");
	a->flags = pdf_dict_get_int(ctx, obj, PDF_NAME(F));
	if (pdf_annot_type(ctx, annot) == PDF_ANNOT_FREE_TEXT && pdf_dict_get(ctx, obj, PDF_NAME(DA))) {
		const char *font = NULL;
		float size = 0, color[4] = { 0, 0, 0, 0 };
		int n = 0;
		pdf_annot_default_appearance(ctx, annot, &font, &size, &n, color);
		a->font = strdup(font ? font : "Helv");
		if (!a->font)
			fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory");
		a->font_size = size;
		a->text_color_n = n;
		for (int i = 0; i < 4; i++)
			a->text_color[i] = color[i];
		a->quadding = pdf_annot_quadding(ctx, annot);
	}
}

static int is_listed(fz_context *ctx, pdf_obj *obj)
{
	pdf_obj *subtype = pdf_dict_get(ctx, obj, PDF_NAME(Subtype));
	return pdf_is_dict(ctx, obj) && !pdf_name_eq(ctx, subtype, PDF_NAME(Link)) && !pdf_name_eq(ctx, subtype, PDF_NAME(Popup));
}

/* The pdf_annot (annotation or widget) MuPDF loaded for `obj`, or NULL. */
static pdf_annot *find_loaded(fz_context *ctx, pdf_page *page, pdf_obj *obj)
{
	for (pdf_annot *a = pdf_first_annot(ctx, page); a; a = pdf_next_annot(ctx, a))
		if (!pdf_objcmp(ctx, pdf_annot_obj(ctx, a), obj))
			return a;
	for (pdf_annot *w = pdf_first_widget(ctx, page); w; w = pdf_next_widget(ctx, w))
		if (!pdf_objcmp(ctx, pdf_annot_obj(ctx, w), obj))
			return w;
	return NULL;
}

/* The position of `obj` among the page's listed annotations; -2 when it is not one. */
static int listed_position(fz_context *ctx, pdf_page *page, pdf_obj *obj)
{
	pdf_obj *array = pdf_dict_get(ctx, page->obj, PDF_NAME(Annots));
	int listed = 0;
	for (int i = 0; i < pdf_array_len(ctx, array); i++) {
		pdf_obj *candidate = pdf_array_get(ctx, array, i);
		if (!is_listed(ctx, candidate) || !find_loaded(ctx, page, candidate))
			continue;
		if (!pdf_objcmp_resolve(ctx, candidate, obj))
			return listed;
		listed++;
	}
	return -2;
}

/* The listed annotation at `position` in /Annots order; throws when there is none. */
static pdf_annot *annot_at(fz_context *ctx, pdf_page *page, int position)
{
	pdf_obj *array = pdf_dict_get(ctx, page->obj, PDF_NAME(Annots));
	int listed = 0;
	for (int i = 0; i < pdf_array_len(ctx, array); i++) {
		pdf_obj *obj = pdf_array_get(ctx, array, i);
		if (!is_listed(ctx, obj))
			continue;
		pdf_annot *annot = find_loaded(ctx, page, obj);
		if (!annot)
			continue;
		if (listed++ == position)
			return annot;
	}
	fz_throw(ctx, FZ_ERROR_GENERIC, "no annotation at position %d", position);
}

int cmupdf_page_annots(cmupdf_document *doc, cmupdf_page *page, annotation_record **annots, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	annotation_record *list = NULL;
	int count = 0;
	int ok = 1;
	if (!doc->pdf) { /* other formats have no annotations */
		*annots = NULL;
		return 0;
	}
	fz_var(list);
	fz_var(count);
	fz_try(ctx) {
		pdf_page *pdf = cmupdf_pdf_page(ctx, page);
		fz_matrix page_ctm;
		pdf_page_transform(ctx, pdf, NULL, &page_ctm);
		pdf_obj *array = pdf_dict_get(ctx, pdf->obj, PDF_NAME(Annots));
		int n = pdf_array_len(ctx, array);
		list = calloc(n ? n : 1, sizeof *list);
		if (!list)
			fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory");
		for (int i = 0; i < n; i++) {
			pdf_obj *obj = pdf_array_get(ctx, array, i);
			if (!is_listed(ctx, obj))
				continue;
			pdf_annot *annot = find_loaded(ctx, pdf, obj);
			if (!annot)
				continue;
			count++;
			read_annot(ctx, annot, page_ctm, &list[count - 1]);
		}
		/* Each reply's root, as 1 + its place among the records. */
		for (int i = 0, listed = 0; i < n; i++) {
			pdf_obj *obj = pdf_array_get(ctx, array, i);
			if (!is_listed(ctx, obj) || !find_loaded(ctx, pdf, obj))
				continue;
			pdf_obj *root = pdf_dict_get(ctx, obj, PDF_NAME(IRT));
			if (root)
				list[listed].in_reply_to = listed_position(ctx, pdf, root) + 1;
			listed++;
		}
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		annotation_records_free(list, count);
		list = NULL;
		ok = 0;
	}
	*annots = list;
	return ok ? count : -1;
}

static void set_text(fz_context *ctx, pdf_obj *obj, const char *key, const char *text)
{
	if (text)
		pdf_dict_puts_drop(ctx, obj, key, pdf_new_text_string(ctx, text));
	else
		pdf_dict_dels(ctx, obj, key);
}

/* Writes every field of `v` into `annot`, then regenerates its appearance; puts
   `kept_appearance` back as its normal appearance when given. */
static void apply_fields(fz_context *ctx, pdf_annot *annot, const annotation_record *v, pdf_obj *kept_appearance)
{
	pdf_obj *obj = pdf_annot_obj(ctx, annot);
	if (pdf_annot_has_quad_points(ctx, annot)) {
		pdf_clear_annot_quad_points(ctx, annot);
		for (int i = 0; i < v->quad_count; i++) {
			const double *q = v->quads + 8 * i;
			pdf_add_annot_quad_point(ctx, annot, fz_make_quad(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]));
		}
	}
	if (pdf_annot_has_ink_list(ctx, annot)) {
		pdf_clear_annot_ink_list(ctx, annot);
		const double *p = v->ink;
		for (int i = 0; i < v->ink_path_count; i++) {
			pdf_add_annot_ink_list_stroke(ctx, annot);
			for (int j = 0; j < v->ink_counts[i]; j++, p += 2)
				pdf_add_annot_ink_list_stroke_vertex(ctx, annot, fz_make_point(p[0], p[1]));
		}
	}
	if (pdf_annot_has_line(ctx, annot) && v->point_count == 2)
		pdf_set_annot_line(ctx, annot, fz_make_point(v->points[0], v->points[1]), fz_make_point(v->points[2], v->points[3]));
	else if (pdf_annot_has_vertices(ctx, annot)) {
		pdf_clear_annot_vertices(ctx, annot);
		for (int i = 0; i < v->point_count; i++)
			pdf_add_annot_vertex(ctx, annot, fz_make_point(v->points[2 * i], v->points[2 * i + 1]));
	}
	int rect_is_given = !pdf_annot_has_quad_points(ctx, annot) && !pdf_annot_has_ink_list(ctx, annot)
		&& !pdf_annot_has_line(ctx, annot) && !pdf_annot_has_vertices(ctx, annot);
	fz_rect rect = fz_make_rect(v->rect[0], v->rect[1], v->rect[2], v->rect[3]);
	if (rect_is_given)
		pdf_set_annot_rect(ctx, annot, rect);
	float color[4] = { v->color[0], v->color[1], v->color[2], v->color[3] };
	pdf_set_annot_color(ctx, annot, v->color_n, color);
	if (pdf_annot_has_interior_color(ctx, annot)) {
		float interior[4] = { v->interior[0], v->interior[1], v->interior[2], v->interior[3] };
		pdf_set_annot_interior_color(ctx, annot, v->interior_n, interior);
	}
	pdf_set_annot_opacity(ctx, annot, v->opacity);
	if (v->has_border)
		pdf_set_annot_border(ctx, annot, v->border);
	else {
		pdf_dict_del(ctx, obj, PDF_NAME(BS));
		pdf_dict_del(ctx, obj, PDF_NAME(Border));
	}
	if (v->font) {
		float text_color[4] = { v->text_color[0], v->text_color[1], v->text_color[2], v->text_color[3] };
		pdf_set_annot_default_appearance(ctx, annot, v->font, v->font_size, v->text_color_n, text_color);
		pdf_set_annot_quadding(ctx, annot, v->quadding);
	}
	set_text(ctx, obj, "Contents", v->contents);
	set_text(ctx, obj, "T", v->author);
	set_text(ctx, obj, "Subj", v->subject);
	set_text(ctx, obj, "State", v->state);
	set_text(ctx, obj, "StateModel", v->state_model);
	if (v->in_reply_to > 0)
		pdf_dict_put(ctx, obj, PDF_NAME(IRT), pdf_annot_obj(ctx, annot_at(ctx, pdf_annot_page(ctx, annot), v->in_reply_to - 1)));
	else
		pdf_dict_del(ctx, obj, PDF_NAME(IRT));
	if (v->icon && pdf_annot_has_icon_name(ctx, annot))
		pdf_set_annot_icon_name(ctx, annot, v->icon);
	pdf_set_annot_flags(ctx, annot, v->flags);
	if (v->name)
		set_text(ctx, obj, "NM", v->name);
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
	/* Set last: the setters above stamp /M with the time of the change. */
	set_text(ctx, obj, "CreationDate", v->created);
	set_text(ctx, obj, "M", v->modified);
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

int cmupdf_create_annot(cmupdf_document *doc, cmupdf_page *page, const annotation_record *values, cmupdf_error *error)
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
		apply(ctx, annot, values);
	}
	fz_always(ctx)
		pdf_drop_annot(ctx, annot);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_update_annot(cmupdf_document *doc, cmupdf_page *page, int position, const annotation_record *values, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_try(ctx)
		apply(ctx, annot_at(ctx, cmupdf_pdf_page(ctx, page), position), values);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_name_annot(cmupdf_document *doc, cmupdf_page *page, int position, const char *name, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_try(ctx) {
		pdf_annot *annot = annot_at(ctx, cmupdf_pdf_page(ctx, page), position);
		set_text(ctx, pdf_annot_obj(ctx, annot), "NM", name);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_delete_annot(cmupdf_document *doc, cmupdf_page *page, int position, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_try(ctx) {
		pdf_page *pdf = cmupdf_pdf_page(ctx, page);
		pdf_annot *annot = annot_at(ctx, pdf, position);
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

int cmupdf_set_stamp_image(cmupdf_document *doc, cmupdf_page *page, int position, int width, int height,
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
		pdf_annot *annot = annot_at(ctx, cmupdf_pdf_page(ctx, page), position);
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
