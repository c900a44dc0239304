#ifndef CPOPPLERCORE_H
#define CPOPPLERCORE_H

/*
 * What poppler-glib 22.12 does not expose or cannot do, from Poppler's core API (the
 * headers of libpoppler-private-dev, the same engine poppler-glib wraps): whether a file
 * is encrypted, each page's /Rotate and boxes, a page's text as pdftotext writes it, every
 * field of every annotation, creating free text, ink, polygons and polylines, /NM names,
 * forms, metadata, and saving as an incremental update or a complete rewrite. It also
 * routes Poppler's messages, which go to stderr by default, to a callback.
 *
 * A core document is the twin of a glib document opened from the same source; it is
 * confined like it (one thread at a time). Geometry is in PDF user space.
 */

#include "CAnnotationRecord.h"
#include "CDocumentStream.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cpoppler_core cpoppler_core;

/* Opens a document; NULL when Poppler cannot (damaged, or the password is wrong).
   `password` may be NULL; it is tried as the owner and as the user password. The bytes
   given to cpoppler_core_open_data are copied. */
cpoppler_core *cpoppler_core_open_file(const char *path, const char *password);
cpoppler_core *cpoppler_core_open_data(const char *data, long length, const char *password);
/* Opens a document read through `source`, which the document releases when it closes (or at
   once, when opening fails). */
cpoppler_core *cpoppler_core_open_stream(document_stream source, const char *password);
void cpoppler_core_close(cpoppler_core *doc);

/* Sends every message Poppler reports (syntax errors, warnings) to `log`, as one line
   ("Syntax Error (offset): text"), instead of stderr, for the whole process. */
typedef void (*cpoppler_log_callback)(const char *message);
void cpoppler_set_log_callback(cpoppler_log_callback log);

/* 1 when Poppler had to rebuild the cross-reference table to open the file, so that an
   incremental update would be appended to a broken file. */
int cpoppler_core_was_reconstructed(cpoppler_core *doc);

/* Writes the document with its changes to `path`, a new file: the original bytes and an
   incremental update, or (`rewrite` 1) a complete rewrite. Encryption is kept. Returns 0,
   else Poppler's error code (1 when the file cannot be opened for writing,
   10 when writing fails). */
int cpoppler_core_save(cpoppler_core *doc, const char *path, int rewrite);

/* Writes the document as cpoppler_core_save does, into `sink`. Returns 0, else Poppler's
   error code (10 when the sink failed). */
int cpoppler_core_write(cpoppler_core *doc, document_sink sink, int rewrite);

/* Whether the document is encrypted, its page count, a page's /Rotate (0, 90, 180, 270),
   its media, crop, bleed, trim and art boxes in user space (x0, y0, x1, y1 each; 0 when the
   page cannot be loaded) and a page's text as pdftotext (without -layout) writes it,
   without the form feed that ends the page (UTF-8 from malloc, to free; NULL when the page
   cannot be loaded or memory runs out). */
int cpoppler_core_is_encrypted(cpoppler_core *doc);
int cpoppler_core_page_count(cpoppler_core *doc);
int cpoppler_core_page_rotation(cpoppler_core *doc, int index);
int cpoppler_core_page_boxes(cpoppler_core *doc, int index, double boxes[20]);
char *cpoppler_core_page_text(cpoppler_core *doc, int index);

/* The document with its changes as it would be saved incrementally, in `*bytes` from
   malloc (free it). Returns 0, else Poppler's error code. */
int cpoppler_core_serialize(cpoppler_core *doc, char **bytes, long *length);


typedef enum {
	CPOPPLER_OK = 0,
	CPOPPLER_NO_PAGE = 1, /* the page cannot be loaded */
	CPOPPLER_NO_ANNOTATION = 2, /* the page has no such annotation */
	CPOPPLER_UNSUPPORTED = 3, /* a kind Poppler cannot create, or a form field to delete */
	CPOPPLER_ARGUMENT = 4, /* a field this kind cannot have */
	CPOPPLER_OUT_OF_MEMORY = 5,
} cpoppler_status;

