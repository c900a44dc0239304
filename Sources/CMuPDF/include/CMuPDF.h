#ifndef CMUPDF_H
#define CMUPDF_H

/*
 * A small C layer over MuPDF for Swift. MuPDF reports errors with setjmp/longjmp
 * (fz_try/fz_catch), which Swift cannot call; every function here that can fail catches
 * the engine's exception and returns it in a cmupdf_error instead. fitz.h stays out of
 * this header, so Swift sees opaque handles and plain structs only.
 *
 * Handles are confined: a document and its pages are used by one thread at a time.
 */

#include <stddef.h>

#include "CAnnotationRecord.h"
#include "CDocumentStream.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What went wrong, copied out of MuPDF's exception. */
typedef struct {
	int code;            /* a CMUPDF_ERROR_* value */
	char message[512];   /* MuPDF's own message */
} cmupdf_error;

enum {
	CMUPDF_ERROR_NONE = 0,
	CMUPDF_ERROR_GENERIC = 1,  /* the document or call failed */
	CMUPDF_ERROR_MEMORY = 2,   /* MuPDF ran out of memory */
	CMUPDF_ERROR_IO = 3,       /* a file could not be opened or read */
	CMUPDF_ERROR_ARGUMENT = 4, /* a value the call cannot use */
	CMUPDF_ERROR_ABORTED = 5,  /* stopped through its cookie */
	CMUPDF_ERROR_LIMIT = 6,    /* past a limit the caller set */
};

/* Receives MuPDF's warnings (is_error 0) and error reports (is_error 1). */
typedef void (*cmupdf_log_callback)(void *user, int is_error, const char *message);

typedef struct cmupdf_document cmupdf_document;
typedef struct cmupdf_page cmupdf_page;

/* The MuPDF version linked in, such as "1.21.1". */
const char *cmupdf_version(void);

/* Opens a document from a file or from a copy of `length` bytes; NULL on failure. `magic`
   says its format as a file extension MuPDF knows ("xps", "epub", "fb2", "cbz", "png",
   "jpg", "tif"); NULL opens a PDF. Each document has a MuPDF context of its own, whose
   cache of fonts, images and glyphs keeps at most `cache_bytes` bytes; `log` (may be NULL)
   receives its messages until it closes. Calls that only a PDF answers (forms, metadata
   writing, saving, page editing) fail with CMUPDF_ERROR_ARGUMENT on other formats; reading
   calls answer for every format. */
cmupdf_document *cmupdf_open_file(const char *path, const char *magic, size_t cache_bytes, cmupdf_log_callback log, void *log_user, cmupdf_error *error);
cmupdf_document *cmupdf_open_memory(const unsigned char *data, size_t length, const char *magic, size_t cache_bytes, cmupdf_log_callback log, void *log_user, cmupdf_error *error);
/* Opens a document read through `source`, by position, as the engine needs its bytes; the
   document releases the source when it closes (or at once, when opening fails). */
cmupdf_document *cmupdf_open_stream(document_stream source, const char *magic, size_t cache_bytes, cmupdf_log_callback log, void *log_user, cmupdf_error *error);
/* Lays a reflowable document (EPUB, FictionBook) out again on pages of `width` × `height` points with text of
   `font_size` points; the page count changes. Returns 1, or 0 with `error` set. */
int cmupdf_layout(cmupdf_document *doc, float width, float height, float font_size, cmupdf_error *error);
void cmupdf_close(cmupdf_document *doc);

/* 1 when MuPDF had to repair the file (rebuild its cross-reference table) to open it. */
int cmupdf_was_repaired(cmupdf_document *doc);

/* 1 when the document needs a password before anything can be read. */
int cmupdf_needs_password(cmupdf_document *doc);
/* 0 when `password` opens nothing; otherwise bit 0: no password needed, bit 1: user
   password, bit 2: owner password (as fz_authenticate_password). */
int cmupdf_authenticate(cmupdf_document *doc, const char *password);

/* Page count, or -1 with `error` set. A count the page tree claims past the file's number
   of objects is not believed: the pages the tree holds are counted instead. */
