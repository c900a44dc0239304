#include "CPopplerCore.h"
#include "library.h"

#include <poppler/Error.h>
#include <poppler/GlobalParams.h>

#include <atomic>
#include <string>

namespace {

std::atomic<cpoppler_log_callback> log_callback { nullptr };

/* Poppler's words for each category of message, for the message handed on. */
const char *category_name(ErrorCategory category)
{
	switch (category) {
	case errSyntaxWarning: return "Syntax Warning";
	case errSyntaxError: return "Syntax Error";
	case errConfig: return "Config Error";
	case errCommandLine: return "Command Line Error";
	case errIO: return "I/O Error";
	case errNotAllowed: return "Permission Error";
	case errUnimplemented: return "Unimplemented Feature";
	case errInternal: return "Internal Error";
	}
	return "Error";
}

void forward_message(ErrorCategory category, Goffset pos, const char *message)
{
	cpoppler_log_callback log = log_callback.load();
	if (!log || !message)
		return;
	std::string line = category_name(category);
	if (pos >= 0)
		line += " (" + std::to_string(pos) + ")";
	line += ": ";
	line += message;
	log(line.c_str());
}

/* Holds one share of Poppler's parameters for the life of the process. poppler-glib takes
   and drops a share with each of its documents, and sets its own message hook whenever it
   creates the parameters; once this share is held that never happens again, so the hook
   set here stays. */
struct PinnedLibrary {
	GlobalParamsIniter share { forward_message };
	PinnedLibrary() { setErrorCallback(forward_message); }
};

} // namespace

namespace cpoppler {

void pin_library()
{
	static PinnedLibrary pinned;
}

} // namespace cpoppler

extern "C" void cpoppler_set_log_callback(cpoppler_log_callback log)
{
	log_callback.store(log);
	cpoppler::pin_library();
}
