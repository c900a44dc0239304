#include "cmupdf_internal.h"

#include <stdlib.h>
#include <string.h>

/* Page editing: blank pages, deletion, moves, rotation and pages copied from another PDF.
   Destinations name page objects, so a moved page keeps every link and outline item that
   points to it. What would point to a page of the other PDF that was not copied is left out
   and counted in a cmupdf_page_report; what pointed to a deleted page is dropped above the
   engines, in Swift (EngineSupport's PDFObjectEditing+Pages). */

/* A set of object numbers: the page objects a copy took. */
typedef struct {
	int *numbers;
	int count;
} page_set;

static int page_set_index(const page_set *set, int number)
{
	for (int i = 0; i < set->count; i++)
		if (set->numbers[i] == number)
			return i;
	return -1;
}

/* The page object an explicit destination (an array, or a dictionary with /D) names, NULL
   when it names none or a page by number (remote destinations). */
static pdf_obj *destination_page(fz_context *ctx, pdf_obj *dest)
{
	if (pdf_is_dict(ctx, dest))
		dest = pdf_dict_get(ctx, dest, PDF_NAME(D));
	pdf_obj *page = pdf_array_get(ctx, dest, 0);
	return pdf_is_indirect(ctx, page) ? page : NULL;
}

/* The explicit destination `dest` stands for: itself, or what its name resolves to. */
static pdf_obj *explicit_destination(fz_context *ctx, pdf_document *doc, pdf_obj *dest)
{
	if (pdf_is_name(ctx, dest) || pdf_is_string(ctx, dest))
		return pdf_lookup_dest(ctx, doc, dest);
	return dest;
}

/* The destination an outline item or link goes to: its /Dest, or its /A GoTo action's /D;
   NULL for anything else (a URI, a remote file, a named action). */
static pdf_obj *goto_destination(fz_context *ctx, pdf_obj *item)
{
	pdf_obj *dest = pdf_dict_get(ctx, item, PDF_NAME(Dest));
	if (dest)
		return dest;
	pdf_obj *action = pdf_dict_get(ctx, item, PDF_NAME(A));
	if (pdf_name_eq(ctx, pdf_dict_get(ctx, action, PDF_NAME(S)), PDF_NAME(GoTo)))
		return pdf_dict_get(ctx, action, PDF_NAME(D));
	return NULL;
}

