#ifndef CIMAGE_FILES_H
#define CIMAGE_FILES_H

#include <stddef.h>

/* JPEG files written, and JPEG and PNG files read, in memory, by Debian's libjpeg
   (libjpeg-turbo) and libpng. */

/* Encodes `height` rows of `width` pixels of `channels` 8-bit samples each (1: gray, 3: RGB),
   `stride` bytes apart, as a baseline JPEG file (JFIF) in memory, by libjpeg at `quality`
   (1 to 100, libjpeg's scale). Returns the file, to be released with free(), and sets
   `*length`; or returns NULL with `error` holding libjpeg's message when the arguments are
   out of range, libjpeg fails or memory runs out. Nothing is left allocated on failure. */
unsigned char *cjpeg_encode(const unsigned char *samples, int width, int height, size_t stride, int channels, int quality,
	size_t *length, char error[200]);

/* JPEG and PNG files decoded in memory to 8-bit RGBA, 4 bytes a pixel (R, G, B, then
   straight alpha), rows packed, top row first, in a buffer from malloc to be released with
   free(). Each reads the image's size first and refuses, before decoding anything, an image
   wider or higher than `max_side` pixels or of more than `max_pixels` pixels, setting
   `*too_large` to 1 (0 otherwise). On failure it returns NULL, with `error` holding the reason
   (the library's message for a damaged file), and leaves nothing allocated. */

/* A JPEG file (baseline or progressive; gray, RGB or YCbCr): opaque, alpha 255. */
unsigned char *cimage_decode_jpeg(const unsigned char *file, size_t length, int max_side, long max_pixels,
	int *width, int *height, int *too_large, char error[200]);

/* A PNG file of any colour type and depth, transparency (alpha channel or tRNS) kept. */
unsigned char *cimage_decode_png(const unsigned char *file, size_t length, int max_side, long max_pixels,
	int *width, int *height, int *too_large, char error[200]);

#endif
