/* Poppler's core library (libpoppler). Its headers are C++ and are included only by
   CPopplerBridge's sources; this module exists to link the library and to give them its
   include path from pkg-config. */
#include <poppler/poppler-config.h>