int cmupdf_delete_pages(cmupdf_document *doc, const int *indices, int count, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_try(ctx) {
		/* From the last page to the first, so the indices still name the same pages. */
		for (int i = count - 1; i >= 0; i--)
			pdf_delete_page(ctx, doc->pdf, indices[i]);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_insert_blank_page(cmupdf_document *doc, int at, float width, float height, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_context *ctx = doc->ctx;
	pdf_obj *resources = NULL, *page = NULL;
	fz_buffer *contents = NULL;
	int ok = 1;
	fz_var(resources);
	fz_var(page);
	fz_var(contents);
	fz_try(ctx) {
		resources = pdf_new_dict(ctx, doc->pdf, 1);
		contents = fz_new_buffer(ctx, 1);
		page = pdf_add_page(ctx, doc->pdf, fz_make_rect(0, 0, width, height), 0, resources, contents);
		pdf_insert_page(ctx, doc->pdf, at, page);
	}
	fz_always(ctx) {
		pdf_drop_obj(ctx, page);
		pdf_drop_obj(ctx, resources);
		fz_drop_buffer(ctx, contents);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_move_page(cmupdf_document *doc, int from, int to, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_context *ctx = doc->ctx;
	pdf_obj *page = NULL;
	int ok = 1;
	fz_var(page);
	fz_try(ctx) {
		page = pdf_keep_obj(ctx, pdf_lookup_page_obj(ctx, doc->pdf, from));
		pdf_delete_page(ctx, doc->pdf, from);
		pdf_insert_page(ctx, doc->pdf, to, page);
	}
	fz_always(ctx)
		pdf_drop_obj(ctx, page);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_rotate_page(cmupdf_document *doc, int index, int degrees, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_try(ctx)
		pdf_dict_put_int(ctx, pdf_lookup_page_obj(ctx, doc->pdf, index), PDF_NAME(Rotate), degrees);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

/* Copying pages from another PDF. */

/* The copy of `dest` (explicit, from `src`) for the destination document: the same array
   with its page replaced by the copy of that page; NULL when the page was not copied. */
static pdf_obj *copied_destination(fz_context *ctx, pdf_graft_map *map, pdf_document *src, pdf_obj *dest,
	const page_set *copied, pdf_obj **copies)
{
	pdf_obj *array = explicit_destination(ctx, src, dest);
	if (pdf_is_dict(ctx, array))
		array = pdf_dict_get(ctx, array, PDF_NAME(D));
	pdf_obj *page = destination_page(ctx, array);
	int index = page ? page_set_index(copied, pdf_to_num(ctx, page)) : -1;
	if (index < 0)
		return NULL;
	pdf_obj *result = pdf_new_array(ctx, pdf_get_bound_document(ctx, copies[index]), pdf_array_len(ctx, array));
	fz_try(ctx) {
		pdf_array_push(ctx, result, copies[index]);
		for (int i = 1; i < pdf_array_len(ctx, array); i++)
			pdf_array_push_drop(ctx, result, pdf_graft_mapped_object(ctx, map, pdf_array_get(ctx, array, i)));
	}
	fz_catch(ctx) {
		pdf_drop_obj(ctx, result);
		fz_rethrow(ctx);
	}
	return result;
}

/* Copies the annotations of source page `from` onto its copy `to`: each is copied but for
   its page (/P, made `to`), popup and reply links; a link or GoTo action into the copied
   pages is re-pointed at the copy, one elsewhere dropped. Widgets (their fields belong to
   the other form) and popups are not copied. */
static void copy_annotations(fz_context *ctx, pdf_document *dst, pdf_graft_map *map, pdf_document *src, pdf_obj *from, pdf_obj *to,
	const page_set *copied, pdf_obj **copies, cmupdf_page_report *report)
{
	pdf_obj *annots = pdf_dict_get(ctx, from, PDF_NAME(Annots));
	int count = pdf_array_len(ctx, annots);
	if (count == 0)
		return;
	pdf_obj *list = pdf_dict_put_array(ctx, to, PDF_NAME(Annots), count);
	for (int i = 0; i < count; i++) {
		pdf_obj *annot = pdf_array_get(ctx, annots, i);
		pdf_obj *subtype = pdf_dict_get(ctx, annot, PDF_NAME(Subtype));
		if (pdf_name_eq(ctx, subtype, PDF_NAME(Popup)))
			continue;
		if (pdf_name_eq(ctx, subtype, PDF_NAME(Widget))) {
			report->fields++;
			continue;
		}
		pdf_obj *dest = goto_destination(ctx, annot);
		pdf_obj *copy = pdf_new_dict(ctx, dst, pdf_dict_len(ctx, annot));
		fz_try(ctx) {
			for (int k = 0; k < pdf_dict_len(ctx, annot); k++) {
				pdf_obj *key = pdf_dict_get_key(ctx, annot, k);
				if (pdf_name_eq(ctx, key, PDF_NAME(P)) || pdf_name_eq(ctx, key, PDF_NAME(Popup)) || pdf_name_eq(ctx, key, PDF_NAME(IRT))
					|| pdf_name_eq(ctx, key, PDF_NAME(Parent)) || (dest && (pdf_name_eq(ctx, key, PDF_NAME(Dest)) || pdf_name_eq(ctx, key, PDF_NAME(A)))))
					continue;
				pdf_dict_put_drop(ctx, copy, key, pdf_graft_mapped_object(ctx, map, pdf_dict_get_val(ctx, annot, k)));
			}
			int keep = 1;
			if (dest) {
				pdf_obj *target = copied_destination(ctx, map, src, dest, copied, copies);
				if (target)
					pdf_dict_put_drop(ctx, copy, PDF_NAME(Dest), target);
				else {
					keep = 0;
					report->links++;
				}
			}
			if (keep) {
				pdf_dict_put(ctx, copy, PDF_NAME(P), to);
				pdf_array_push_drop(ctx, list, pdf_add_object(ctx, dst, copy));
			}
		}
		fz_always(ctx)
			pdf_drop_obj(ctx, copy);
		fz_catch(ctx)
			fz_rethrow(ctx);
	}
}

/* Copies the outline items under source item `parent` that go into the copied pages, act
   otherwise (a URI), or have such items below them, under destination item `into`; returns how many it copied,
   and counts those left out. */
static int copy_outline(fz_context *ctx, pdf_document *dst, pdf_graft_map *map, pdf_document *src, pdf_obj *parent, pdf_obj *into,
	const page_set *copied, pdf_obj **copies, cmupdf_page_report *report, int depth)
{
	int made = 0;
	if (depth > 64)
		return 0;
	pdf_obj *item = pdf_dict_get(ctx, parent, PDF_NAME(First));
	for (int guard = 0; item && guard < 100000 && !pdf_mark_obj(ctx, item); guard++) {
		pdf_obj *copy = NULL;
		fz_var(copy);
		fz_try(ctx) {
			pdf_obj *dest = goto_destination(ctx, item);
			copy = pdf_add_new_dict(ctx, dst, 6);
			/* An action other than GoTo (a URI, a named action) is valid in any document. */
			pdf_obj *action = dest ? NULL : pdf_dict_get(ctx, item, PDF_NAME(A));
			int below = copy_outline(ctx, dst, map, src, item, copy, copied, copies, report, depth + 1);
			pdf_obj *target = dest ? copied_destination(ctx, map, src, dest, copied, copies) : NULL;
			if (target || action || below > 0) {
				pdf_dict_put_drop(ctx, copy, PDF_NAME(Title), pdf_graft_mapped_object(ctx, map, pdf_dict_get(ctx, item, PDF_NAME(Title))));
				if (target)
					pdf_dict_put_drop(ctx, copy, PDF_NAME(Dest), target);
				else if (action)
					pdf_dict_put_drop(ctx, copy, PDF_NAME(A), pdf_graft_mapped_object(ctx, map, action));
				else if (dest)
					report->outline_items++;
				if (below > 0)
					pdf_dict_put_int(ctx, copy, PDF_NAME(Count), -below);
				pdf_dict_put(ctx, copy, PDF_NAME(Parent), into);
				pdf_obj *last = pdf_dict_get(ctx, into, PDF_NAME(Last));
				if (last) {
					pdf_dict_put(ctx, last, PDF_NAME(Next), copy);
					pdf_dict_put(ctx, copy, PDF_NAME(Prev), last);
				} else
					pdf_dict_put(ctx, into, PDF_NAME(First), copy);
				pdf_dict_put(ctx, into, PDF_NAME(Last), copy);
				made++;
			} else {
				pdf_delete_object(ctx, dst, pdf_to_num(ctx, copy));
				if (dest)
					report->outline_items++;
			}
		}
		fz_always(ctx) {
			pdf_drop_obj(ctx, copy);
			pdf_unmark_obj(ctx, item);
		}
		fz_catch(ctx)
			fz_rethrow(ctx);
		item = pdf_dict_get(ctx, item, PDF_NAME(Next));
	}
	return made;
}

/* The document's outline root, made when it has none. */
static pdf_obj *outline_root(fz_context *ctx, pdf_document *doc)
{
	pdf_obj *root = pdf_dict_get(ctx, pdf_trailer(ctx, doc), PDF_NAME(Root));
	pdf_obj *outlines = pdf_dict_get(ctx, root, PDF_NAME(Outlines));
	if (pdf_is_dict(ctx, outlines))
		return outlines;
	outlines = pdf_add_new_dict(ctx, doc, 2);
	pdf_dict_put(ctx, outlines, PDF_NAME(Type), PDF_NAME(Outlines));
	pdf_dict_put_drop(ctx, root, PDF_NAME(Outlines), outlines);
	return outlines;
}

int cmupdf_insert_pages(cmupdf_document *doc, int at, const unsigned char *data, size_t length, const char *password,
	const int *pages, int count, cmupdf_page_report *report, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_context *ctx = doc->ctx;
	pdf_document *dst = doc->pdf;
	pdf_document *src = NULL;
	fz_buffer *buffer = NULL;
	fz_stream *stream = NULL;
	pdf_graft_map *map = NULL;
	page_set copied = { NULL, 0 };
	pdf_obj **copies = NULL;
	int ok = 1;
	memset(report, 0, sizeof *report);
	fz_var(src);
	fz_var(buffer);
	fz_var(stream);
	fz_var(map);
	fz_var(copied.numbers);
	fz_var(copies);
	fz_try(ctx) {
		buffer = fz_new_buffer_from_copied_data(ctx, data, length);
		stream = fz_open_buffer(ctx, buffer);
		src = pdf_open_document_with_stream(ctx, stream);
		if (pdf_needs_password(ctx, src) && !pdf_authenticate_password(ctx, src, password ? password : ""))
			fz_throw(ctx, FZ_ERROR_GENERIC, "the password does not open the document to copy from");
		copied.numbers = fz_malloc_array(ctx, count > 0 ? count : 1, int);
		copies = fz_malloc_array(ctx, count > 0 ? count : 1, pdf_obj *);
		map = pdf_new_graft_map(ctx, dst);
		int first = at < 0 || at > pdf_count_pages(ctx, dst) ? pdf_count_pages(ctx, dst) : at;
		for (int i = 0; i < count; i++) {
			pdf_graft_mapped_page(ctx, map, first + i, src, pages[i]);
			copied.numbers[copied.count] = pdf_to_num(ctx, pdf_lookup_page_obj(ctx, src, pages[i]));
			copies[copied.count++] = pdf_lookup_page_obj(ctx, dst, first + i);
		}
		for (int i = 0; i < count; i++)
			copy_annotations(ctx, dst, map, src, pdf_lookup_page_obj(ctx, src, pages[i]), copies[i], &copied, copies, report);
		pdf_obj *source_outline = pdf_dict_getl(ctx, pdf_trailer(ctx, src), PDF_NAME(Root), PDF_NAME(Outlines), NULL);
		if (pdf_dict_get(ctx, source_outline, PDF_NAME(First))) {
			pdf_obj *into = outline_root(ctx, dst);
			int made = copy_outline(ctx, dst, map, src, source_outline, into, &copied, copies, report, 0);
			int open = pdf_dict_get_int(ctx, into, PDF_NAME(Count));
			pdf_dict_put_int(ctx, into, PDF_NAME(Count), (open > 0 ? open : 0) + made);
		}
	}
	fz_always(ctx) {
		pdf_drop_graft_map(ctx, map);
		fz_free(ctx, copies);
		fz_free(ctx, copied.numbers);
		pdf_drop_document(ctx, src);
		fz_drop_stream(ctx, stream);
		fz_drop_buffer(ctx, buffer);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}
