#ifndef PIXELMETRICS_H
#define PIXELMETRICS_H

#include <stddef.h>
#include <stdint.h>

/* What comparing two renders pixel by pixel counts (RendererComparison's PixelMetrics reads
   its shares from these). */
struct pixelmetrics_counts {
	/* Pixels whose largest channel difference exceeds the threshold. */
	uint64_t differing;
	/* Of those, the pixels that differ even allowing a one-pixel shift: in some channel the
	   value lies outside the range of the other render's values within one pixel of it,
	   widened by the threshold (checked both ways). */
	uint64_t shifted;
	/* Pixels inked (some colour channel below 255 minus the threshold) in either render, in
	   the first alone counted, and in the second. */
	uint64_t inked, inked_a, inked_b;
	/* The sum of the squared channel differences over every colour channel. */
	uint64_t squares;
};

/* Compares `a` (the reference) and `b`, two renders of `width` x `height` pixels of
   `bytes_per_pixel` bytes each, rows `stride_a` and `stride_b` bytes apart, over their first
   `colour_channels` channels (an alpha channel after them is not compared), with
   `threshold` the largest channel difference that still counts as the same. When `heat` is
   not NULL it receives width x height RGB pixels: orange where the pixels differ, red where
   they differ even allowing a one-pixel shift, elsewhere the reference faded to light gray.
   Written in C so that it runs at the same speed in every build of the Swift code above it,
   the tests' unoptimised one included. */
void pixelmetrics_compute(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b, int width, int height,
	int bytes_per_pixel, int colour_channels, int threshold, uint8_t *heat, struct pixelmetrics_counts *counts);

#endif
