#include "cmupdf_internal.h"
#include <math.h>

/* Resolves `uri` (an outline's or link's target) in `doc`. */
static cmupdf_destination resolve(fz_context *ctx, fz_document *doc, const char *uri)
{
	cmupdf_destination destination = { -1, 0, NAN, NAN, NULL };
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
			callback(user, depth, title, is_open, resolve(ctx, &doc->super, uri));
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
		for (fz_link *l = links; l; l = l->next)
			link(user, l->rect.x0 - bounds.x0, l->rect.y0 - bounds.y0, l->rect.x1 - bounds.x0, l->rect.y1 - bounds.y0,
				resolve(ctx, doc->doc, l->uri));
	}
	fz_always(ctx)
		fz_drop_link(ctx, links);
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}
