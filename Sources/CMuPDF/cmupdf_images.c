#include "cmupdf_internal.h"
#include <limits.h>

/* New PDFs made of pictures: each picture one page, drawn over the whole page or fitted
   within a paper size's margins. JPEG data goes into the file as it is (DCTDecode); other
   formats are decoded and stored losslessly (Flate). */

cmupdf_document *cmupdf_create_pdf(cmupdf_log_callback log, void *log_user, cmupdf_error *error)
{
	cmupdf_document *doc = cmupdf_new_document(0, log, log_user, error);
	if (!doc)
		return NULL;
	fz_try(doc->ctx) {
		doc->pdf = pdf_create_document(doc->ctx);
		doc->doc = &doc->pdf->super;
	}
	fz_catch(doc->ctx) {
		cmupdf_set_caught_error(doc->ctx, error);
		cmupdf_close(doc);
		return NULL;
	}
	return doc;
}

/* Adds a page showing `image`: the page is the picture's size at its resolution (96 dpi,
   MuPDF's default, when it states none), or `layout`'s paper with the picture fitted inside its margins,
   centred, its proportions kept. Throws, setting `*over_limit` for a picture past the
   layout's pixel limit. */
static void add_image_page(fz_context *ctx, pdf_document *pdf, fz_image *image, const cmupdf_image_layout *layout, int *over_limit)
{
	if ((long long)image->w * image->h > layout->maximum_pixels) {
		*over_limit = 1;
		fz_throw(ctx, FZ_ERROR_GENERIC, "a picture of %d x %d pixels is past the limit of %d pixels", image->w, image->h,
			(int)(layout->maximum_pixels > INT_MAX ? INT_MAX : layout->maximum_pixels));
	}
	int xres = 96, yres = 96;
	fz_image_resolution(image, &xres, &yres);
	float width = image->w * 72.0f / (xres > 0 ? xres : 96);
	float height = image->h * 72.0f / (yres > 0 ? yres : 96);
	fz_rect page = fz_make_rect(0, 0, width, height);
	fz_rect place = page;
	if (layout->page_width > 0 && layout->page_height > 0) {
		page = fz_make_rect(0, 0, layout->page_width, layout->page_height);
		float room_w = layout->page_width - 2 * layout->margin, room_h = layout->page_height - 2 * layout->margin;
		if (room_w <= 0 || room_h <= 0)
			fz_throw(ctx, FZ_ERROR_GENERIC, "the margins leave no room on the page");
		float scale = fz_min(room_w / width, room_h / height);
		float w = width * scale, h = height * scale;
		float x = (layout->page_width - w) / 2, y = (layout->page_height - h) / 2;
		place = fz_make_rect(x, y, x + w, y + h);
	}
	pdf_obj *resources = NULL, *page_object = NULL;
	fz_buffer *contents = NULL;
	fz_var(resources);
	fz_var(page_object);
	fz_var(contents);
	fz_try(ctx) {
		pdf_obj *reference = pdf_add_image(ctx, pdf, image);
		resources = pdf_new_dict(ctx, pdf, 1);
		pdf_dict_puts_drop(ctx, pdf_dict_put_dict(ctx, resources, PDF_NAME(XObject), 1), "Im0", reference);
		contents = fz_new_buffer(ctx, 64);
		/* PDF's y axis points up: the picture's box from the page's bottom edge. */
		fz_append_printf(ctx, contents, "q %g 0 0 %g %g %g cm /Im0 Do Q\n",
			place.x1 - place.x0, place.y1 - place.y0, place.x0, page.y1 - place.y1);
		page_object = pdf_add_page(ctx, pdf, page, 0, resources, contents);
		pdf_insert_page(ctx, pdf, -1, page_object);
	}
	fz_always(ctx) {
		pdf_drop_obj(ctx, page_object);
		pdf_drop_obj(ctx, resources);
		fz_drop_buffer(ctx, contents);
	}
	fz_catch(ctx)
		fz_rethrow(ctx);
}

int cmupdf_append_image_pages(cmupdf_document *doc, const unsigned char *data, size_t length, const cmupdf_image_layout *layout, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, -1);
	fz_context *ctx = doc->ctx;
	fz_buffer *buffer = NULL;
	fz_image *image = NULL;
	fz_pixmap *pixmap = NULL;
	int added = 0, over_limit = 0;
	fz_var(buffer);
	fz_var(over_limit);
	fz_var(image);
	fz_var(pixmap);
	fz_try(ctx) {
		if (length < 8)
			fz_throw(ctx, FZ_ERROR_GENERIC, "not a picture: too short");
		int format = fz_recognize_image_format(ctx, (unsigned char *)data);
		if (format == FZ_IMAGE_UNKNOWN)
			fz_throw(ctx, FZ_ERROR_GENERIC, "not a picture MuPDF reads");
		buffer = fz_new_buffer_from_copied_data(ctx, data, length);
		int count = format == FZ_IMAGE_TIFF ? fz_load_tiff_subimage_count(ctx, data, length) : 1;
		for (int index = 0; index < count; index++) {
			if (index == 0) {
				/* Read from the header; drawn (or, for JPEG, copied) only when added. */
				image = fz_new_image_from_buffer(ctx, buffer);
			} else {
				pixmap = fz_load_tiff_subimage(ctx, data, length, index);
				image = fz_new_image_from_pixmap(ctx, pixmap, NULL);
				fz_drop_pixmap(ctx, pixmap);
				pixmap = NULL;
			}
			add_image_page(ctx, doc->pdf, image, layout, &over_limit);
			fz_drop_image(ctx, image);
			image = NULL;
			added++;
		}
	}
	fz_always(ctx) {
		fz_drop_pixmap(ctx, pixmap);
		fz_drop_image(ctx, image);
		fz_drop_buffer(ctx, buffer);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		if (over_limit)
			error->code = CMUPDF_ERROR_LIMIT;
		return -1;
	}
	return added;
}
