#include "cmupdf_internal.h"
#include <stdlib.h>
#include <string.h>

unsigned char *cmupdf_encode_png(const unsigned char *samples, int w, int h, int stride, int n, size_t *length, cmupdf_error *error)
{
	cmupdf_log_target silent = { NULL, NULL };
	fz_context *ctx = cmupdf_new_context(&silent, error);
	if (!ctx)
		return NULL;
	fz_pixmap *pixmap = NULL;
	fz_buffer *buffer = NULL;
	unsigned char *result = NULL;
	fz_var(pixmap);
	fz_var(buffer);
	fz_var(result);
	fz_try(ctx) {
		fz_colorspace *colorspace = n == 1 ? fz_device_gray(ctx) : fz_device_rgb(ctx);
		pixmap = fz_new_pixmap_with_data(ctx, colorspace, w, h, NULL, n == 4, stride, (unsigned char *)samples);
		buffer = fz_new_buffer_from_pixmap_as_png(ctx, pixmap, fz_default_color_params);
		unsigned char *data;
		size_t size = fz_buffer_storage(ctx, buffer, &data);
		result = malloc(size ? size : 1);
		if (!result)
			fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory for a %zu-byte PNG", size);
		memcpy(result, data, size);
		*length = size;
	}
	fz_always(ctx) {
		fz_drop_buffer(ctx, buffer);
		fz_drop_pixmap(ctx, pixmap);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		result = NULL;
	}
	fz_drop_context(ctx);
	return result;
}
