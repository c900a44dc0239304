#include "cjpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

/* libjpeg reports a fatal error by calling error_exit, which must not return: it jumps back
   to the encoder with the message kept. The output buffer libjpeg grows is held here too, so
   that after the jump it is read from memory the jump leaves alone, and freed. */
struct failure {
	struct jpeg_error_mgr manager;
	jmp_buf jump;
	char *message;
	unsigned char *buffer;
	unsigned long buffer_size;
};

static void fail(j_common_ptr info)
{
	struct failure *failure = (struct failure *)info->err;
	(*info->err->format_message)(info, failure->message);
	longjmp(failure->jump, 1);
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
	failure = calloc(1, sizeof *failure);
	if (!failure) {
		snprintf(error, 200, "out of memory");
		return NULL;
	}
	info.err = jpeg_std_error(&failure->manager);
	failure->manager.error_exit = fail;
	failure->message = error;
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
