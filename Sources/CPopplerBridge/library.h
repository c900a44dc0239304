#ifndef CPOPPLERCPP_LIBRARY_H
#define CPOPPLERCPP_LIBRARY_H

#include <mutex>

namespace cpoppler {

/* Serialises opening and closing documents: poppler-cpp's library setup is not thread-safe. */
std::mutex &library_lock();

/* Keeps Poppler's process-wide parameters alive for the life of the process, under every
   document of every Poppler API. Call with library_lock() held. */
void pin_library();

} // namespace cpoppler

#endif
