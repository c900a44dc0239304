#ifndef FASTPNG_H
#define FASTPNG_H

#include <stddef.h>
#include <stdint.h>

/* The PNG row filters (PNG specification, section 9), and two choices made row by row:
   FASTPNG_FILTER_ADAPTIVE picks the filter whose output has the smallest sum of absolute
   values (read as signed bytes), the heuristic the PNG specification suggests;
   FASTPNG_FILTER_NONE_OR_UP leaves a row unfiltered unless Up brings that sum under a
   quarter of the row's own, so that text keeps the repeated byte runs deflate finds while
   smooth gradients are predicted from the row above. */
enum fastpng_filter {
	FASTPNG_FILTER_NONE = 0,
	FASTPNG_FILTER_SUB = 1,
	FASTPNG_FILTER_UP = 2,
	FASTPNG_FILTER_AVERAGE = 3,
	FASTPNG_FILTER_PAETH = 4,
	FASTPNG_FILTER_ADAPTIVE = 5,
	FASTPNG_FILTER_NONE_OR_UP = 6,
};

/* Encodes `height` rows of `width` pixels of `channels` 8-bit samples each (1: gray, 3: RGB,
   4: RGBA with straight alpha), `stride` bytes apart, as a whole 8-bit PNG file in memory:
   the signature, IHDR, one IDAT compressed by libdeflate at `level` (0 to 12) after
   `filter`, and IEND.

   With `reduce` non-zero, the file takes the fewest channels that hold every pixel exactly:
   gray when red, green and blue are equal in every pixel, and no alpha channel when every
   pixel is opaque; a decoder then gives back the same values.

   Returns the file, in memory this thread keeps for its next call (valid until then; not to
   be freed), and sets `*length`; or returns NULL with `error` holding a message when the
   arguments are out of range or memory runs out. Each thread keeps its buffers (about twice
   the largest image's size) and a compressor until it ends; buffers grown past 256 MiB are let
   go at its next call. */
const unsigned char *fastpng_encode(const unsigned char *samples, int width, int height, size_t stride, int channels,
	int reduce, int level, enum fastpng_filter filter, size_t *length, char error[128]);

/* The CRC-32 of `length` bytes as PNG chunks carry it (ISO 3309, the one zlib computes), by
   libdeflate: for chunks written apart from the encoder. */
uint32_t fastpng_crc32(const unsigned char *bytes, size_t length);

#endif
