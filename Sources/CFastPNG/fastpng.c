#include "fastpng.h"

#include <libdeflate.h>
#include <pthread.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put32(unsigned char *p, uint32_t value)
{
	p[0] = value >> 24;
	p[1] = value >> 16;
	p[2] = value >> 8;
	p[3] = value;
}

/* Writes a chunk whose `length` bytes of data are already at `p + 8`: its length, type and
   CRC (over the type and the data). Returns the chunk's whole size. */
static size_t finish_chunk(unsigned char *p, const char type[4], size_t length)
{
	put32(p, (uint32_t)length);
	memcpy(p + 4, type, 4);
	put32(p + 8 + length, libdeflate_crc32(0, p + 4, length + 4));
	return length + 12;
}

static unsigned char paeth(int a, int b, int c)
{
	int p = a + b - c;
	int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
	if (pa <= pb && pa <= pc)
		return (unsigned char)a;
	return (unsigned char)(pb <= pc ? b : c);
}

/* Filters one row of `n` bytes with `filter` into `out`; `prior` is the row above (zeros
   for the first row) and `bpp` the bytes per pixel. */
static void filter_row(enum fastpng_filter filter, const unsigned char *row, const unsigned char *prior, size_t n, int bpp,
	unsigned char *out)
{
	size_t i;
	switch (filter) {
	case FASTPNG_FILTER_SUB:
		for (i = 0; i < (size_t)bpp && i < n; i++)
			out[i] = row[i];
		for (; i < n; i++)
			out[i] = row[i] - row[i - bpp];
		break;
	case FASTPNG_FILTER_UP:
		for (i = 0; i < n; i++)
			out[i] = row[i] - prior[i];
		break;
	case FASTPNG_FILTER_AVERAGE:
		for (i = 0; i < (size_t)bpp && i < n; i++)
			out[i] = row[i] - (prior[i] >> 1);
		for (; i < n; i++)
			out[i] = row[i] - ((row[i - bpp] + prior[i]) >> 1);
		break;
	case FASTPNG_FILTER_PAETH:
		for (i = 0; i < (size_t)bpp && i < n; i++)
			out[i] = row[i] - paeth(0, prior[i], 0);
		for (; i < n; i++)
			out[i] = row[i] - paeth(row[i - bpp], prior[i], prior[i - bpp]);
		break;
	default:
		memcpy(out, row, n);
		break;
	}
}

/* The sum of the bytes' absolute values, read as signed bytes: min(x, 256 - x) for each
   byte x, summed in 32 bits a block at a time so that the compiler vectorizes it. */
static uint64_t row_cost(const unsigned char *out, size_t n)
{
	uint64_t sum = 0;
	for (size_t start = 0; start < n; start += 1 << 20) {
		size_t end = n - start < (1 << 20) ? n : start + (1 << 20);
		uint32_t block = 0;
		for (size_t i = start; i < end; i++) {
			unsigned char value = out[i], negated = (unsigned char)-value;
			block += value < negated ? value : negated;
		}
		sum += block;
	}
	return sum;
}

/* row_cost() of the row filtered with Up, without writing it. */
static uint64_t up_cost(const unsigned char *row, const unsigned char *prior, size_t n)
{
	uint64_t sum = 0;
	for (size_t start = 0; start < n; start += 1 << 20) {
		size_t end = n - start < (1 << 20) ? n : start + (1 << 20);
		uint32_t block = 0;
		for (size_t i = start; i < end; i++) {
			unsigned char value = (unsigned char)(row[i] - prior[i]), negated = (unsigned char)-value;
			block += value < negated ? value : negated;
		}
		sum += block;
	}
	return sum;
}

/* The channels the file needs for these pixels: 1 (gray), 2 (gray and alpha), 3 (RGB) or 4. */
static int needed_channels(const unsigned char *samples, int width, int height, size_t stride, int channels)
{
	if (channels == 1)
		return 1;
	/* Stops at the first pixel that settles the answer: one that is not gray settles an RGB
	   source's, one that is neither gray nor opaque an RGBA source's. */
	int gray = 1, opaque = 1;
	for (int y = 0; y < height && (gray || (channels == 4 && opaque)); y++) {
		const unsigned char *p = samples + (size_t)y * stride;
		if (channels == 3) {
			for (int x = 0; x < width && gray; x++, p += 3)
				gray = p[0] == p[1] && p[0] == p[2];
		} else {
			for (int x = 0; x < width; x++, p += 4) {
				gray = gray && p[0] == p[1] && p[0] == p[2];
				opaque = opaque && p[3] == 255;
			}
		}
	}
	return gray ? (opaque ? 1 : 2) : (opaque ? 3 : 4);
}