int cmupdf_page_count(cmupdf_document *doc, cmupdf_error *error);

/* Copies the metadata value for `key` (fz_lookup_metadata keys such as "info:Title") into
   `buffer`; returns the length the full value needs including its terminator, -1 when the
   key is absent. */
int cmupdf_metadata(cmupdf_document *doc, const char *key, char *buffer, int size);
/* Draws the `count` widgets `widgets` (object numbers) anew from their field's value, after
   EngineSupport wrote it, each on the page `pages` gives (0-based; a widget on a page out of
   range is skipped) (cmupdf_widget_appearances.c). Returns 1, or 0 with `error` set. */
int cmupdf_draw_widgets(cmupdf_document *doc, const int *widgets, const int *pages, int count, cmupdf_error *error);
/* Brings every widget's appearance stream up to date with its field's value
   (cmupdf_widget_appearances.c). Returns 1, or 0 with `error` set. */
int cmupdf_update_widget_appearances(cmupdf_document *doc, cmupdf_error *error);

/* The PDF version times ten (17 for 1.7). */
int cmupdf_pdf_version(cmupdf_document *doc);

/* 1 when the file is encrypted, with its /P permission bits in `bits`; 0 otherwise. */
int cmupdf_encryption(cmupdf_document *doc, int *bits);

/* Calls `range` for each entry of the /PageLabels number tree, in tree order: the first
   page index it covers, its style (one of 'D', 'R', 'r', 'A', 'a', or 0 for none), its
   prefix (UTF-8, may be empty) and its first number. Returns 0 and sets `error` when the
   tree cannot be read. Loops and depth beyond 32 levels end the walk. */
typedef void (*cmupdf_label_range_callback)(void *user, int first_page, int style, const char *prefix, int first_number);
int cmupdf_page_labels(cmupdf_document *doc, cmupdf_label_range_callback range, void *user, cmupdf_error *error);

/* Loads page `index`; NULL with `error` set on failure. Drop it before its document. */
cmupdf_page *cmupdf_load_page(cmupdf_document *doc, int index, cmupdf_error *error);
void cmupdf_drop_page(cmupdf_document *doc, cmupdf_page *page);

/* The page as displayed, in points: its bounds (crop box, rotation applied) and /Rotate. */
typedef struct {
	float x0, y0, x1, y1;
	int rotation;
} cmupdf_geometry;
int cmupdf_page_geometry(cmupdf_document *doc, cmupdf_page *page, cmupdf_geometry *geometry, cmupdf_error *error);

/* A flag that stops a drawing in progress, set from any thread. */
typedef struct cmupdf_cookie cmupdf_cookie;
cmupdf_cookie *cmupdf_new_cookie(void);
void cmupdf_abort_cookie(cmupdf_cookie *cookie);
void cmupdf_drop_cookie(cmupdf_cookie *cookie);

/* Draws the page at `scale` pixels per point into `samples`, which holds `h` rows of
   `w * n` bytes: the device-space pixels x..x+w, y..y+h, where (0, 0) is the top-left
   corner of the displayed page. n is 1 (gray), 3 (RGB) or 4 (RGB with premultiplied alpha).
   The pixels are first set to `background` (n bytes, premultiplied for n = 4). With
   `annotations` 0, only the page's content is drawn, without its annotations and widgets.
   When `cookie` (which may be NULL) is aborted, drawing stops and CMUPDF_ERROR_ABORTED is set. */
int cmupdf_render(cmupdf_document *doc, cmupdf_page *page, float scale, int x, int y, int w, int h, int n,
	const unsigned char *background, int annotations, unsigned char *samples, cmupdf_cookie *cookie, cmupdf_error *error);

/* One character of a page's structured text, in reading order. Its quad is in page space
   (origin at the top-left of the displayed page) and spans the glyph's ascender to its
   descender: MuPDF's own quads span the font's whole height, so they are shrunk to the
   height of the font's 'h' and 'p' glyphs where the font has them. */
