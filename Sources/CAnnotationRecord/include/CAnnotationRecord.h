#ifndef CANNOTATIONRECORD_H
#define CANNOTATIONRECORD_H

#include <stddef.h>

/*
 * What both engines' C layers keep of their own of one annotation, so that one conversion
 * from the API's Annotation serves both backends: its kind, shape, text style and icon.
 * (Annotations are read from the PDF's objects, once for every engine, in EngineSupport,
 * which also chooses every other entry, from the text to the colours and the dates
 * (AnnotationEntries), and writes each through each engine's call that sets one entry of
 * an annotation's dictionary.)
 *
 * Geometry is in the space the backend says (MuPDF: page space; Poppler: user space): the
 * rectangle as x0, y0, x1, y1; quads as 8 numbers each (upper-left, upper-right,
 * lower-left, lower-right x, y), in /QuadPoints order; ink as the points of all paths one
 * after another, `ink_counts` points per path; `points` as x, y pairs (line end points or
 * vertices). The text colour has `text_color_n` components (0 none, 1 gray, 3 RGB, 4
 * CMYK). Strings are UTF-8 from malloc, NULL when absent.
 */

#ifdef __cplusplus
extern "C" {
#endif

/* How a kind's shape is given (RendererEngine's AnnotationKindTraits.Geometry): its
   rectangle, quads, ink paths, a line's two end points, or vertices. */
typedef enum {
	ANNOTATION_GEOMETRY_RECT,
	ANNOTATION_GEOMETRY_QUADS,
	ANNOTATION_GEOMETRY_INK,
	ANNOTATION_GEOMETRY_LINE,
	ANNOTATION_GEOMETRY_VERTICES
} annotation_geometry;

typedef struct {
	char subtype[32];
	/* What the kind is, from the engine contract's table of kinds (AnnotationKindTraits),
	   so that neither C layer keeps a list of its own: how its shape is given, and whether
	   it has an icon (/Name) and a text style (/DA, /Q). */
	annotation_geometry geometry;
	int has_icon;
	int has_text_style;
	double rect[4];
	double *quads;
	int quad_count;
	double *ink;
	int *ink_counts;
	int ink_path_count;
	double *points;
	int point_count;
	/* The border's width (0 for none), by which a rectangle bounding points is widened. */
	double border;
	char *icon;
	/* A free text annotation's default appearance (/DA) and quadding (/Q): the font's
	   resource name (Helv, TiRo, Cour, or another; NULL when not to be written),
	   its size in points, the text's colour and 0 (left), 1 (centred) or 2 (right). */
	char *font;
	double font_size;
	int text_color_n;
	double text_color[4];
	int quadding;
} annotation_record;

/* Frees every array and string of `count` records, then the records (all from malloc). */
void annotation_records_free(annotation_record *records, int count);

/*
 * A PDF object as both C layers hand it over, one token at a time, depth first, references
 * not followed: a dictionary is PDF_TOKEN_DICT_BEGIN, then each entry's key (a
 * PDF_TOKEN_KEY, its name in `bytes`) followed by the value's tokens, then
 * PDF_TOKEN_DICT_END; an array is PDF_TOKEN_ARRAY_BEGIN, its items, PDF_TOKEN_ARRAY_END; a
 * stream is given as its dictionary. Numbers (and booleans, as 0 or 1) are in `number`; a
 * reference's object number is in `number` and its generation in `generation`; names and
 * strings are in `bytes` and `length`, as the file holds them. A value nested deeper than
 * PDF_TOKEN_MAX_DEPTH is given as PDF_TOKEN_NULL.
 */
typedef enum {
	PDF_TOKEN_NULL,
	PDF_TOKEN_BOOL,
	PDF_TOKEN_INTEGER,
	PDF_TOKEN_REAL,
	PDF_TOKEN_NAME,
	PDF_TOKEN_STRING,
	PDF_TOKEN_REFERENCE,
	PDF_TOKEN_ARRAY_BEGIN,
	PDF_TOKEN_ARRAY_END,
	PDF_TOKEN_DICT_BEGIN,
	PDF_TOKEN_DICT_END,
	PDF_TOKEN_KEY
} pdf_token_kind;

#define PDF_TOKEN_MAX_DEPTH 8

typedef void (*pdf_token_callback)(void *user, pdf_token_kind kind, double number, int generation, const char *bytes, size_t length);

#ifdef __cplusplus
}
#endif

#endif
