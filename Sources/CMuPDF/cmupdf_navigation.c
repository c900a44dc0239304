#include "cmupdf_internal.h"
#include <math.h>
#include <string.h>

/* Resolves `uri` (an outline's or link's target) in `doc`. */
static cmupdf_destination resolve(fz_context *ctx, fz_document *doc, const char *uri)
{
	cmupdf_destination destination = { -1, 0, NAN, NAN, NULL, 0, { NAN, NAN, NAN, NAN } };
	if (!uri)
		return destination;
	if (fz_is_external_link(ctx, uri)) {
		destination.uri = uri;
		return destination;
	}
	fz_link_dest dest = fz_resolve_link_dest(ctx, doc, uri);
	destination.page = fz_page_number_from_location(ctx, doc, dest.loc);
	destination.fit = dest.type == FZ_LINK_DEST_FIT || dest.type == FZ_LINK_DEST_FIT_B ||
		dest.type == FZ_LINK_DEST_FIT_V || dest.type == FZ_LINK_DEST_FIT_BV;
	destination.x = dest.x;
	destination.y = dest.y;
	return destination;
}

/* The explicit destination (`[page /Kind numbers...]`) that `dest` leads to: itself, or
   through the document's named destinations and a dictionary's /D; NULL when none. */
static pdf_obj *explicit_dest(fz_context *ctx, pdf_document *doc, pdf_obj *dest)
{
	for (int step = 0; step < 4 && dest; step++) {
		if (pdf_is_array(ctx, dest))
			return dest;
		if (pdf_is_dict(ctx, dest))
			dest = pdf_dict_get(ctx, dest, PDF_NAME(D));
		else if (pdf_is_name(ctx, dest) || pdf_is_string(ctx, dest))
			dest = pdf_lookup_dest(ctx, doc, dest);
		else
			return NULL;
	}
	return NULL;
}

/* Sets the kind and numbers of the explicit destination an outline item or link annotation
   holds (its /Dest, or its GoTo action's /D) when it leads to the page MuPDF resolved; a
   destination that cannot be read keeps kind 0. */
static void read_explicit(fz_context *ctx, pdf_document *doc, pdf_obj *holder, cmupdf_destination *destination)
{
	static const char *kinds[] = { "XYZ", "Fit", "FitH", "FitV", "FitR", "FitB", "FitBH", "FitBV" };
	fz_try(ctx) {
		pdf_obj *dest = pdf_dict_get(ctx, holder, PDF_NAME(Dest));
		pdf_obj *action = pdf_dict_get(ctx, holder, PDF_NAME(A));
		if (!dest && pdf_name_eq(ctx, pdf_dict_get(ctx, action, PDF_NAME(S)), PDF_NAME(GoTo)))
			dest = pdf_dict_get(ctx, action, PDF_NAME(D));
		pdf_obj *array = explicit_dest(ctx, doc, dest);
		pdf_obj *page = pdf_array_get(ctx, array, 0);
		int number = pdf_is_int(ctx, page) ? pdf_to_int(ctx, page) : pdf_is_dict(ctx, page) ? pdf_lookup_page_number(ctx, doc, page) : -1;
		if (!array || destination->page < 0 || number != destination->page)
			break;
		const char *kind = pdf_to_name(ctx, pdf_array_get(ctx, array, 1));
		for (int i = 0; i < 8; i++)
			if (!strcmp(kind, kinds[i]))
				destination->kind = i + 1;
		for (int i = 0; i < 4; i++) {
			pdf_obj *value = pdf_array_get(ctx, array, i + 2);
			destination->values[i] = pdf_is_number(ctx, value) ? pdf_to_real(ctx, value) : NAN;
		}
	}
	fz_catch(ctx)
		destination->kind = 0;
}

/* The outline items already visited; each is marked so that a cycle, however it closes
   (a /Next or a /First leading back), is cut where it closes. */
typedef struct {
	pdf_obj **items;
	int count, capacity;
} visited_items;