typedef struct {
	int codepoint;
	float ulx, uly, urx, ury, llx, lly, lrx, lry;
	float size;   /* font size in points */
	int line;     /* index of its line on the page */
	int block;    /* index of its block on the page */
	int font;     /* index of its font in the text's `fonts` */
} cmupdf_char;

/* A font the page's text is set in: its name as MuPDF reports it (a subset's tag
   included), cut to 63 bytes. */
typedef struct {
	char name[64];
} cmupdf_text_font;

typedef struct {
	cmupdf_char *chars;
	int count;
	cmupdf_text_font *fonts;
	int font_count;
} cmupdf_text;

/* Fills `text` with the page's characters; free it with cmupdf_text_free. */
int cmupdf_page_text(cmupdf_document *doc, cmupdf_page *page, cmupdf_text *text, cmupdf_error *error);
void cmupdf_text_free(cmupdf_text *text);

/* The page's plain text as `mutool draw -F txt` writes it, UTF-8, from malloc (free it). */
char *cmupdf_page_plain_text(cmupdf_document *doc, cmupdf_page *page, cmupdf_error *error);

/* Where a link or outline item leads: a page (index >= 0, with the destination's kind
   and point in that page's page space; x or y is NaN where the destination leaves it
   open), or an external URI (page -1), or nowhere resolvable (page -1, uri NULL). For a
   PDF's explicit destination, `kind` is its kind (1 XYZ, 2 Fit, 3 FitH, 4 FitV, 5 FitR,
   6 FitB, 7 FitBH, 8 FitBV) and `values` the numbers after it as the file writes them, in
   user space (NaN where null or missing); `kind` is 0 otherwise (other formats' links). */
typedef struct {
	int page;
	int fit;      /* 1 for destinations that show the whole page or its width (no point) */
	float x, y;
	const char *uri;
	int kind;
	float values[4];
} cmupdf_destination;

/* Calls `item` for each outline entry in depth-first order with its depth (0 for the top
   level); entries deeper than `max_depth` are skipped. */
typedef void (*cmupdf_outline_callback)(void *user, int depth, const char *title, int is_open, cmupdf_destination destination);
int cmupdf_outline(cmupdf_document *doc, int max_depth, cmupdf_outline_callback item, void *user, cmupdf_error *error);

/* The named destination `name` (from the /Dests dictionary or the /Names /Dests tree) in
   `found`; its page is -1 when the document has no such name or it leads nowhere. */
int cmupdf_named_destination(cmupdf_document *doc, const char *name, cmupdf_destination *found, cmupdf_error *error);

/* Calls `font` once for each font dictionary the pages use (their resources, the forms,
   patterns and Type 3 glyphs they draw, their annotations' appearances), in page order:
   its /BaseFont, its /Subtype and, for a Type0 font, its descendant's /Subtype (each NULL
   when missing or not a name), and whether its descriptor holds a font file. PDF only. */
typedef void (*cmupdf_font_callback)(void *user, const char *name, const char *subtype, const char *descendant_subtype, int has_file);
int cmupdf_fonts(cmupdf_document *doc, cmupdf_font_callback font, void *user, cmupdf_error *error);

/* A file the PDF embeds, as its file specification and /Params say: strings NULL when
   missing, size and dates -1 when unknown (dates in seconds since 1970), the checksum's
   raw bytes (MD5: 16). `page` is its file-attachment annotation's page, -1 for the
   document's own (the /EmbeddedFiles name tree). */
typedef struct {
	const char *name;
	const char *description;
	long long size;
	long long created, modified;
	const unsigned char *checksum;
	int checksum_length;
	int page;
} cmupdf_attachment;

/* Calls `each` for every embedded file: the name tree's in the order of their keys, then
   file-attachment annotations' in page order; index i of the walk is attachment i below.
   PDF only. */
