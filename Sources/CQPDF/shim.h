// qpdf's C API (Debian's libqpdf-dev): reading and writing whole PDF files, for
// RendererOptimize.
#include <qpdf/qpdf-c.h>
