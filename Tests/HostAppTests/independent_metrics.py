#!/usr/bin/env python3
"""An independent computation of hostapp compare's pixel metrics, with numpy, from the PNG
renders its --report writes (decoded by netpbm's pngtopnm). Prints one JSON object per
page: {"page": N, "differingShare": ..., "shiftedDifferingShare": ..., "psnr": ...,
"inkedShare": ..., "shiftedDifferingShareOfInk": ...}.

Definitions (the same as RendererProvider's PixelMetrics, written separately):
- a pixel differs when its largest channel difference exceeds T;
- it differs allowing a 1-pixel shift when, in some channel, its value lies outside
  [min - T, max + T] of the other render's values in its 3x3 neighbourhood, either way round;
- a pixel is inked when some channel is below 255 - T in either render;
- PSNR = 10 log10(255^2 / MSE) over all channels, null when identical.
Usage: independent_metrics.py REPORT_DIR CANDIDATE PAGE [PAGE ...] [--threshold T]
"""
import json
import subprocess
import sys

import numpy as np


def load(path):
    data = subprocess.run(["pngtopnm", path], check=True, capture_output=True).stdout
    magic, width, height = data.split(maxsplit=3)[:3]
    assert magic == b"P6", path
    width, height = int(width), int(height)
    # The header is followed by exactly width x height RGB pixels.
    pixels = np.frombuffer(data[-width * height * 3:], dtype=np.uint8)
    return pixels.reshape(height, width, 3).astype(np.int32)


def neighbourhood(image, reduce):
    padded = np.pad(image, ((1, 1), (1, 1), (0, 0)), mode="edge")
    h, w = image.shape[:2]
    stack = [padded[dy:dy + h, dx:dx + w] for dy in range(3) for dx in range(3)]
    return reduce(np.stack(stack), axis=0)


def metrics(a, b, t):
    total = a.shape[0] * a.shape[1]
    differing = np.abs(a - b).max(axis=2) > t
    outside_b = ((a < neighbourhood(b, np.min) - t) | (a > neighbourhood(b, np.max) + t)).any(axis=2)
    outside_a = ((b < neighbourhood(a, np.min) - t) | (b > neighbourhood(a, np.max) + t)).any(axis=2)
    shifted = differing & (outside_b | outside_a)
    inked = (a < 255 - t).any(axis=2) | (b < 255 - t).any(axis=2)
    mse = ((a - b) ** 2).mean()
    return {
        "differingShare": float(differing.sum()) / total,
        "shiftedDifferingShare": float(shifted.sum()) / total,
        "psnr": None if mse == 0 else float(10 * np.log10(255 * 255 / mse)),
        "inkedShare": float(inked.sum()) / total,
        "shiftedDifferingShareOfInk": float(shifted.sum()) / inked.sum() if inked.sum() else 0.0,
    }


def main(argv):
    threshold = 32
    if "--threshold" in argv:
        i = argv.index("--threshold")
        threshold = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    directory, candidate, pages = argv[0], argv[1], [int(p) for p in argv[2:]]
    for page in pages:
        a = load(f"{directory}/page-{page}-reference.png")
        b = load(f"{directory}/page-{page}-{candidate}.png")
        print(json.dumps({"page": page, **metrics(a, b, threshold)}))


if __name__ == "__main__":
    main(sys.argv[1:])