typedef void (*cmupdf_attachment_callback)(void *user, const cmupdf_attachment *attachment);
int cmupdf_attachments(cmupdf_document *doc, cmupdf_attachment_callback each, void *user, cmupdf_error *error);
/* The bytes of attachment `index`, in `*bytes` (malloc'd, the caller frees). PDF only. */
int cmupdf_attachment_contents(cmupdf_document *doc, int index, unsigned char **bytes, size_t *length, cmupdf_error *error);
/* Embeds `length` bytes as a file named `name` (a new key of the name tree, which is then
   written as one flat array) with an MD5 checksum, `description` (may be NULL) and
   modification time `modified` (seconds since 1970, -1 for none). PDF only. */
int cmupdf_add_attachment(cmupdf_document *doc, const char *name, const char *description, const unsigned char *data, size_t length,
	long long modified, cmupdf_error *error);
/* Removes attachment `index`, one of the name tree's, from the tree. PDF only. */
int cmupdf_remove_attachment(cmupdf_document *doc, int index, cmupdf_error *error);

/* Calls `each` for every optional-content group (layer) in /OCProperties /OCGs order, with
   its name (UTF-8, "" when it has none) and whether it is shown now (at first, as the default
   configuration says). None for a document other than a PDF. */
typedef void (*cmupdf_layer_callback)(void *user, const char *name, int shown);
int cmupdf_layers(cmupdf_document *doc, cmupdf_layer_callback each, void *user, cmupdf_error *error);
/* Calls `each` for the default optional-content configuration (/OCProperties /D, is_default
   1), then for each of /Configs, with its /Name and /Creator (UTF-8, NULL when missing).
   None without /OCProperties. */
typedef void (*cmupdf_layer_configuration_callback)(void *user, const char *name, const char *creator, int is_default);
int cmupdf_layer_configurations(cmupdf_document *doc, cmupdf_layer_configuration_callback each, void *user, cmupdf_error *error);
/* Shows (1) or hides (0) each of the `count` layers, for the pages drawn from now on; `count`
   must be the number of layers. PDF only. */
int cmupdf_set_layer_states(cmupdf_document *doc, const int *states, int count, cmupdf_error *error);

/* Calls `link` for each link on the page with its area in page space. */
typedef void (*cmupdf_link_callback)(void *user, float x0, float y0, float x1, float y1, cmupdf_destination destination);
int cmupdf_page_links(cmupdf_document *doc, cmupdf_page *page, cmupdf_link_callback link, void *user, cmupdf_error *error);

/* The page's box in user space (the crop box, cut to the media box) and its /Rotate. */
int cmupdf_page_space(cmupdf_document *doc, cmupdf_page *page, float box[4], int *rotation, cmupdf_error *error);

/* The page's media, crop, bleed, trim and art boxes in user space as its dictionary gives
   them, four numbers each (x0, y0, x1, y1, lower-left first; the media and crop boxes
   inherited from the page tree): bit i of *given is set when box i is given. The media box
   always is (Letter when the page has none; the page's bounds, as the crop box too, for
   another format). The PDF's defaults and clipping are applied above, once (EngineSupport's
   PageBoxes). */
int cmupdf_page_boxes(cmupdf_document *doc, cmupdf_page *page, double boxes[20], int *given, cmupdf_error *error);

/* The first part of the trailer's /ID as bytes: copies up to `size` of them into `buffer`
   and returns how many the ID has, 0 when the file has none. */
int cmupdf_file_identifier(cmupdf_document *doc, unsigned char *buffer, int size);


/* Annotation edits. The annotations are read from the objects (EngineSupport); each edit
   names the one it changes by its object number `num`. Geometry is in page space. */

/* Creates an annotation of `values->subtype` with MuPDF's defaults for the kind, its object
   number in `*num`; cmupdf_update_annot gives it the record's fields. Returns 0 with
   `error` set on failure. */
int cmupdf_create_annot(cmupdf_document *doc, cmupdf_page *page, const annotation_record *values, int *num, cmupdf_error *error);
/* Sets the record's shape, text style and icon of annotation `num` and draws its appearance
   from its dictionary (a stamp's is kept unless its icon changes). Returns 0 with `error`
   set on failure (CMUPDF_ERROR_ARGUMENT for a field this kind cannot have). */