/* Writes one row of source pixels as `out_channels` samples a pixel into `out`. Colour
   channels are dropped from the right (gray keeps red) and alpha moves last. */
static void pack_row(const unsigned char *row, int width, int channels, int out_channels, unsigned char *out)
{
	if (out_channels == channels) {
		memcpy(out, row, (size_t)width * channels);
		return;
	}
	if (out_channels == 1) { /* gray pixels: red is the value */
		for (int x = 0; x < width; x++)
			out[x] = row[x * channels];
		return;
	}
	if (out_channels == 3 && channels == 4) { /* opaque pixels: alpha dropped */
		for (int x = 0; x < width; x++, row += 4, out += 3) {
			out[0] = row[0];
			out[1] = row[1];
			out[2] = row[2];
		}
		return;
	}
	int colors = out_channels == 2 ? 1 : 3;
	for (int x = 0; x < width; x++, row += channels) {
		for (int c = 0; c < colors; c++)
			*out++ = row[c];
		*out++ = row[3];
	}
}

/* What one thread keeps from one encoding to the next: growing buffers and a compressor, so
   that a run of pages allocates (and the kernel zeroes) memory only when a page needs more
   than those before. Freed when the thread ends; buffers grown past KEEP_LIMIT are freed at
   the thread's next call. */
struct workspace {
	unsigned char *filtered, *png, *rows;
	size_t filtered_capacity, png_capacity, rows_capacity;
	struct libdeflate_compressor *compressor;
	int level;
};

enum { KEEP_LIMIT = 256 << 20 };

static pthread_key_t workspace_key;
static pthread_once_t workspace_once = PTHREAD_ONCE_INIT;

static void free_workspace(void *pointer)
{
	struct workspace *workspace = pointer;
	free(workspace->filtered);
	free(workspace->png);
	free(workspace->rows);
	libdeflate_free_compressor(workspace->compressor);
	free(workspace);
}

static void make_workspace_key(void)
{
	pthread_key_create(&workspace_key, free_workspace);
}

static struct workspace *thread_workspace(void)
{
	pthread_once(&workspace_once, make_workspace_key);
	struct workspace *workspace = pthread_getspecific(workspace_key);
	if (!workspace) {
		workspace = calloc(1, sizeof *workspace);
		if (workspace && pthread_setspecific(workspace_key, workspace) != 0) {
			free(workspace);
			workspace = NULL;
		}
	}
	return workspace;
}

/* Makes `*buffer` hold at least `size` bytes; returns 0 when memory runs out. */
static int reserve(unsigned char **buffer, size_t *capacity, size_t size)
{
	if (*capacity >= size)
		return 1;
	free(*buffer);
	*buffer = malloc(size ? size : 1);
	*capacity = *buffer ? size : 0;
	return *buffer != NULL;
}

/* Frees the image buffers of a workspace that grew past KEEP_LIMIT for a very large image. */
static void trim(struct workspace *workspace)
{
	if (workspace->filtered_capacity + workspace->png_capacity <= KEEP_LIMIT)
		return;
	free(workspace->filtered);
	free(workspace->png);
	workspace->filtered = workspace->png = NULL;
	workspace->filtered_capacity = workspace->png_capacity = 0;
}

/* Fills the workspace's `filtered` buffer with each row packed to `out_channels`, as its
   filter byte and filtered bytes; returns its size, or 0 when memory runs out. */
