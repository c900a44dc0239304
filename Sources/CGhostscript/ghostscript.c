// The C side of the Ghostscript engine: one gsapi instance per run, its standard output and
// error captured, and the display device's callbacks copying the page image into the
// caller's pixels.
#define _GNU_SOURCE
#include "cghostscript.h"

#include <ghostscript/gdevdsp.h>
#include <ghostscript/iapi.h>
#include <ghostscript/ierrors.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/// Everything one run's callbacks reach through gsapi's caller handle.
typedef struct run_state {
    cgs_output *out, *err;
    cgs_target *target;
    unsigned char *image;
    int image_width, image_height, image_raster;
} run_state;

/// One run at a time: Debian's libgs is not built to run instances on several threads.
static pthread_mutex_t run_lock = PTHREAD_MUTEX_INITIALIZER;

static int append(cgs_output *output, const char *bytes, int length) {
    if (length <= 0) return length;
    if (output->length + (size_t)length > output->limit) {
        output->overflowed = 1;
        return length;
    }
    if (output->length + (size_t)length > output->capacity) {
        size_t capacity = output->capacity ? output->capacity : 4096;
        while (capacity < output->length + (size_t)length) capacity *= 2;
        char *grown = realloc(output->bytes, capacity);
        if (!grown) {
            output->overflowed = 1;
            return length;
        }
        output->bytes = grown;
        output->capacity = capacity;
    }
    memcpy(output->bytes + output->length, bytes, (size_t)length);
    output->length += (size_t)length;
    return length;
}

static int on_stdin(void *handle, char *buffer, int length) { return 0; }
static int on_stdout(void *handle, const char *bytes, int length) { return append(((run_state *)handle)->out, bytes, length); }
static int on_stderr(void *handle, const char *bytes, int length) { return append(((run_state *)handle)->err, bytes, length); }

static int display_nothing(void *handle, void *device) { return 0; }
static int display_presize(void *handle, void *device, int width, int height, int raster, unsigned int format) { return 0; }

static int display_size(void *handle, void *device, int width, int height, int raster, unsigned int format, unsigned char *image) {
    run_state *state = handle;
    state->image = image;
    state->image_width = width;
    state->image_height = height;
    state->image_raster = raster;
    return 0;
}

/// showpage: copies the part of the page image that lies in the target's area.
static int display_page(void *handle, void *device, int copies, int flush) {
    run_state *state = handle;
    cgs_target *target = state->target;
    if (!target || !state->image) return 0;
    target->pages += 1;
    int bpp = target->bytes_per_pixel;
    int left = target->x > 0 ? target->x : 0;
    int top = target->y > 0 ? target->y : 0;
    int right = target->x + target->width < state->image_width ? target->x + target->width : state->image_width;
    int bottom = target->y + target->height < state->image_height ? target->y + target->height : state->image_height;
    if (left >= right || top >= bottom) return 0;
    size_t row_bytes = (size_t)(right - left) * (size_t)bpp;
    for (int y = top; y < bottom; y++) {
        unsigned char *to = target->pixels + ((size_t)(y - target->y) * (size_t)target->width + (size_t)(left - target->x)) * (size_t)bpp;
        const unsigned char *from = state->image + (size_t)y * (size_t)state->image_raster + (size_t)left * (size_t)bpp;
        memcpy(to, from, row_bytes);
        if (bpp == 4) {
            for (size_t i = 3; i < row_bytes; i += 4) to[i] = 255;
        }
    }
    return 0;
}

static int display_sync(void *handle, void *device) { return 0; }
static void *display_memalloc(void *handle, void *device, size_t size) { return malloc(size); }
static int display_memfree(void *handle, void *device, void *memory) {
    run_state *state = handle;
    if (memory == state->image) state->image = NULL;
    free(memory);
    return 0;
}

static display_callback display = {
    sizeof(display_callback), DISPLAY_VERSION_MAJOR, DISPLAY_VERSION_MINOR,
    display_nothing, display_nothing, display_nothing, display_presize, display_size,
    display_sync, display_page, NULL, display_memalloc, display_memfree, NULL, NULL, NULL,
};

/// Hands the display device the callbacks above and the run's state.
static int callout(void *instance, void *handle, const char *device, int id, int size, void *data) {
    if (device && strcmp(device, "display") == 0 && id == DISPLAY_CALLOUT_GET_CALLBACK && size >= (int)sizeof(gs_display_get_callback_t)) {
        gs_display_get_callback_t *get = data;
        get->callback = &display;
        get->caller_handle = handle;
        return 0;
    }
    return -1;
}

unsigned int cgs_display_format(int bytes_per_pixel) {
    unsigned int common = DISPLAY_DEPTH_8 | DISPLAY_BIGENDIAN | DISPLAY_TOPFIRST | DISPLAY_CHUNKY;
    return common | DISPLAY_COLORS_RGB | (bytes_per_pixel == 4 ? DISPLAY_UNUSED_LAST : DISPLAY_ALPHA_NONE);
}

int cgs_run(int argc, const char *const *argv, const char *program, cgs_target *target,
            cgs_output *out, cgs_output *err) {
    run_state state = {out, err, target, NULL, 0, 0, 0};
    pthread_mutex_lock(&run_lock);
    void *instance = NULL;
    int code = gsapi_new_instance(&instance, &state);
    if (code < 0) {
        pthread_mutex_unlock(&run_lock);
        return code;
    }
    gsapi_set_stdio_with_handle(instance, on_stdin, on_stdout, on_stderr, &state);
    gsapi_register_callout(instance, callout, &state);
    gsapi_set_arg_encoding(instance, GS_ARG_ENCODING_UTF8);
    code = gsapi_init_with_args(instance, argc, (char **)argv);
    if (code == gs_error_Quit) code = 0;
    if (code == 0 && program) {
        int exit_code = 0;
        code = gsapi_run_string(instance, program, 0, &exit_code);
        if (code == gs_error_Quit) code = 0;
    }
    int exit_status = gsapi_exit(instance);
    if (code == 0 && exit_status < 0 && exit_status != gs_error_Quit) code = exit_status;
    gsapi_delete_instance(instance);
    pthread_mutex_unlock(&run_lock);
    return code;
}

void cgs_output_free(cgs_output *output) {
    free(output->bytes);
    output->bytes = NULL;
    output->length = 0;
    output->capacity = 0;
}

long cgs_revision(void) {
    gsapi_revision_t revision;
    if (gsapi_revision(&revision, sizeof(revision)) != 0) return 0;
    return revision.revision;
}

int cgs_memory_file(const char *name) { return memfd_create(name, MFD_CLOEXEC); }