int cmupdf_update_annot(cmupdf_document *doc, cmupdf_page *page, int num, const annotation_record *values, cmupdf_error *error);
/* Deletes annotation `num`, with its popup. */
int cmupdf_delete_annot(cmupdf_document *doc, cmupdf_page *page, int num, cmupdf_error *error);
/* Gives stamp annotation `num` an appearance that draws an image over its whole
   rectangle (pdf_set_annot_stamp_image): `width` x `height` pixels of RGB (3 bytes a pixel,
   rows packed, top row first) and, unless NULL, their alpha (1 byte a pixel), stored as the
   image's soft mask. Later edits of the stamp keep that appearance. */
int cmupdf_set_stamp_image(cmupdf_document *doc, cmupdf_page *page, int num, int width, int height,
	const unsigned char *rgb, const unsigned char *alpha, cmupdf_error *error);

/* Applies the page's redaction annotations (pdf_redact_page): removes the text whose glyphs
   touch their areas and blanks the image pixels under them, then removes the annotations,
   drawing black boxes over the areas when `black_boxes` is set. The document can then no
   longer be saved incrementally. Returns 1 when the page had any, 0 when not, or -1 with
   `error` set. */
int cmupdf_apply_redactions(cmupdf_document *doc, cmupdf_page *page, int black_boxes, cmupdf_error *error);

/* Page editing (cmupdf_pages.c); each returns 1, or 0 with `error` set. Indices count from
   0 and are checked by the caller. */
/* Puts the page object `num`, which no page tree node holds, before page `at` (the page
   count: at the end), with its /Parent and the nodes' /Count. */
int cmupdf_insert_page_object(cmupdf_document *doc, int at, int num, cmupdf_error *error);
/* Deletes the `count` pages at `indices` (distinct, in ascending order) from the page tree;
   what pointed to them is the caller's to drop. */
int cmupdf_delete_pages(cmupdf_document *doc, const int *indices, int count, cmupdf_error *error);
/* Moves page `from` so that it becomes page `to`; destinations follow it. */
int cmupdf_move_page(cmupdf_document *doc, int from, int to, cmupdf_error *error);
/* Sets the page's /Rotate to `degrees` (0, 90, 180 or 270). */
int cmupdf_rotate_page(cmupdf_document *doc, int index, int degrees, cmupdf_error *error);

/* 1 when the document can be saved as an incremental update. */
int cmupdf_can_save_incrementally(cmupdf_document *doc);
/* Writes the document to `path`, a new file: the original bytes and an incremental update,
   or (incremental 0) a whole new file without unused objects. Encryption is kept. */
int cmupdf_save(cmupdf_document *doc, const char *path, int incremental, cmupdf_error *error);
/* Writes the document as cmupdf_save does, into `sink` instead of a file (an incremental
   update is made in memory first: MuPDF reads back what it writes). Returns 1, or 0 with
   `error` set. */
int cmupdf_write(cmupdf_document *doc, document_sink sink, int incremental, cmupdf_error *error);

/* A new, empty PDF (no page yet), to which cmupdf_append_image_pages adds pages and
   cmupdf_save writes whole; NULL on failure. */
cmupdf_document *cmupdf_create_pdf(cmupdf_log_callback log, void *log_user, cmupdf_error *error);
/* How pictures become pages: a page the picture's size at its resolution (96 dpi when it
   states none) when `page_width` or `page_height` is 0, else that paper with the picture
   fitted, centred, within `margin` points of each edge. A picture of more than
   `maximum_pixels` pixels is refused (CMUPDF_ERROR_LIMIT) before it is decoded, but for a
   TIFF's later pages, which MuPDF decodes to learn their size. */
typedef struct {
	float page_width, page_height, margin;
	long long maximum_pixels;
} cmupdf_image_layout;
/* Adds a page for the picture in `data` (JPEG, PNG, TIFF with each of its pages, GIF, BMP,
   PNM, JPEG 2000, JBIG2) as `layout` says: JPEG data is stored as it is, other formats
   losslessly. Returns the number of pages added, or -1 with `error` set. */
