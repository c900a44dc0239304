#include "cmupdf_internal.h"

#include <stdlib.h>
#include <string.h>

/* Page editing: blank pages, deletion, moves, rotation and pages copied from another PDF.
   Destinations name page objects, so a moved page keeps every link and outline item that
   points to it. What would point to a page no longer in the document (a deleted page, or a
   page of the other PDF that was not copied) is dropped and counted in a cmupdf_page_report:
   link annotations, outline items (an item with children stays, without a target), named
   destinations, the open action, and form fields whose widgets were all on deleted pages. */

/* A set of object numbers: the page objects a change removed or copied. */
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

/* Whether `item` goes to a page of `gone`. */
static int goes_to(fz_context *ctx, pdf_document *doc, pdf_obj *item, const page_set *gone)
{
	pdf_obj *dest = goto_destination(ctx, item);
	if (!dest)
		return 0;
	pdf_obj *page = destination_page(ctx, explicit_destination(ctx, doc, dest));
	return page && page_set_index(gone, pdf_to_num(ctx, page)) >= 0;
}

/* Takes outline item `item` out of `parent`'s list of children. */
static void unlink_item(fz_context *ctx, pdf_obj *parent, pdf_obj *item)
{
	pdf_obj *prev = pdf_dict_get(ctx, item, PDF_NAME(Prev));
	pdf_obj *next = pdf_dict_get(ctx, item, PDF_NAME(Next));
	if (next)
		pdf_dict_put(ctx, prev ? prev : parent, prev ? PDF_NAME(Next) : PDF_NAME(First), next);
	else
		pdf_dict_del(ctx, prev ? prev : parent, prev ? PDF_NAME(Next) : PDF_NAME(First));
	if (prev)
		pdf_dict_put(ctx, next ? next : parent, next ? PDF_NAME(Prev) : PDF_NAME(Last), prev);
	else
		pdf_dict_del(ctx, next ? next : parent, next ? PDF_NAME(Prev) : PDF_NAME(Last));
}

/* Removes the outline items under `parent` that go to a page of `gone`; an item with
   children keeps them and loses its target. Returns how many were touched. */
static int prune_outline(fz_context *ctx, pdf_document *doc, pdf_obj *parent, const page_set *gone, int depth)
{
	int dropped = 0;
	if (depth > 64)
		return 0;
	pdf_obj *item = pdf_dict_get(ctx, parent, PDF_NAME(First));
	for (int guard = 0; item && guard < 100000 && !pdf_mark_obj(ctx, item); guard++) {
		pdf_obj *next = pdf_dict_get(ctx, item, PDF_NAME(Next));
		fz_try(ctx) {
			dropped += prune_outline(ctx, doc, item, gone, depth + 1);
			if (goes_to(ctx, doc, item, gone)) {
				dropped++;
				pdf_dict_del(ctx, item, PDF_NAME(Dest));
				pdf_dict_del(ctx, item, PDF_NAME(A));
				if (!pdf_dict_get(ctx, item, PDF_NAME(First))) {
					unlink_item(ctx, parent, item);
					int count = pdf_dict_get_int(ctx, parent, PDF_NAME(Count));
					if (count > 0)
						pdf_dict_put_int(ctx, parent, PDF_NAME(Count), count - 1);
					else if (count < 0)
						pdf_dict_put_int(ctx, parent, PDF_NAME(Count), count + 1);
				}
			}
		}
		fz_always(ctx)
			pdf_unmark_obj(ctx, item);
		fz_catch(ctx)
			fz_rethrow(ctx);
		item = next;
	}
	if (!pdf_dict_get(ctx, parent, PDF_NAME(First)))
		pdf_dict_del(ctx, parent, PDF_NAME(Last));
	return dropped;
}

/* Removes the named destinations of a /Names /Dests tree node that go to a page of `gone`. */
static int prune_name_tree(fz_context *ctx, pdf_obj *node, const page_set *gone, int depth)
{
	int dropped = 0;
	if (depth > 32 || pdf_mark_obj(ctx, node))
		return 0;
	fz_try(ctx) {
		pdf_obj *names = pdf_dict_get(ctx, node, PDF_NAME(Names));
		for (int i = pdf_array_len(ctx, names) - 2; i >= 0; i -= 2) {
			pdf_obj *page = destination_page(ctx, pdf_array_get(ctx, names, i + 1));
			if (page && page_set_index(gone, pdf_to_num(ctx, page)) >= 0) {
				pdf_array_delete(ctx, names, i + 1);
				pdf_array_delete(ctx, names, i);
				dropped++;
			}
		}
		pdf_obj *kids = pdf_dict_get(ctx, node, PDF_NAME(Kids));
		for (int i = 0; i < pdf_array_len(ctx, kids); i++)
			dropped += prune_name_tree(ctx, pdf_array_get(ctx, kids, i), gone, depth + 1);
	}
	fz_always(ctx)
		pdf_unmark_obj(ctx, node);
	fz_catch(ctx)
		fz_rethrow(ctx);
	return dropped;
}

/* Removes the named destinations (old /Dests dictionary and /Names /Dests tree) that go
   to a page of `gone`. Done after the links and outline, which look names up. */
