#ifndef CGHOSTSCRIPT_H
#define CGHOSTSCRIPT_H

#include <stddef.h>

/// What Ghostscript wrote to one of its outputs, grown as it writes, up to `limit` bytes:
/// past that the rest is dropped and `overflowed` set. Start it zeroed with a limit; free
/// its bytes with cgs_output_free.
typedef struct cgs_output {
    char *bytes;
    size_t length;
    size_t capacity;
    size_t limit;
    int overflowed;
} cgs_output;

/// Where a drawing run puts its page: the area `x`, `y`, `width`, `height` of the page image
/// (device pixels, top-left origin) goes into `pixels`, rows of `width` pixels of
/// `bytes_per_pixel` (3 RGB, 4 RGB with an opaque alpha byte) without padding.
/// Pixels of the area outside the page image are left as they were. After the run, `pages`
/// is the number of pages drawn.
typedef struct cgs_target {
    unsigned char *pixels;
    int x, y, width, height, bytes_per_pixel;
    int pages;
} cgs_target;

/// The `-dDisplayFormat` value of the display device for `bytes_per_pixel` (3 or 4).
unsigned int cgs_display_format(int bytes_per_pixel);

/// Runs Ghostscript once, in an instance of its own that it deletes before it returns, with
/// the command-line arguments `argv` (the first is the program name), then, when `program`
/// is not NULL, that PostScript. Runs are serialised in the process. What the interpreter
/// writes to standard output goes into `out` and to standard error into `err`, never to the
/// process's own. With a `target`, the display device (`-sDEVICE=display` in `argv`) draws
/// into it. A run cannot be stopped once started: Debian's libgs never calls gsapi's poll
/// callback. Returns 0 when the run succeeded, else gsapi's negative code.
int cgs_run(int argc, const char *const *argv, const char *program, cgs_target *target,
            cgs_output *out, cgs_output *err);

/// Frees what `output` holds and zeroes its length.
void cgs_output_free(cgs_output *output);

/// Ghostscript's version as a number, such as 10000 for 10.00.0.
long cgs_revision(void);

/// An anonymous file in memory named `name` (memfd), or -1: the path `/proc/self/fd/N`
/// names it to Ghostscript, which opens documents and writes device output only by name.
int cgs_memory_file(const char *name);

#endif
