#include "ctesseract.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static struct ctesseract_api api;
static int loaded;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    /* Read by OpenMP once, as it loads with Tesseract below. */
    setenv("OMP_THREAD_LIMIT", "1", 0);
    void *library = dlopen("libtesseract.so.5", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "Tesseract's library cannot be loaded (install Debian's libtesseract5): %s", why ? why : "not found");
        return;
    }
#define CTESSERACT_LOAD(name) \
    api.name = (__typeof__(api.name))dlsym(library, #name); \
    if (api.name == NULL) { \
        snprintf(failure, sizeof failure, "Tesseract's library has no function " #name); \
        return; \
    }
    CTESSERACT_FUNCTIONS(CTESSERACT_LOAD)
    loaded = 1;
}

const struct ctesseract_api *ctesseract_load(const char **error) {
    pthread_once(&once, load);
    if (!loaded) {
        *error = failure;
        return NULL;
    }
    return &api;
}