/* Annotation edits. The annotations are read from the objects (EngineSupport); each edit
   names the one it changes by its object number `num`. Geometry is in user space. */

/* Creates an annotation of `values->subtype` on the page, in the record's rectangle (for text
   markup, ink, lines, polygons and polylines the bounds of their geometry, widened by the
   border width); its object number in `*num`. cpoppler_core_update_annot gives it the
   record's fields. */
cpoppler_status cpoppler_core_create_annot(cpoppler_core *doc, int page, const annotation_record *values, int *num);
/* Sets the record's shape, text style and icon of annotation `num`, dropping its appearance
   stream so that viewers draw it anew; a stamp keeps its appearance (an image, another
   program's drawing) unless its icon changes. */
cpoppler_status cpoppler_core_update_annot(cpoppler_core *doc, int page, int num, const annotation_record *values);
/* Sets the entries `keys` (a NULL-terminated list) of annotation `num`, in order, each to
   the item at its place in the array `values` writes (read in one parse), removing it for
   null, in the annotation object the page holds as well as in the document: Poppler's
   annotation keeps a copy of its dictionary, which its setters write back whole. (Its
   members for what it draws are not set: this core document is never drawn, the glib one
   reloaded from the saved bytes is, and the next cpoppler_core_update_annot drops the
   appearance.) CPOPPLER_ARGUMENT, with nothing written, when `values` is no array of as
   many items as there are keys. */
cpoppler_status cpoppler_core_set_annot_entries(cpoppler_core *doc, int page, int num, const char *const *keys, const char *values);
/* Deletes annotation `num`, with its popup. */
cpoppler_status cpoppler_core_delete_annot(cpoppler_core *doc, int page, int num);
/* Gives stamp annotation `num` an appearance that draws an image over its whole
   rectangle (AnnotStamp::setCustomImage): `width` x `height` pixels of RGB (3 bytes a pixel,
   rows packed, top row first) and, unless NULL, their alpha (1 byte a pixel), stored as the
   image's soft mask. */
cpoppler_status cpoppler_core_set_stamp_image(cpoppler_core *doc, int page, int num, int width, int height,
	const unsigned char *rgb, const unsigned char *alpha);

/*
 * The value of a text or choice field as Poppler's form API is given it, from EngineSupport's
 * FormFieldValue: object `field`, its /FT (`type`: Tx or Ch) and /Ff as it inherits them,
 * its widgets' objects with the pages that show them (-1 when none is found), and the
 * `value_count` values (UTF-8). For a choice field, `option_indices` holds the index in /Opt
 * of each chosen option, in ascending order, -1 for a value that is none (an editable combo
 * box's own).
 */
typedef struct {
	int field;
	const char *type;
	int flags;
	const int *widgets;
	const int *pages;
	int widget_count;
	const char **values;
	const int *option_indices;
	int value_count;
} form_field_value;

/* Writes the value of the text or choice field `value` names through Poppler's form API,
   which gives its widgets new appearances: a text field's text, a choice field's chosen
   options (a value that is none only for an editable combo box). The value Poppler writes
   into a kid widget it holds as a field of its own is removed from it. Returns CPOPPLER_OK, CPOPPLER_ARGUMENT for a value the field does not
   take, CPOPPLER_UNSUPPORTED for a field Poppler's form does not hold or that takes no value. */
int cpoppler_core_set_form_field(cpoppler_core *doc, const form_field_value *value);
/* Calls `each` for every optional-content group (layer) in /OCProperties /OCGs order, with
   its name (UTF-8, "" when it has none) and whether the default configuration shows it.
   Returns 1, or 0 when memory runs out. */
typedef void (*cpoppler_layer_callback)(void *user, const char *name, int shown);
int cpoppler_core_layers(cpoppler_core *doc, cpoppler_layer_callback each, void *user);
/* Calls `each` for the default optional-content configuration (/OCProperties /D,
   is_default 1), then for each dictionary of /Configs, with its /Name and /Creator (UTF-8,
   NULL when missing). None without /OCProperties. Returns 1, or 0 when memory runs out. */