static int visit(fz_context *ctx, visited_items *visited, pdf_obj *item)
{
	if (!pdf_is_dict(ctx, item) || pdf_mark_obj(ctx, item))
		return 0;
	if (visited->count == visited->capacity) {
		int capacity = visited->capacity ? visited->capacity * 2 : 64;
		visited->items = fz_realloc_array(ctx, visited->items, capacity, pdf_obj *);
		visited->capacity = capacity;
	}
	visited->items[visited->count++] = item;
	return 1;
}

/* The item's target as a MuPDF link URI (from fz_malloc), or NULL when it has none or it
   cannot be parsed: one broken item does not end the walk. */
static char *item_uri(fz_context *ctx, pdf_document *doc, pdf_obj *item)
{
	char *uri = NULL;
	fz_var(uri);
	fz_try(ctx) {
		pdf_obj *dest = pdf_dict_get(ctx, item, PDF_NAME(Dest));
		pdf_obj *action = pdf_dict_get(ctx, item, PDF_NAME(A));
		if (dest)
			uri = pdf_parse_link_dest(ctx, doc, dest);
		else if (action)
			uri = pdf_parse_link_action(ctx, doc, action, -1);
	}
	fz_catch(ctx)
		uri = NULL;
	return uri;
}

static void walk(fz_context *ctx, pdf_document *doc, pdf_obj *item, int depth, int max_depth, visited_items *visited,
	cmupdf_outline_callback callback, void *user)
{
	for (; depth <= max_depth && visit(ctx, visited, item); item = pdf_dict_get(ctx, item, PDF_NAME(Next))) {
		char *uri = item_uri(ctx, doc, item);
		fz_try(ctx) {
			const char *title = pdf_dict_get_text_string(ctx, item, PDF_NAME(Title));
			int is_open = pdf_dict_get_int(ctx, item, PDF_NAME(Count)) > 0;
			cmupdf_destination destination = resolve(ctx, &doc->super, uri);
			if (!destination.uri)
				read_explicit(ctx, doc, item, &destination);
			callback(user, depth, title, is_open, destination);
		}
		fz_always(ctx)
			fz_free(ctx, uri);
		fz_catch(ctx)
			fz_rethrow(ctx);
		walk(ctx, doc, pdf_dict_get(ctx, item, PDF_NAME(First)), depth + 1, max_depth, visited, callback, user);
	}
}

/* The outline of a document of another format (its table of contents), from MuPDF. */
static void walk_loaded(fz_context *ctx, fz_document *doc, fz_outline *item, int depth, int max_depth,
	cmupdf_outline_callback callback, void *user)
{
	for (; item && depth <= max_depth; item = item->next) {
		callback(user, depth, item->title ? item->title : "", item->is_open, resolve(ctx, doc, item->uri));
		walk_loaded(ctx, doc, item->down, depth + 1, max_depth, callback, user);
	}
}

/* MuPDF's own fz_load_outline gives up on the whole outline when it meets a cycle, so a
   PDF's outline dictionaries are walked here, with MuPDF parsing each destination. Other
   formats' outlines are built by MuPDF as a tree, which cannot loop. */
