#include "pixelmetrics.h"

/* Whether, channel by channel, pixel `p` lies within the range of the values of `q` within
   one pixel of (x, y), widened by the threshold. */
static int within_nearby_range(const uint8_t *p, const uint8_t *q, size_t stride, int x, int y, int width, int height,
	int bytes_per_pixel, int colour_channels, int threshold)
{
	int top = y > 0 ? y - 1 : 0, bottom = y < height - 1 ? y + 1 : height - 1;
	int left = x > 0 ? x - 1 : 0, right = x < width - 1 ? x + 1 : width - 1;
	for (int c = 0; c < colour_channels; c++) {
		int low = 255, high = 0;
		for (int ny = top; ny <= bottom; ny++) {
			const uint8_t *row = q + (size_t)ny * stride;
			for (int nx = left; nx <= right; nx++) {
				int value = row[(size_t)nx * bytes_per_pixel + c];
				if (value < low) low = value;
				if (value > high) high = value;
			}
		}
		int value = p[c];
		if (value < low - threshold || value > high + threshold) return 0;
	}
	return 1;
}

static int is_inked(const uint8_t *p, int colour_channels, int threshold)
{
	for (int c = 0; c < colour_channels; c++)
		if (p[c] < 255 - threshold) return 1;
	return 0;
}

void pixelmetrics_compute(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b, int width, int height,
	int bytes_per_pixel, int colour_channels, int threshold, uint8_t *heat, struct pixelmetrics_counts *counts)
{
	struct pixelmetrics_counts sum = {0};
	for (int y = 0; y < height; y++) {
		const uint8_t *row_a = a + (size_t)y * stride_a, *row_b = b + (size_t)y * stride_b;
		for (int x = 0; x < width; x++) {
			const uint8_t *pa = row_a + (size_t)x * bytes_per_pixel, *pb = row_b + (size_t)x * bytes_per_pixel;
			int distance = 0;
			for (int c = 0; c < colour_channels; c++) {
				int d = (int)pa[c] - (int)pb[c];
				sum.squares += (uint64_t)(d * d);
				if (d < 0) d = -d;
				if (d > distance) distance = d;
			}
			int ink_a = is_inked(pa, colour_channels, threshold), ink_b = is_inked(pb, colour_channels, threshold);
			sum.inked_a += ink_a;
			sum.inked_b += ink_b;
			sum.inked += ink_a || ink_b;
			/* 0: the same; 1: differing; 2: differing even allowing a shift. */
			int kind = 0;
			if (distance > threshold) {
				sum.differing++;
				kind = 1;
				if (!within_nearby_range(pa, b, stride_b, x, y, width, height, bytes_per_pixel, colour_channels, threshold)
					|| !within_nearby_range(pb, a, stride_a, x, y, width, height, bytes_per_pixel, colour_channels, threshold)) {
					sum.shifted++;
					kind = 2;
				}
			}
			if (heat) {
				uint8_t *h = heat + ((size_t)y * width + x) * 3;
				if (kind == 1) {
					h[0] = 255; h[1] = 160; h[2] = 0;
				} else if (kind == 2) {
					h[0] = 220; h[1] = 0; h[2] = 0;
				} else {
					int gray = colour_channels == 1 ? pa[0] : (30 * pa[0] + 59 * pa[1] + 11 * pa[2]) / 100;
					uint8_t faded = (uint8_t)(255 - (255 - gray) / 4);
					h[0] = h[1] = h[2] = faded;
				}
			}
		}
	}
	*counts = sum;
}
