#include "cmupdf_internal.h"

/* Optional content: MuPDF keeps each group's state in the document (not in the file); the
   draw device leaves out what a hidden group marks. MuPDF 1.21 loads those states from the
   first of /Configs when there is one, not from /D, the default configuration;
   cmupdf_apply_default_layers puts /D's in their place. */

/* The state /D gives group `ocg`: `base` unless /ON or /OFF names it. Throws. */
static int default_state(fz_context *ctx, pdf_obj *config, pdf_obj *ocg, int base)
{
	pdf_obj *on = pdf_dict_get(ctx, config, PDF_NAME(ON));
	pdf_obj *off = pdf_dict_get(ctx, config, PDF_NAME(OFF));
	int i, state = base;
	for (i = 0; i < pdf_array_len(ctx, on); i++)
		if (!pdf_objcmp_resolve(ctx, pdf_array_get(ctx, on, i), ocg))
			state = 1;
	for (i = 0; i < pdf_array_len(ctx, off); i++)
		if (!pdf_objcmp_resolve(ctx, pdf_array_get(ctx, off, i), ocg))
			state = 0;
	return state;
}

void cmupdf_apply_default_layers(fz_context *ctx, pdf_document *pdf)
{
	fz_try(ctx) {
		pdf_obj *properties = pdf_dict_getp(ctx, pdf_trailer(ctx, pdf), "Root/OCProperties");
		pdf_obj *config = pdf_dict_get(ctx, properties, PDF_NAME(D));
		pdf_obj *groups = pdf_dict_get(ctx, properties, PDF_NAME(OCGs));
		pdf_obj *base = pdf_dict_get(ctx, config, PDF_NAME(BaseState));
		int i, count = pdf_count_layers(ctx, pdf);
		if (pdf_dict_get(ctx, properties, PDF_NAME(Configs)) && pdf_is_dict(ctx, config) && count == pdf_array_len(ctx, groups)) {
			for (i = 0; i < count; i++) {
				int kept = pdf_layer_is_enabled(ctx, pdf, i);
				int from = pdf_name_eq(ctx, base, PDF_NAME(OFF)) ? 0 : pdf_name_eq(ctx, base, PDF_NAME(Unchanged)) ? kept : 1;
				pdf_enable_layer(ctx, pdf, i, default_state(ctx, config, pdf_array_get(ctx, groups, i), from));
			}
		}
	}
	fz_catch(ctx) {
		fz_warn(ctx, "cannot read the default optional-content configuration: %s", fz_caught_message(ctx));
	}
}

int cmupdf_layers(cmupdf_document *doc, cmupdf_layer_callback each, void *user, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_var(ok);
	if (!doc->pdf)
		return 1;
	fz_try(ctx) {
		int i, count = pdf_count_layers(ctx, doc->pdf);
		for (i = 0; i < count; i++) {
			const char *name = pdf_layer_name(ctx, doc->pdf, i);
			each(user, name ? name : "", pdf_layer_is_enabled(ctx, doc->pdf, i));
		}
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

/* Reports one configuration dictionary. Throws. */
static void report_configuration(fz_context *ctx, pdf_obj *config, int is_default, cmupdf_layer_configuration_callback each, void *user)
{
	pdf_obj *name = pdf_dict_get(ctx, config, PDF_NAME(Name));
	pdf_obj *creator = pdf_dict_get(ctx, config, PDF_NAME(Creator));
	each(user, pdf_is_string(ctx, name) ? pdf_to_text_string(ctx, name) : NULL,
		pdf_is_string(ctx, creator) ? pdf_to_text_string(ctx, creator) : NULL, is_default);
}

int cmupdf_layer_configurations(cmupdf_document *doc, cmupdf_layer_configuration_callback each, void *user, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	int ok = 1;
	fz_var(ok);
	if (!doc->pdf)
		return 1;
	fz_try(ctx) {
		pdf_obj *properties = pdf_dict_getp(ctx, pdf_trailer(ctx, doc->pdf), "Root/OCProperties");
		pdf_obj *configs = pdf_dict_get(ctx, properties, PDF_NAME(Configs));
		int i, count = pdf_array_len(ctx, configs);
		if (pdf_is_dict(ctx, properties)) {
			report_configuration(ctx, pdf_dict_get(ctx, properties, PDF_NAME(D)), 1, each, user);
			for (i = 0; i < count; i++)
				if (pdf_is_dict(ctx, pdf_array_get(ctx, configs, i)))
					report_configuration(ctx, pdf_array_get(ctx, configs, i), 0, each, user);
		}
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}

int cmupdf_set_layer_states(cmupdf_document *doc, const int *states, int count, cmupdf_error *error)
{
	fz_context *ctx = doc->ctx;
	int ok = 1;
	CMUPDF_REQUIRE_PDF(doc, error, 0);
	fz_var(ok);
	fz_try(ctx) {
		int i;
		if (count != pdf_count_layers(ctx, doc->pdf))
			fz_throw(ctx, FZ_ERROR_GENERIC, "%d layer states given for %d layers", count, pdf_count_layers(ctx, doc->pdf));
		for (i = 0; i < count; i++)
			pdf_enable_layer(ctx, doc->pdf, i, states[i]);
	}
	fz_catch(ctx) {
		cmupdf_set_caught_error(ctx, error);
		ok = 0;
	}
	return ok;
}
