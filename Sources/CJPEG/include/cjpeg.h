#ifndef CJPEG_H
#define CJPEG_H

#include <stddef.h>

/* Encodes `height` rows of `width` pixels of `channels` 8-bit samples each (1: gray, 3: RGB),
   `stride` bytes apart, as a baseline JPEG file (JFIF) in memory, by libjpeg at `quality`
   (1 to 100, libjpeg's scale). Returns the file, to be released with free(), and sets
   `*length`; or returns NULL with `error` holding libjpeg's message when the arguments are
   out of range, libjpeg fails or memory runs out. Nothing is left allocated on failure. */
unsigned char *cjpeg_encode(const unsigned char *samples, int width, int height, size_t stride, int channels, int quality,
	size_t *length, char error[200]);

#endif
