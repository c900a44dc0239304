#ifndef CPOPPLERCPP_H
#define CPOPPLERCPP_H

/*
 * What poppler-glib 22.12 does not expose, from poppler's public C++ API (poppler-cpp)
 * over the same engine: whether a file is encrypted, each page's /Rotate, and a page's
 * text as pdftotext writes it. It also routes Poppler's messages, which go to stderr by
 * default, to a callback.
 *
 * A document is confined like a glib one (one thread at a time); opening and closing are
 * serialised inside, because poppler-cpp's library setup is not thread-safe.
 */

#include "CPopplerCore.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cpoppler_document cpoppler_document;

/* Opens a document; NULL when poppler-cpp cannot (damaged, or the password is wrong).
   `password` may be NULL; it is tried as the owner and as the user password. The bytes
   given to cpoppler_open_data are copied. */
cpoppler_document *cpoppler_open_file(const char *path, const char *password);
cpoppler_document *cpoppler_open_data(const char *data, int length, const char *password);
void cpoppler_close(cpoppler_document *doc);

int cpoppler_is_encrypted(cpoppler_document *doc);
int cpoppler_page_count(cpoppler_document *doc);

/* The page's /Rotate: 0, 90, 180 or 270 (0 when the page cannot be loaded). */
int cpoppler_page_rotation(cpoppler_document *doc, int index);

/* The page's media, crop, bleed, trim and art boxes in user space as Poppler reads them,
   x0, y0, x1, y1 each; 0 when the page cannot be loaded. */
int cpoppler_page_boxes(cpoppler_document *doc, int index, double boxes[20]);

/* The page's text in reading order exactly as pdftotext (without -layout) writes it, UTF-8,
   from malloc (free it); NULL when the page cannot be loaded. */
char *cpoppler_page_text(cpoppler_document *doc, int index);

/* Sends every message Poppler reports (syntax errors, warnings) to `log` instead of
   stderr, for the whole process. */
typedef void (*cpoppler_log_callback)(const char *message);
void cpoppler_set_log_callback(cpoppler_log_callback log);

#ifdef __cplusplus
}
#endif

#endif
