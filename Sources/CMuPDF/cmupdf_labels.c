#include "cmupdf_internal.h"
#include <string.h>

enum { MAX_LABEL_TREE_DEPTH = 32 };

static int label_style(const char *name)
{
	return strlen(name) == 1 && strchr("DRrAa", name[0]) ? name[0] : 0;
}

/* Reports the /Nums entries of `node` and walks its /Kids; a node already on the current
   path (a loop) or deeper than MAX_LABEL_TREE_DEPTH ends that branch. */
static void walk(fz_context *ctx, pdf_obj *node, int depth, cmupdf_label_range_callback range, void *user)
{
	if (depth > MAX_LABEL_TREE_DEPTH || !pdf_is_dict(ctx, node) || pdf_mark_obj(ctx, node))
		return;
	fz_try(ctx) {
		pdf_obj *nums = pdf_dict_get(ctx, node, PDF_NAME(Nums));
		int count = pdf_array_len(ctx, nums);
		for (int i = 0; i + 1 < count; i += 2) {
			pdf_obj *entry = pdf_array_get(ctx, nums, i + 1);
			pdf_obj *start = pdf_dict_gets(ctx, entry, "St");
			range(user,
				pdf_to_int(ctx, pdf_array_get(ctx, nums, i)),
				label_style(pdf_to_name(ctx, pdf_dict_get(ctx, entry, PDF_NAME(S)))),
				pdf_dict_get_text_string(ctx, entry, PDF_NAME(P)),
				start ? pdf_to_int(ctx, start) : 1);
		}
		pdf_obj *kids = pdf_dict_get(ctx, node, PDF_NAME(Kids));
		int kid_count = pdf_array_len(ctx, kids);
		for (int i = 0; i < kid_count; i++)
			walk(ctx, pdf_array_get(ctx, kids, i), depth + 1, range, user);
	}
	fz_always(ctx)
		pdf_unmark_obj(ctx, node);
	fz_catch(ctx)
		fz_rethrow(ctx);
}

int cmupdf_page_labels(cmupdf_document *doc, cmupdf_label_range_callback range, void *user, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_var(ok);
	fz_try(ctx) {
		if (!doc->pdf)
			break; /* other formats have no page labels */
		pdf_obj *root = pdf_dict_get(ctx, pdf_trailer(ctx, doc->pdf), PDF_NAME(Root));
		walk(ctx, pdf_dict_gets(ctx, root, "PageLabels"), 0, range, user);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}