static int prune_named_destinations(fz_context *ctx, pdf_obj *root, const page_set *gone)
{
	int dropped = 0;
	pdf_obj *dests = pdf_dict_get(ctx, root, PDF_NAME(Dests));
	for (int i = pdf_dict_len(ctx, dests) - 1; i >= 0; i--) {
		pdf_obj *page = destination_page(ctx, pdf_dict_get_val(ctx, dests, i));
		if (page && page_set_index(gone, pdf_to_num(ctx, page)) >= 0) {
			pdf_dict_del(ctx, dests, pdf_dict_get_key(ctx, dests, i));
			dropped++;
		}
	}
	return dropped + prune_name_tree(ctx, pdf_dict_getl(ctx, root, PDF_NAME(Names), PDF_NAME(Dests), NULL), gone, 0);
}

/* Removes, from the pages left, the link annotations that go to a page of `gone`. */
static int prune_links(fz_context *ctx, pdf_document *doc, const page_set *gone)
{
	int dropped = 0;
	for (int p = 0; p < pdf_count_pages(ctx, doc); p++) {
		pdf_obj *annots = pdf_dict_get(ctx, pdf_lookup_page_obj(ctx, doc, p), PDF_NAME(Annots));
		for (int i = pdf_array_len(ctx, annots) - 1; i >= 0; i--) {
			pdf_obj *annot = pdf_array_get(ctx, annots, i);
			if (pdf_name_eq(ctx, pdf_dict_get(ctx, annot, PDF_NAME(Subtype)), PDF_NAME(Link)) && goes_to(ctx, doc, annot, gone)) {
				pdf_array_delete(ctx, annots, i);
				dropped++;
			}
		}
	}
	return dropped;
}

/* Removes from the field tree under `kids` the widgets shown on a page of `gone` (their
   /P), and the fields left with no widget. Returns how many terminal fields went. */
static int prune_fields(fz_context *ctx, pdf_obj *kids, const page_set *gone, int depth)
{
	int dropped = 0;
	if (depth > 32)
		return 0;
	for (int i = pdf_array_len(ctx, kids) - 1; i >= 0; i--) {
		pdf_obj *field = pdf_array_get(ctx, kids, i);
		if (pdf_mark_obj(ctx, field))
			continue;
		int remove = 0;
		fz_try(ctx) {
			pdf_obj *children = pdf_dict_get(ctx, field, PDF_NAME(Kids));
			if (pdf_array_len(ctx, children) > 0) {
				/* Kids without a name are the field's widgets: the field is terminal. */
				int terminal = !pdf_dict_get(ctx, pdf_array_get(ctx, children, 0), PDF_NAME(T));
				dropped += prune_fields(ctx, children, gone, depth + 1);
				remove = pdf_array_len(ctx, children) == 0;
				dropped += remove && terminal;
			} else {
				pdf_obj *page = pdf_dict_get(ctx, field, PDF_NAME(P));
				remove = page && page_set_index(gone, pdf_to_num(ctx, page)) >= 0;
				dropped += remove && pdf_dict_get(ctx, field, PDF_NAME(T)) != NULL;
			}
		}
		fz_always(ctx)
			pdf_unmark_obj(ctx, field);
		fz_catch(ctx)
			fz_rethrow(ctx);
		if (remove)
			pdf_array_delete(ctx, kids, i);
	}
	return dropped;
}

/* Drops what points into `gone` and counts it. */
static void prune(fz_context *ctx, pdf_document *doc, const page_set *gone, cmupdf_page_report *report)
{
	pdf_obj *root = pdf_dict_get(ctx, pdf_trailer(ctx, doc), PDF_NAME(Root));
	report->links += prune_links(ctx, doc, gone);
	pdf_obj *outlines = pdf_dict_get(ctx, root, PDF_NAME(Outlines));
	if (outlines)
		report->outline_items += prune_outline(ctx, doc, outlines, gone, 0);
	pdf_obj *open = pdf_dict_gets(ctx, root, "OpenAction");
	pdf_obj *open_page = destination_page(ctx, pdf_is_array(ctx, open) ? open : pdf_dict_get(ctx, open, PDF_NAME(D)));
	if (open_page && page_set_index(gone, pdf_to_num(ctx, open_page)) >= 0) {
		pdf_dict_dels(ctx, root, "OpenAction");
		report->links++;
	}
	report->fields += prune_fields(ctx, pdf_dict_getl(ctx, root, PDF_NAME(AcroForm), PDF_NAME(Fields), NULL), gone, 0);
	report->named_destinations += prune_named_destinations(ctx, root, gone);
}

int cmupdf_delete_pages(cmupdf_document *doc, const int *indices, int count, cmupdf_page_report *report, cmupdf_error *error)
{
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_context *ctx = doc->ctx;
	pdf_document *pdf = doc->pdf;
	page_set gone = { NULL, 0 };
	int ok = 1;
	memset(report, 0, sizeof *report);
	fz_var(gone.numbers);
	fz_try(ctx) {
		gone.numbers = fz_malloc_array(ctx, count > 0 ? count : 1, int);
		for (int i = 0; i < count; i++)
			gone.numbers[gone.count++] = pdf_to_num(ctx, pdf_lookup_page_obj(ctx, pdf, indices[i]));
		/* From the last page to the first, so the indices still name the same pages. */
		for (int i = count - 1; i >= 0; i--)
			pdf_delete_page(ctx, pdf, indices[i]);
		prune(ctx, pdf, &gone, report);
	}
	fz_always(ctx)
		fz_free(ctx, gone.numbers);
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
