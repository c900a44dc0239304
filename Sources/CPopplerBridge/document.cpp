#include "CPopplerCpp.h"
#include "library.h"

#include <poppler/cpp/poppler-document.h>
#include <poppler/cpp/poppler-global.h>
#include <poppler/cpp/poppler-page.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

struct cpoppler_document {
	std::unique_ptr<poppler::document> doc;
};

namespace {

cpoppler_log_callback log_callback = nullptr;

void forward_message(const std::string &message, void *)
{
	if (log_callback)
		log_callback(message.c_str());
}

cpoppler_document *wrap(poppler::document *opened)
{
	std::unique_ptr<poppler::document> doc(opened);
	if (!doc || doc->is_locked())
		return nullptr;
	return new cpoppler_document{std::move(doc)};
}

} // namespace

extern "C" cpoppler_document *cpoppler_open_file(const char *path, const char *password)
{
	std::lock_guard<std::mutex> guard(cpoppler::library_lock());
	cpoppler::pin_library();
	std::string pw = password ? password : "";
	return wrap(poppler::document::load_from_file(path, pw, pw));
}

extern "C" cpoppler_document *cpoppler_open_data(const char *data, int length, const char *password)
{
	std::lock_guard<std::mutex> guard(cpoppler::library_lock());
	cpoppler::pin_library();
	std::string pw = password ? password : "";
	poppler::byte_array bytes(data, data + length);
	return wrap(poppler::document::load_from_data(&bytes, pw, pw));
}

extern "C" void cpoppler_close(cpoppler_document *doc)
{
	std::lock_guard<std::mutex> guard(cpoppler::library_lock());
	delete doc;
}

extern "C" int cpoppler_is_encrypted(cpoppler_document *doc)
{
	return doc->doc->is_encrypted() ? 1 : 0;
}

extern "C" int cpoppler_page_count(cpoppler_document *doc)
{
	return doc->doc->pages();
}

extern "C" int cpoppler_page_rotation(cpoppler_document *doc, int index)
{
	std::unique_ptr<poppler::page> page(doc->doc->create_page(index));
	if (!page)
		return 0;
	switch (page->orientation()) {
	case poppler::page::landscape: return 90;
	case poppler::page::upside_down: return 180;
	case poppler::page::seascape: return 270;
	default: return 0;
	}
}

extern "C" int cpoppler_page_boxes(cpoppler_document *doc, int index, double boxes[20])
{
	std::unique_ptr<poppler::page> page(doc->doc->create_page(index));
	if (!page)
		return 0;
	const poppler::page_box_enum kinds[5] = {
		poppler::media_box, poppler::crop_box, poppler::bleed_box, poppler::trim_box, poppler::art_box,
	};
	for (int i = 0; i < 5; i++) {
		poppler::rectf box = page->page_rect(kinds[i]);
		boxes[4 * i] = box.left(), boxes[4 * i + 1] = box.top();
		boxes[4 * i + 2] = box.right(), boxes[4 * i + 3] = box.bottom();
	}
	return 1;
}

extern "C" char *cpoppler_page_text(cpoppler_document *doc, int index)
{
	std::unique_ptr<poppler::page> page(doc->doc->create_page(index));
	if (!page)
		return nullptr;
	poppler::byte_array utf8 = page->text(poppler::rectf(), poppler::page::non_raw_non_physical_layout).to_utf8();
	char *text = static_cast<char *>(std::malloc(utf8.size() + 1));
	if (!text)
		return nullptr;
	std::memcpy(text, utf8.data(), utf8.size());
	text[utf8.size()] = 0;
	return text;
}

extern "C" void cpoppler_set_log_callback(cpoppler_log_callback log)
{
	std::lock_guard<std::mutex> guard(cpoppler::library_lock());
	log_callback = log;
	poppler::set_debug_error_function(forward_message, nullptr);
	cpoppler::pin_library();
}
