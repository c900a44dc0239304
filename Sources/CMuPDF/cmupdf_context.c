#include "cmupdf_internal.h"
#include <stdio.h>

void cmupdf_set_error(cmupdf_error *error, int code, const char *message)
{
	if (!error)
		return;
	error->code = code;
	snprintf(error->message, sizeof error->message, "%s", message);
}

void cmupdf_set_caught_error(fz_context *ctx, cmupdf_error *error)
{
	int caught = fz_caught(ctx);
	int code = caught == FZ_ERROR_MEMORY ? CMUPDF_ERROR_MEMORY : caught == FZ_ERROR_ABORT ? CMUPDF_ERROR_ABORTED : CMUPDF_ERROR_GENERIC;
	cmupdf_set_error(error, code, fz_caught_message(ctx));
}

static void forward_warning(void *user, const char *message)
{
	cmupdf_log_target *target = user;
	if (target->log)
		target->log(target->user, 0, message);
}

static void forward_error(void *user, const char *message)
{
	cmupdf_log_target *target = user;
	if (target->log)
		target->log(target->user, 1, message);
}

fz_context *cmupdf_new_context(cmupdf_log_target *target, size_t cache_bytes, cmupdf_error *error)
{
	fz_context *ctx = fz_new_context(NULL, NULL, cache_bytes);
	if (!ctx) {
		cmupdf_set_error(error, CMUPDF_ERROR_MEMORY, "cannot create a MuPDF context");
		return NULL;
	}
	fz_set_warning_callback(ctx, forward_warning, target);
	fz_set_error_callback(ctx, forward_error, target);
	fz_try(ctx)
		fz_register_document_handlers(ctx);
	fz_catch(ctx) {
		fz_drop_context(ctx);
		cmupdf_set_error(error, CMUPDF_ERROR_MEMORY, "cannot register MuPDF's document handlers");
		return NULL;
	}
	return ctx;
}

const char *cmupdf_version(void)
{
	return FZ_VERSION;
}
