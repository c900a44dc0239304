#ifndef CIMAGE_DECODING_H
#define CIMAGE_DECODING_H

#include <stddef.h>

/* JPEG and PNG files decoded in memory to 8-bit RGBA, 4 bytes a pixel (R, G, B, then
   straight alpha), rows packed, top row first, in a buffer from malloc to be released with
   free(). Each reads the image's size first and refuses, before decoding anything, an image
   wider or higher than `max_side` pixels or of more than `max_pixels` pixels. On failure it
   returns NULL, with `error` holding the reason (the library's message for a damaged file),
   and leaves nothing allocated. */

/* A JPEG file (baseline or progressive; gray, RGB or YCbCr): opaque, alpha 255. */
unsigned char *cimage_decode_jpeg(const unsigned char *file, size_t length, int max_side, long max_pixels,
	int *width, int *height, char error[200]);

/* A PNG file of any colour type and depth, transparency (alpha channel or tRNS) kept. */
unsigned char *cimage_decode_png(const unsigned char *file, size_t length, int max_side, long max_pixels,
	int *width, int *height, char error[200]);

#endif
