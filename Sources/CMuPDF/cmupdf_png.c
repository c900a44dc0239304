#include "cmupdf_internal.h"
#include <stdlib.h>
#include <string.h>

/* Runs `encode` on the samples wrapped in a pixmap, in a context of its own (so any thread
   may encode), and returns 1, or 0 with `error` set. */
static int with_pixmap(const unsigned char *samples, int w, int h, int stride, int n, cmupdf_error *error,
	void (*encode)(fz_context *ctx, fz_pixmap *pixmap, void *user), void *user)
{
	cmupdf_log_target silent = { NULL, NULL };
	fz_context *ctx = cmupdf_new_context(&silent, FZ_STORE_DEFAULT, error);
	if (!ctx)
		return 0;
	fz_pixmap *pixmap = NULL;
	int ok = 0;
	fz_var(pixmap);
	fz_var(ok);
	fz_try(ctx) {
		fz_colorspace *colorspace = n == 1 ? fz_device_gray(ctx) : fz_device_rgb(ctx);
		pixmap = fz_new_pixmap_with_data(ctx, colorspace, w, h, NULL, n == 4, stride, (unsigned char *)samples);
		encode(ctx, pixmap, user);
		ok = 1;
	}
	fz_always(ctx)
		fz_drop_pixmap(ctx, pixmap);
	fz_catch(ctx)
		cmupdf_set_caught_error(ctx, error);
	fz_drop_context(ctx);
	return ok;
}

struct encoded {
	unsigned char *data;
	size_t length;
};

static void encode_to_memory(fz_context *ctx, fz_pixmap *pixmap, void *user)
{
	struct encoded *result = user;
	fz_buffer *buffer = fz_new_buffer_from_pixmap_as_png(ctx, pixmap, fz_default_color_params);
	fz_try(ctx) {
		unsigned char *data;
		size_t size = fz_buffer_storage(ctx, buffer, &data);
		result->data = malloc(size ? size : 1);
		if (!result->data)
			fz_throw(ctx, FZ_ERROR_MEMORY, "out of memory for a %zu-byte PNG", size);
		memcpy(result->data, data, size);
		result->length = size;
	}
	fz_always(ctx)
		fz_drop_buffer(ctx, buffer);
	fz_catch(ctx)
		fz_rethrow(ctx);
}

unsigned char *cmupdf_encode_png(const unsigned char *samples, int w, int h, int stride, int n, size_t *length, cmupdf_error *error)
{
	struct encoded result = { NULL, 0 };
	if (!with_pixmap(samples, w, h, stride, n, error, encode_to_memory, &result))
		return NULL;
	*length = result.length;
	return result.data;
}

static void encode_to_file(fz_context *ctx, fz_pixmap *pixmap, void *user)
{
	fz_save_pixmap_as_png(ctx, pixmap, user);
}

int cmupdf_write_png(const unsigned char *samples, int w, int h, int stride, int n, const char *path, cmupdf_error *error)
{
	return with_pixmap(samples, w, h, stride, n, error, encode_to_file, (void *)path);
}
