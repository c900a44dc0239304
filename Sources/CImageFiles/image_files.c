#include "cimage_files.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>

/* libjpeg reports a fatal error by calling error_exit, which must not return: it jumps back
   to the encoder or decoder with the message kept. What must outlive the jump (the buffer
   libjpeg grows for the encoder, the decoder's pixels) is held here too, in memory the jump
   leaves alone, and freed. Warnings (a damaged but readable file) are not printed. */
struct failure {
	struct jpeg_error_mgr manager;
	jmp_buf jump;
	char *message;
	unsigned char *buffer;
	unsigned long buffer_size;
	unsigned char *pixels;
};

static void fail(j_common_ptr info)
{
	struct failure *failure = (struct failure *)info->err;
	(*info->err->format_message)(info, failure->message);
	longjmp(failure->jump, 1);
}

static void quiet(j_common_ptr info)
{
	(void)info;
}

/* A new failure record, its error manager made `*err` (a compress or decompress struct's);
   NULL, with `error` saying so, when memory runs out. */
static struct failure *new_failure(struct jpeg_error_mgr **err, char error[200])
{
	struct failure *failure = calloc(1, sizeof *failure);
	if (!failure) {
		snprintf(error, 200, "out of memory");
		return NULL;
	}
	*err = jpeg_std_error(&failure->manager);
	failure->manager.error_exit = fail;
	failure->manager.output_message = quiet;
	failure->message = error;
	return failure;
}

unsigned char *cjpeg_encode(const unsigned char *samples, int width, int height, size_t stride, int channels, int quality,
	size_t *length, char error[200])
{
	struct jpeg_compress_struct info;
	struct failure *failure;

	error[0] = 0;
	if (width <= 0 || height <= 0 || width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION) {
		snprintf(error, 200, "a JPEG image is 1 to %d pixels wide and high, not %dx%d", (int)JPEG_MAX_DIMENSION, width, height);
		return NULL;
	}
	if ((channels != 1 && channels != 3) || quality < 1 || quality > 100 || stride < (size_t)width * channels) {
		snprintf(error, 200, "JPEG takes gray or RGB samples at a quality of 1 to 100");
		return NULL;
	}
	failure = new_failure(&info.err, error);
	if (!failure)
		return NULL;
	if (setjmp(failure->jump)) {
		jpeg_destroy_compress(&info);
		free(failure->buffer);
		free(failure);
		return NULL;
	}
	jpeg_create_compress(&info);
	jpeg_mem_dest(&info, &failure->buffer, &failure->buffer_size);
	info.image_width = (JDIMENSION)width;
	info.image_height = (JDIMENSION)height;
	info.input_components = channels;
	info.in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
	jpeg_set_defaults(&info);
	jpeg_set_quality(&info, quality, TRUE);
	jpeg_start_compress(&info, TRUE);
	while (info.next_scanline < info.image_height) {
		JSAMPROW row = (JSAMPROW)(samples + (size_t)info.next_scanline * stride);
		jpeg_write_scanlines(&info, &row, 1);
	}
	jpeg_finish_compress(&info);
	jpeg_destroy_compress(&info);
	unsigned char *output = failure->buffer;
	*length = failure->buffer_size;
	free(failure);
	return output;
}

/* Whether an image of `width` x `height` pixels is within the limits; when not, sets
   `*too_large` and says so in `error`. */
static int within(int width, int height, int max_side, long max_pixels, int *too_large, char error[200])
{
	if (width <= 0 || height <= 0 || width > max_side || height > max_side || (long)width * height > max_pixels) {
		snprintf(error, 200, "the image is %dx%d pixels; at most %d pixels a side and %ld in all are taken",
			width, height, max_side, max_pixels);
		*too_large = 1;
		return 0;
	}
	return 1;
}

unsigned char *cimage_decode_jpeg(const unsigned char *file, size_t length, int max_side, long max_pixels,
	int *width, int *height, int *too_large, char error[200])
{
	struct jpeg_decompress_struct info;
	struct failure *failure;
	unsigned char *pixels;

	error[0] = 0;
	*too_large = 0;
	if (length == 0 || length > 0x7fffffffUL) {
		snprintf(error, 200, "a JPEG file of %zu bytes cannot be read", length);
		return NULL;
	}
	failure = new_failure(&info.err, error);
	if (!failure)
		return NULL;
	if (setjmp(failure->jump)) {
		jpeg_destroy_decompress(&info);
		free(failure->pixels);
		free(failure);
		return NULL;
	}
	jpeg_create_decompress(&info);
	jpeg_mem_src(&info, file, (unsigned long)length);
	jpeg_read_header(&info, TRUE);
	if (!within((int)info.image_width, (int)info.image_height, max_side, max_pixels, too_large, error)) {
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
	int *width, int *height, int *too_large, char error[200])
{
	png_image image;
	unsigned char *pixels;

	error[0] = 0;
	*too_large = 0;
	memset(&image, 0, sizeof image);
	image.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_memory(&image, file, length)) {
		snprintf(error, 200, "%s", image.message);
		return NULL;
	}
	if (!within((int)image.width, (int)image.height, max_side, max_pixels, too_large, error)) {
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
