#ifndef CPOPPLERFACTS_H
#define CPOPPLERFACTS_H

/*
 * Facts about a PDF that poppler-glib 22.12 does not expose, read with poppler's public
 * C++ API (poppler-cpp) from the same engine: whether the file is encrypted and each
 * page's /Rotate. It also routes Poppler's error messages, which go to stderr by default,
 * to a callback. Safe to call from any thread: calls are serialised inside.
 */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	int is_encrypted;
	int page_count;
	int *rotations;  /* page_count entries: 0, 90, 180 or 270 */
} cpoppler_facts;

/* Fills `facts` and returns 1; returns 0 when poppler-cpp cannot open the document. Free
   a filled `facts` with cpoppler_facts_free. `password` may be NULL. */
int cpoppler_facts_from_file(const char *path, const char *password, cpoppler_facts *facts);
int cpoppler_facts_from_data(const char *data, int length, const char *password, cpoppler_facts *facts);
void cpoppler_facts_free(cpoppler_facts *facts);

/* Sends every message Poppler reports (syntax errors, warnings) to `log` instead of stderr,
   for the whole process. */
typedef void (*cpoppler_log_callback)(const char *message);
void cpoppler_set_log_callback(cpoppler_log_callback log);

#ifdef __cplusplus
}
#endif

#endif
