#include "cimage_decoding.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>

static int within(int width, int height, int max_side, long max_pixels, char error[200])
{
	if (width <= 0 || height <= 0 || width > max_side || height > max_side || (long)width * height > max_pixels) {
		snprintf(error, 200, "the image is %dx%d pixels; at most %d pixels a side and %ld in all are taken",
			width, height, max_side, max_pixels);
		return 0;
	}
	return 1;
}

/* libjpeg reports a fatal error through error_exit, which must not return: it jumps back with
   the message kept. What must outlive the jump (the pixels) is held here, in memory the jump
   leaves alone. Warnings (a damaged but readable file) are not printed. */
struct jpeg_failure {
	struct jpeg_error_mgr manager;
	jmp_buf jump;
	char *message;
	unsigned char *pixels;
};

static void jpeg_fail(j_common_ptr info)
{
	struct jpeg_failure *failure = (struct jpeg_failure *)info->err;
	(*info->err->format_message)(info, failure->message);
	longjmp(failure->jump, 1);
}

static void jpeg_quiet(j_common_ptr info)
{
	(void)info;
}

unsigned char *cimage_decode_jpeg(const unsigned char *file, size_t length, int max_side, long max_pixels,
	int *width, int *height, char error[200])
{
	struct jpeg_decompress_struct info;
	struct jpeg_failure *failure;
	unsigned char *pixels;

	error[0] = 0;
	if (length == 0 || length > 0x7fffffffUL) {
		snprintf(error, 200, "a JPEG file of %zu bytes cannot be read", length);
		return NULL;
	}
	failure = calloc(1, sizeof *failure);
	if (!failure) {
		snprintf(error, 200, "out of memory");
		return NULL;
	}
	info.err = jpeg_std_error(&failure->manager);
	failure->manager.error_exit = jpeg_fail;
	failure->manager.output_message = jpeg_quiet;
	failure->message = error;
	if (setjmp(failure->jump)) {
		jpeg_destroy_decompress(&info);
		free(failure->pixels);
		free(failure);
		return NULL;
	}
	jpeg_create_decompress(&info);
	jpeg_mem_src(&info, file, (unsigned long)length);
	jpeg_read_header(&info, TRUE);
	if (!within((int)info.image_width, (int)info.image_height, max_side, max_pixels, error)) {
		jpeg_destroy_decompress(&info);
		free(failure);
		return NULL;
	}
	info.out_color_space = JCS_EXT_RGBA;
	jpeg_start_decompress(&info);
	*width = (int)info.output_width;
	*height = (int)info.output_height;
	failure->pixels = malloc((size_t)*width * (size_t)*height * 4);
	if (!failure->pixels) {
		snprintf(error, 200, "out of memory");
		longjmp(failure->jump, 1);
	}
	while (info.output_scanline < info.output_height) {
		JSAMPROW row = failure->pixels + (size_t)info.output_scanline * (size_t)*width * 4;
		jpeg_read_scanlines(&info, &row, 1);
	}
	jpeg_finish_decompress(&info);
	jpeg_destroy_decompress(&info);
	pixels = failure->pixels;
	free(failure);
	return pixels;
}

unsigned char *cimage_decode_png(const unsigned char *file, size_t length, int max_side, long max_pixels,
	int *width, int *height, char error[200])
{
	png_image image;
	unsigned char *pixels;

	error[0] = 0;
	memset(&image, 0, sizeof image);
	image.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_memory(&image, file, length)) {
		snprintf(error, 200, "%s", image.message);
		return NULL;
	}
	if (!within((int)image.width, (int)image.height, max_side, max_pixels, error)) {
		png_image_free(&image);
		return NULL;
	}
	image.format = PNG_FORMAT_RGBA;
	pixels = malloc(PNG_IMAGE_SIZE(image));
	if (!pixels) {
		png_image_free(&image);
		snprintf(error, 200, "out of memory");
		return NULL;
	}
	if (!png_image_finish_read(&image, NULL, pixels, 0, NULL)) {
		snprintf(error, 200, "%s", image.message);
		png_image_free(&image);
		free(pixels);
		return NULL;
	}
	*width = (int)image.width;
	*height = (int)image.height;
	return pixels;
}
