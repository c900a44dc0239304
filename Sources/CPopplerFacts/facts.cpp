#include "CPopplerFacts.h"

#include <poppler/cpp/poppler-document.h>
#include <poppler/cpp/poppler-global.h>
#include <poppler/cpp/poppler-page.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>

namespace {

std::mutex &library_lock()
{
	static std::mutex lock;
	return lock;
}

cpoppler_log_callback log_callback = nullptr;

void forward_message(const std::string &message, void *)
{
	if (log_callback)
		log_callback(message.c_str());
}

/* poppler-cpp creates Poppler's process-wide parameters when its first document opens and
   destroys them when its last one closes, under poppler-glib's documents too. One small
   document kept open for the life of the process keeps them alive. Called with the lock held. */
void pin_library()
{
	static const char minimal_pdf[] =
		"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
		"2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
		"trailer<</Root 1 0 R/Size 3>>\n%%EOF\n";
	static poppler::document *pinned = nullptr;
	if (!pinned)
		pinned = poppler::document::load_from_raw_data(minimal_pdf, sizeof minimal_pdf - 1);
}

int rotation_degrees(poppler::page::orientation_enum orientation)
{
	switch (orientation) {
	case poppler::page::landscape: return 90;
	case poppler::page::upside_down: return 180;
	case poppler::page::seascape: return 270;
	default: return 0;
	}
}

int read_facts(std::unique_ptr<poppler::document> doc, cpoppler_facts *facts)
{
	if (!doc || doc->is_locked())
		return 0;
	int count = doc->pages();
	int *rotations = static_cast<int *>(std::calloc(count > 0 ? count : 1, sizeof(int)));
	if (!rotations)
		return 0;
	for (int i = 0; i < count; i++) {
		std::unique_ptr<poppler::page> page(doc->create_page(i));
		rotations[i] = page ? rotation_degrees(page->orientation()) : 0;
	}
	facts->is_encrypted = doc->is_encrypted() ? 1 : 0;
	facts->page_count = count;
	facts->rotations = rotations;
	return 1;
}

} // namespace

extern "C" int cpoppler_facts_from_file(const char *path, const char *password, cpoppler_facts *facts)
{
	std::lock_guard<std::mutex> guard(library_lock());
	pin_library();
	std::string pw = password ? password : "";
	return read_facts(std::unique_ptr<poppler::document>(poppler::document::load_from_file(path, pw, pw)), facts);
}

extern "C" int cpoppler_facts_from_data(const char *data, int length, const char *password, cpoppler_facts *facts)
{
	std::lock_guard<std::mutex> guard(library_lock());
	pin_library();
	std::string pw = password ? password : "";
	return read_facts(std::unique_ptr<poppler::document>(poppler::document::load_from_raw_data(data, length, pw, pw)), facts);
}

extern "C" void cpoppler_facts_free(cpoppler_facts *facts)
{
	std::free(facts->rotations);
	facts->rotations = nullptr;
	facts->page_count = 0;
}

extern "C" void cpoppler_set_log_callback(cpoppler_log_callback log)
{
	std::lock_guard<std::mutex> guard(library_lock());
	log_callback = log;
	poppler::set_debug_error_function(forward_message, nullptr);
	pin_library();
}
