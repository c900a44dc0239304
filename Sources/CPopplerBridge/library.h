#ifndef CPOPPLERBRIDGE_LIBRARY_H
#define CPOPPLERBRIDGE_LIBRARY_H

namespace cpoppler {

/* Creates Poppler's process-wide parameters (fonts, character maps), which a core document
   needs and does not create, and keeps them for the life of the process, under every
   document of both Poppler APIs. Poppler's messages then go to the callback given to
   cpoppler_set_log_callback. Safe to call from any thread, any number of times. */
void pin_library();

} // namespace cpoppler

#endif