typedef void (*cpoppler_layer_configuration_callback)(void *user, const char *name, const char *creator, int is_default);
int cpoppler_core_layer_configurations(cpoppler_core *doc, cpoppler_layer_configuration_callback each, void *user);

/* PDF objects, the few primitives that edits written once in Swift (EngineSupport's
   PDFObjectEditing) build on, mirroring CMuPDF's. Syntax is one PDF object as a file writes
   it; references in it name objects of this document. */

/* The object number and generation of the catalog; returns 0 when there is none. */
int cpoppler_core_catalog_reference(cpoppler_core *doc, int *num, int *gen);
/* The object number and generation of page `index`'s dictionary; returns 0 when there is none. */
int cpoppler_core_page_reference(cpoppler_core *doc, int index, int *num, int *gen);
/* Hands object `num` (null when there is none) to `each` as tokens (CAnnotationRecord.h);
   returns 0 when memory runs out. */
int cpoppler_core_object_tokens(cpoppler_core *doc, int num, pdf_token_callback each, void *user);
/* Hands the trailer of the file's last cross-reference section (a stream's dictionary for a
   cross-reference stream) to `each` as tokens; returns 0 when memory runs out. */
int cpoppler_core_trailer_tokens(cpoppler_core *doc, pdf_token_callback each, void *user);
/* The length in bytes of the file the document was opened from. */
long long cpoppler_core_file_length(cpoppler_core *doc);
/* The contents of object `num` when it is a stream of at most `limit` bytes, `decoded` (its
   filters applied) or as stored (decrypted, filters not applied), in `*bytes` from malloc
   (free it); `*bytes` is NULL when it is no stream, or a longer one (of which no more than
   `limit` + 1 bytes are read). Returns 0 when memory runs out. */
int cpoppler_core_stream_contents(cpoppler_core *doc, int num, long limit, int decoded, char **bytes, long *length);
/* Adds the object `syntax` writes as a new indirect object; its number is set in `num`.
   CPOPPLER_ARGUMENT when `syntax` writes no object. */
cpoppler_status cpoppler_core_add_object(cpoppler_core *doc, const char *syntax, int *num);
/* Adds a stream of the `length` bytes at `bytes` (its contents as stored, filters and all)
   with the dictionary `syntax` writes (its /Length is set to match) as a new indirect object;
   its number is set in `num`. CPOPPLER_ARGUMENT when `syntax` writes no dictionary. */
cpoppler_status cpoppler_core_add_stream(cpoppler_core *doc, const char *syntax, const char *bytes, long length, int *num);
/* Puts the object `syntax` writes in place of object `num`. */
cpoppler_status cpoppler_core_replace_object(cpoppler_core *doc, int num, const char *syntax);
/* Sets entry `key` of dictionary object `num` to the object `syntax` writes, or removes the
   entry when `syntax` is NULL. */
cpoppler_status cpoppler_core_set_entry(cpoppler_core *doc, int num, const char *key, const char *syntax);
/* Sets entry `key` of the trailer (which a save writes) as cpoppler_core_set_entry does. */
cpoppler_status cpoppler_core_set_trailer_entry(cpoppler_core *doc, const char *key, const char *syntax);
/* Appends link annotation object `num` to page `index` (its /Annots and the annotations
   Poppler keeps loaded); CPOPPLER_UNSUPPORTED for an object that is not a link annotation. */
cpoppler_status cpoppler_core_append_annotation(cpoppler_core *doc, int index, int num);
/* Removes annotation object `num` from page `index`; CPOPPLER_NO_ANNOTATION when the page
   has none. */
cpoppler_status cpoppler_core_remove_annotation(cpoppler_core *doc, int index, int num);

#ifdef __cplusplus
}
#endif

#endif