int cmupdf_append_image_pages(cmupdf_document *doc, const unsigned char *data, size_t length, const cmupdf_image_layout *layout, cmupdf_error *error);
/* Writes the document to `path`, a new whole file, encrypted with `method` (0 none, 1 AES-128,
   2 AES-256), the `/P` value `permissions` and the two passwords (UTF-8, at most 127 bytes
   each), or (method 0) unencrypted. Returns 1, or 0 with `error` set. */
int cmupdf_save_protected(cmupdf_document *doc, const char *path, int method, int permissions,
	const char *user_password, const char *owner_password, cmupdf_error *error);

/* PDF objects, the few primitives that edits written once in Swift (EngineSupport's
   PDFObjectEditing) build on. Syntax is one PDF object as a file writes it; references in it
   name objects of this document. Each returns 1, or 0 with `error` set. */

/* The object number and generation of the catalog (the trailer's /Root). */
int cmupdf_catalog_reference(cmupdf_document *doc, int *num, int *gen, cmupdf_error *error);
/* The object number and generation of page `index`'s dictionary. */
int cmupdf_page_reference(cmupdf_document *doc, int index, int *num, int *gen, cmupdf_error *error);
/* Hands object `num` to `each` as tokens (CAnnotationRecord.h). */
int cmupdf_object_tokens(cmupdf_document *doc, int num, pdf_token_callback each, void *user, cmupdf_error *error);
/* Hands the trailer of the file's last cross-reference section (a stream's dictionary for a
   cross-reference stream) to `each` as tokens. */
int cmupdf_trailer_tokens(cmupdf_document *doc, pdf_token_callback each, void *user, cmupdf_error *error);
/* The length in bytes of the file the document was opened from; 0 for another format. */
long long cmupdf_file_length(cmupdf_document *doc);
/* The contents of object `num` when it is a stream of at most `limit` bytes, `decoded` (its
   filters applied) or as stored (decrypted, filters not applied), in `*bytes` from malloc
   (free it); `*bytes` is NULL when it is no stream, or a longer one (of which no more than
   `limit` + 1 bytes are read). */
int cmupdf_stream_contents(cmupdf_document *doc, int num, size_t limit, int decoded, unsigned char **bytes, size_t *length, cmupdf_error *error);
/* Adds the object `syntax` writes as a new indirect object; its number is set in `num`. */
int cmupdf_add_object(cmupdf_document *doc, const char *syntax, int *num, cmupdf_error *error);
/* Adds a stream of the `length` bytes at `bytes` (its contents as stored, filters and all)
   with the dictionary `syntax` writes (its /Length is set to match) as a new indirect object;
   its number is set in `num`. */
int cmupdf_add_stream(cmupdf_document *doc, const char *syntax, const unsigned char *bytes, size_t length, int *num, cmupdf_error *error);
/* Puts the object `syntax` writes in place of object `num`. */
int cmupdf_replace_object(cmupdf_document *doc, int num, const char *syntax, cmupdf_error *error);
/* Sets entry `key` of dictionary object `num` to the object `syntax` writes, or removes the
   entry when `syntax` is NULL. */
int cmupdf_set_entry(cmupdf_document *doc, int num, const char *key, const char *syntax, cmupdf_error *error);
/* Sets entry `key` of the trailer (which a save writes) as cmupdf_set_entry does. */
int cmupdf_set_trailer_entry(cmupdf_document *doc, const char *key, const char *syntax, cmupdf_error *error);
/* Appends a reference to annotation object `num` to page `index`'s /Annots, which it makes
   when the page has none. Pages loaded before the call do not show it. */
int cmupdf_append_annotation(cmupdf_document *doc, int index, int num, cmupdf_error *error);
/* Removes every reference to object `num` from page `index`'s /Annots. */
int cmupdf_remove_annotation(cmupdf_document *doc, int index, int num, cmupdf_error *error);

#ifdef __cplusplus
}
#endif

#endif