int cmupdf_outline(cmupdf_document *doc, int max_depth, cmupdf_outline_callback item, void *user, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	visited_items visited = { NULL, 0, 0 };
	fz_outline *loaded = NULL;
	int ok = 1;
	fz_var(ok);
	fz_var(loaded);
	fz_try(ctx) {
		if (!doc->pdf) {
			loaded = fz_load_outline(ctx, doc->doc);
			walk_loaded(ctx, doc->doc, loaded, 0, max_depth, item, user);
			break;
		}
		pdf_obj *root = pdf_dict_get(ctx, pdf_trailer(ctx, doc->pdf), PDF_NAME(Root));
		pdf_obj *outlines = pdf_dict_get(ctx, root, PDF_NAME(Outlines));
		walk(ctx, doc->pdf, pdf_dict_get(ctx, outlines, PDF_NAME(First)), 0, max_depth, &visited, item, user);
	}
	fz_always(ctx) {
		for (int i = 0; i < visited.count; i++)
			pdf_unmark_obj(ctx, visited.items[i]);
		fz_free(ctx, visited.items);
		fz_drop_outline(ctx, loaded);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_page_links(cmupdf_document *doc, cmupdf_page *page, cmupdf_link_callback link, void *user, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	fz_link *links = NULL;
	int ok = 1;
	fz_var(links);
	fz_var(ok);
	fz_try(ctx) {
		fz_rect bounds = fz_bound_page(ctx, page->page);
		links = fz_load_links(ctx, page->page);
		pdf_page *pdf = pdf_page_from_fz_page(ctx, page->page);
		fz_matrix ctm = fz_identity;
		pdf_obj *annots = NULL;
		if (pdf) {
			pdf_page_transform(ctx, pdf, NULL, &ctm);
			annots = pdf_dict_get(ctx, pdf->obj, PDF_NAME(Annots));
		}
		int next_annot = 0;
		for (fz_link *l = links; l; l = l->next) {
			cmupdf_destination destination = resolve(ctx, doc->doc, l->uri);
			/* MuPDF makes a PDF page's links from its link annotations, in order: the annotation
			   whose rectangle is the link's holds the destination as the file writes it. */
			for (int i = next_annot; !destination.uri && i < pdf_array_len(ctx, annots); i++) {
				pdf_obj *annot = pdf_array_get(ctx, annots, i);
				if (!pdf_name_eq(ctx, pdf_dict_get(ctx, annot, PDF_NAME(Subtype)), PDF_NAME(Link)))
					continue;
				fz_rect rect = fz_transform_rect(pdf_dict_get_rect(ctx, annot, PDF_NAME(Rect)), ctm);
				if (fabsf(rect.x0 - l->rect.x0) < 0.01f && fabsf(rect.y0 - l->rect.y0) < 0.01f &&
					fabsf(rect.x1 - l->rect.x1) < 0.01f && fabsf(rect.y1 - l->rect.y1) < 0.01f) {
					read_explicit(ctx, doc->pdf, annot, &destination);
					next_annot = i + 1;
					break;
				}
			}
			link(user, l->rect.x0 - bounds.x0, l->rect.y0 - bounds.y0, l->rect.x1 - bounds.x0, l->rect.y1 - bounds.y0, destination);
		}
	}
	fz_always(ctx)
		fz_drop_link(ctx, links);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_named_destination(cmupdf_document *doc, const char *name, cmupdf_destination *found, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	const cmupdf_destination none = { -1, 0, NAN, NAN, NULL, 0, { NAN, NAN, NAN, NAN } };
	pdf_obj *holder = NULL;
	char *uri = NULL;
	int ok = 1;
	fz_var(holder);
	fz_var(uri);
	fz_var(ok);
	*found = none;
	fz_try(ctx) {
		if (!doc->pdf)
			break;
		/* The name as an outline item would hold it, so that it is read as items are. */
		holder = pdf_new_dict(ctx, doc->pdf, 1);
		pdf_dict_put_drop(ctx, holder, PDF_NAME(Dest), pdf_new_text_string(ctx, name));
		if (!explicit_dest(ctx, doc->pdf, pdf_dict_get(ctx, holder, PDF_NAME(Dest))))
			break;
		uri = item_uri(ctx, doc->pdf, holder);
		if (!uri)
			break;
		*found = resolve(ctx, doc->doc, uri);
		if (found->uri || found->page < 0 || found->page >= fz_count_pages(ctx, doc->doc)) {
			*found = none;
			break;
		}
		read_explicit(ctx, doc->pdf, holder, found);
	}
	fz_always(ctx) {
		fz_free(ctx, uri);
		pdf_drop_obj(ctx, holder);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}