static size_t filter_image(struct workspace *workspace, const unsigned char *samples, int width, int height, size_t stride,
	int channels, int out_channels, enum fastpng_filter filter)
{
	size_t n = (size_t)width * out_channels;
	/* The row above (zeros at first), this row, a trial filtering. */
	if (!reserve(&workspace->filtered, &workspace->filtered_capacity, (n + 1) * (size_t)height)
		|| !reserve(&workspace->rows, &workspace->rows_capacity, 3 * n))
		return 0;
	unsigned char *filtered = workspace->filtered;
	unsigned char *prior = workspace->rows, *row = prior + n, *trial = prior + 2 * n;
	memset(prior, 0, n);
	for (int y = 0; y < height; y++) {
		pack_row(samples + (size_t)y * stride, width, channels, out_channels, row);
		unsigned char *out = filtered + (size_t)y * (n + 1);
		enum fastpng_filter chosen = filter;
		if (filter == FASTPNG_FILTER_ADAPTIVE) {
			/* None is judged on the row itself, the others by filtering into `trial`. */
			uint64_t best = row_cost(row, n);
			chosen = FASTPNG_FILTER_NONE;
			for (int f = FASTPNG_FILTER_SUB; f <= FASTPNG_FILTER_PAETH; f++) {
				filter_row((enum fastpng_filter)f, row, prior, n, out_channels, trial);
				uint64_t cost = row_cost(trial, n);
				if (cost < best) {
					best = cost;
					chosen = (enum fastpng_filter)f;
				}
			}
		} else if (filter == FASTPNG_FILTER_NONE_OR_UP) {
			chosen = up_cost(row, prior, n) * 4 < row_cost(row, n) ? FASTPNG_FILTER_UP : FASTPNG_FILTER_NONE;
		}
		out[0] = (unsigned char)chosen;
		filter_row(chosen, row, prior, n, out_channels, out + 1);
		unsigned char *swap = prior;
		prior = row;
		row = swap;
	}
	return (n + 1) * (size_t)height;
}

const unsigned char *fastpng_encode(const unsigned char *samples, int width, int height, size_t stride, int channels,
	int reduce, int level, enum fastpng_filter filter, size_t *length, char error[128])
{
	static const unsigned char signature[8] = { 137, 'P', 'N', 'G', '\r', '\n', 26, '\n' };
	static const unsigned char color_types[5] = { 0, 0, 4, 2, 6 };
	if ((channels != 1 && channels != 3 && channels != 4) || width <= 0 || height <= 0 || stride < (size_t)width * channels
		|| level < 0 || level > 12 || filter < FASTPNG_FILTER_NONE || filter > FASTPNG_FILTER_NONE_OR_UP) {
		snprintf(error, 128, "cannot encode a %dx%d image of %d channels at level %d as PNG", width, height, channels, level);
		return NULL;
	}
	struct workspace *workspace = thread_workspace();
	if (workspace)
		trim(workspace); /* the last image's file, if it was very large, is no longer needed */
	if (workspace && (!workspace->compressor || workspace->level != level)) {
		libdeflate_free_compressor(workspace->compressor);
		workspace->compressor = libdeflate_alloc_compressor(level);
		workspace->level = level;
	}
	int out_channels = reduce ? needed_channels(samples, width, height, stride, channels) : channels;
	size_t filtered_size = workspace && workspace->compressor
		? filter_image(workspace, samples, width, height, stride, channels, out_channels, filter)
		: 0;
	size_t bound = filtered_size ? libdeflate_zlib_compress_bound(workspace->compressor, filtered_size) : 0;
	/* The signature, IHDR (25 bytes), the IDAT's length, type and CRC, and IEND (12). */
	size_t overhead = 8 + 25 + 12 + 12;
	if (!filtered_size || bound > UINT32_MAX || !reserve(&workspace->png, &workspace->png_capacity, overhead + bound)) {
		snprintf(error, 128, "out of memory encoding a %dx%d PNG", width, height);
		return NULL;
	}
	unsigned char *p = workspace->png;
	memcpy(p, signature, 8);
	p += 8;
	put32(p + 8, (uint32_t)width);
	put32(p + 12, (uint32_t)height);
	p[16] = 8; /* bit depth */
	p[17] = color_types[out_channels];
	p[18] = p[19] = p[20] = 0; /* deflate, adaptive filtering, no interlace */
	p += finish_chunk(p, "IHDR", 13);
	size_t compressed = libdeflate_zlib_compress(workspace->compressor, workspace->filtered, filtered_size, p + 8, bound);
	if (compressed == 0) {
		snprintf(error, 128, "libdeflate could not compress a %dx%d PNG", width, height);
		return NULL;
	}
	p += finish_chunk(p, "IDAT", compressed);
	p += finish_chunk(p, "IEND", 0);
	*length = (size_t)(p - workspace->png);
	return workspace->png;
}

uint32_t fastpng_crc32(const unsigned char *bytes, size_t length)
{
	return libdeflate_crc32(0, bytes, length);
}
