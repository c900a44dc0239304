#ifndef CTESSERACT_H
#define CTESSERACT_H

/* Tesseract's C API (Debian's libtesseract-dev for the declarations), loaded when first
   needed rather than linked: a program that never reads a page image maps neither
   Tesseract nor the libraries it brings (Leptonica, OpenMP, libarchive, libcurl), and
   OpenMP is told, before it loads, to keep each recognition to the thread that asks for it
   (OMP_THREAD_LIMIT=1 unless the environment says otherwise): the callers read pages on
   threads of their own, and Tesseract's own teams on top of them, on a machine of few
   cores, spin more than they read. */

#include <tesseract/capi.h>

#define CTESSERACT_FUNCTIONS(X) \
    X(TessBaseAPICreate) X(TessBaseAPIDelete) X(TessBaseAPIInit3) X(TessBaseAPIEnd) X(TessBaseAPIClear) \
    X(TessBaseAPISetImage) X(TessBaseAPISetSourceResolution) X(TessBaseAPIRecognize) X(TessBaseAPIGetIterator) \
    X(TessResultIteratorDelete) X(TessResultIteratorGetPageIterator) X(TessResultIteratorNext) \
    X(TessResultIteratorGetUTF8Text) X(TessResultIteratorConfidence) X(TessDeleteText) \
    X(TessPageIteratorIsAtBeginningOf) X(TessPageIteratorBoundingBox) X(TessPageIteratorBaseline) \
    X(TessMonitorCreate) X(TessMonitorDelete) X(TessMonitorSetCancelFunc) X(TessMonitorSetCancelThis)

#define CTESSERACT_FIELD(name) __typeof__(&name) name;

/* The functions of Tesseract's C API this project calls, each as Tesseract declares it. */
struct ctesseract_api {
    CTESSERACT_FUNCTIONS(CTESSERACT_FIELD)
};

/* The API, loaded once (libtesseract.so.5) on the first call from any thread; NULL when the
   library or one of its functions cannot be found, with `*error` then pointing to why (a
   message that lives as long as the program). */
const struct ctesseract_api *ctesseract_load(const char **error);

#endif
