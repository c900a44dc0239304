#include "CPopplerCore.h"
#include "core.h"
#include "field_walk.h"

#include <poppler/Catalog.h>
#include <poppler/Page.h>
#include <poppler/XRef.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <new>
#include <set>
#include <string>

/* The terminal fields of the AcroForm's field tree, read from the objects as the MuPDF layer
   reads them: walked depth first in /Fields and /Kids order, with /FT, /Ff, /V, /DV and
   /MaxLen passed down from the ancestors that set them, an indirect field met a second time
   skipped, no deeper than 32 levels, so a field loop ends the walk there. */

namespace {

constexpr int max_depth = 32;

/* A growing array from malloc of records, which `release` frees on failure. */
template <typename Record>
struct RecordList {
	Record *records = nullptr;
	int count = 0;
	int capacity = 0;

	/* A new, zeroed record at the end. */
	Record &append()
	{
		if (count == capacity) {
			int wanted = capacity ? capacity * 2 : 8;
			auto *grown = static_cast<Record *>(std::realloc(records, sizeof(Record) * static_cast<size_t>(wanted)));
			if (!grown)
				throw std::bad_alloc();
			records = grown;
			capacity = wanted;
		}
		Record &record = records[count++];
		std::memset(&record, 0, sizeof record);
		return record;
	}
};

char *copy_string(const std::string &text)
{
	char *copy = strdup(text.c_str());
	if (!copy)
		throw std::bad_alloc();
	return copy;
}

/* A copy of `value` as text: a text string, a name, or an array's items joined by '\n';
   NULL for anything else. */
char *text_of(const Object &value)
{
	if (value.isName() || value.isString())
		return cpoppler::copy_text(value);
	if (!value.isArray())
		return nullptr;
	std::string joined;
	for (int i = 0; i < value.arrayGetLength(); i++) {
		char *item = text_of(value.arrayGet(i));
		if (i > 0)
			joined += '\n';
		joined += item ? item : "";
		std::free(item);
	}
	return copy_string(joined);
}

} // namespace

int cpoppler::page_of(PDFDoc *doc, const Object &widget, Ref ref)
{
	const Object &page = widget.dictLookupNF("P");
	if (page.isRef()) {
		int number = doc->getCatalog()->findPage(page.getRef());
		if (number > 0)
			return number - 1;
	}
	if (ref == Ref::INVALID())
		return -1;
	for (int number = 1; number <= doc->getNumPages(); number++) {
		Page *candidate = doc->getPage(number);
		if (!candidate)
			continue;
		Object annots = candidate->getAnnotsObject();
		for (int k = 0; annots.isArray() && k < annots.arrayGetLength(); k++) {
			const Object &listed = annots.arrayGetNF(k);
			if (listed.isRef() && listed.getRef() == ref)
				return number - 1;
		}
	}
	return -1;
}

namespace {

void visit(PDFDoc *doc, std::set<int> &seen, const Object &reference, const std::string &parent, cpoppler::InheritedEntries entries, int depth,
	const cpoppler::TerminalField &terminal)
{
	if (depth > max_depth)
		return;
	Ref ref = Ref::INVALID();
	if (reference.isRef()) {
		ref = reference.getRef();
		if (!seen.insert(ref.num).second)
			return;
	}
	Object field = reference.fetch(doc->getXRef());
	if (!field.isDict())
		return;
	char *partial = field.dictLookupNF("T").isString() ? cpoppler::copy_text(field, "T") : nullptr;
	std::string own = partial ? partial : "";
	std::free(partial);
	std::string name = parent.empty() ? own : own.empty() ? parent : parent + "." + own;
	const std::pair<const char *, Object *> inheritable[] = {
		{ "FT", &entries.type }, { "Ff", &entries.flags }, { "V", &entries.value }, { "DV", &entries.default_value }, { "MaxLen", &entries.max_length },
	};
	for (const auto &[key, slot] : inheritable) {
		Object entry = field.dictLookup(key);
		if (!entry.isNull())
			*slot = std::move(entry);
	}
	Object kids = field.dictLookup("Kids");
	int kid_count = kids.isArray() ? kids.arrayGetLength() : 0;
	bool has_field_kids = false;
	for (int i = 0; i < kid_count; i++) {
		Object kid = kids.arrayGet(i);
		if (kid.isDict() && !kid.dictLookupNF("T").isNull())
			has_field_kids = true;
	}
	if (has_field_kids) {
		for (int i = 0; i < kid_count; i++)
			visit(doc, seen, kids.arrayGetNF(i), name, entries.copy(), depth + 1, terminal);
	} else if (kid_count > 0) {
		terminal(field, ref, name, entries, kids);
	} else {
		terminal(field, ref, name, entries, Object());
	}
}

} // namespace

void cpoppler::walk_fields(PDFDoc *doc, const TerminalField &terminal)
{
	std::set<int> seen;
	Object catalog = doc->getXRef()->getCatalog();
	Object form = catalog.isDict() ? catalog.dictLookup("AcroForm") : Object();
	Object fields = form.isDict() ? form.dictLookup("Fields") : Object();
	for (int i = 0; fields.isArray() && i < fields.arrayGetLength(); i++)
		visit(doc, seen, fields.arrayGetNF(i), "", cpoppler::InheritedEntries(), 0, terminal);
}

std::pair<Object, Ref> cpoppler::widget_at(const Object &field, Ref ref, const Object &widgets, int index)
{
	if (!widgets.isArray())
		return { field.copy(), ref };
	const Object &reference = widgets.arrayGetNF(index);
	return { widgets.arrayGet(index), reference.isRef() ? reference.getRef() : Ref::INVALID() };
}

namespace {

/* The name of `widget`'s "on" appearance state: the key of /AP /N other than Off. */
char *on_state(const Object &widget)
{
	Object appearance = widget.dictLookup("AP");
	Object normal = appearance.isDict() ? appearance.dictLookup("N") : Object();
	for (int i = 0; normal.isDict() && i < normal.dictGetLength(); i++) {
		const char *key = normal.dictGetKey(i);
		if (std::strcmp(key, "Off") != 0)
			return copy_string(key);
	}
	return nullptr;
}

char **new_strings(int count)
{
	auto *strings = static_cast<char **>(std::calloc(static_cast<size_t>(count > 0 ? count : 1), sizeof(char *)));
	if (!strings)
		throw std::bad_alloc();
	return strings;
}

} // namespace

extern "C" int cpoppler_core_signatures(cpoppler_core *doc, signature_record **records, long long *file_size)
{
	*records = nullptr;
	BaseStream *file = doc->doc->getBaseStream();
	*file_size = file ? static_cast<long long>(file->getLength()) : 0;
	PDFDoc *pdf = doc->doc.get();
	RecordList<signature_record> list;
	try {
		cpoppler::walk_fields(pdf, [&](const Object &field, Ref ref, const std::string &name, const cpoppler::InheritedEntries &entries, const Object &widgets) {
			if (!entries.type.isName("Sig"))
				return;
			signature_record &record = list.append();
			record.field = copy_string(name);
			auto [widget, widget_ref] = cpoppler::widget_at(field, ref, widgets, 0);
			record.page = cpoppler::page_of(pdf, widget, widget_ref);
			Object value = entries.value.fetch(pdf->getXRef());
			record.is_signed = value.isDict() ? 1 : 0;
			if (!record.is_signed)
				return;
			record.signer = text_of(value.dictLookup("Name"));
			record.reason = text_of(value.dictLookup("Reason"));
			record.location = text_of(value.dictLookup("Location"));
			record.date = text_of(value.dictLookup("M"));
			record.sub_filter = text_of(value.dictLookup("SubFilter"));
			Object ranges = value.dictLookup("ByteRange");
			int pairs = ranges.isArray() ? ranges.arrayGetLength() / 2 : 0;
			if (pairs > 0) {
				record.ranges = static_cast<long long *>(std::malloc(sizeof(long long) * 2 * static_cast<size_t>(pairs)));
				if (!record.ranges)
					throw std::bad_alloc();
				for (int i = 0; i < 2 * pairs; i++) {
					Object number = ranges.arrayGet(i);
					record.ranges[i] = number.isIntOrInt64() ? number.getIntOrInt64() : 0;
				}
				record.range_count = pairs;
			}
		});
	} catch (const std::bad_alloc &) {
		signature_records_free(list.records, list.count);
		return -1;
	}
	*records = list.records;
	return list.count;
}

extern "C" int cpoppler_core_form_fields(cpoppler_core *doc, form_field_record **records)
{
	*records = nullptr;
	PDFDoc *pdf = doc->doc.get();
	RecordList<form_field_record> list;
	try {
		cpoppler::walk_fields(pdf, [&](const Object &field, Ref ref, const std::string &name, const cpoppler::InheritedEntries &entries, const Object &widgets) {
			form_field_record &record = list.append();
			record.name = copy_string(name);
			std::strncpy(record.type, entries.type.isName() ? entries.type.getName() : "", sizeof record.type - 1);
			Object flags = entries.flags.fetch(pdf->getXRef());
			record.flags = flags.isInt() ? flags.getInt() : 0;
			Object value = entries.value.fetch(pdf->getXRef());
			/* A signature's value is its signature dictionary, listed by cpoppler_core_signatures. */
			if (!value.isDict())
				record.value = text_of(value);
			record.default_value = text_of(entries.default_value.fetch(pdf->getXRef()));
			Object max_length = entries.max_length.fetch(pdf->getXRef());
			record.max_length = max_length.isInt() ? max_length.getInt() : -1;

			Object options = field.dictLookup("Opt");
			int option_count = options.isArray() ? options.arrayGetLength() : 0;
			record.option_values = new_strings(option_count);
			record.option_labels = new_strings(option_count);
			record.option_count = option_count;
			for (int i = 0; i < option_count; i++) {
				Object option = options.arrayGet(i);
				bool pair = option.isArray() && option.arrayGetLength() >= 2;
				char *value_text = text_of(pair ? option.arrayGet(0) : option.copy());
				char *label_text = text_of(pair ? option.arrayGet(1) : option.copy());
				record.option_values[i] = copy_string(value_text ? value_text : "");
				record.option_labels[i] = copy_string(label_text ? label_text : "");
				std::free(value_text);
				std::free(label_text);
			}

			int widget_count = widgets.isArray() ? widgets.arrayGetLength() : 1;
			record.widget_pages = static_cast<int *>(std::malloc(sizeof(int) * static_cast<size_t>(widget_count)));
			record.widget_rects = static_cast<double *>(std::malloc(sizeof(double) * 4 * static_cast<size_t>(widget_count)));
			record.widget_states = new_strings(widget_count);
			record.widget_count = widget_count;
			if (!record.widget_pages || !record.widget_rects)
				throw std::bad_alloc();
			for (int i = 0; i < widget_count; i++) {
				auto [widget, widget_ref] = cpoppler::widget_at(field, ref, widgets, i);
				record.widget_pages[i] = cpoppler::page_of(pdf, widget, widget_ref);
				Object rect = widget.isDict() ? widget.dictLookup("Rect") : Object();
				double corners[4] = { 0, 0, 0, 0 };
				for (int k = 0; rect.isArray() && k < 4 && k < rect.arrayGetLength(); k++) {
					Object number = rect.arrayGet(k);
					corners[k] = number.isNum() ? number.getNum() : 0;
				}
				/* Lower-left first, as MuPDF reads a rectangle. */
				record.widget_rects[4 * i] = std::min(corners[0], corners[2]);
				record.widget_rects[4 * i + 1] = std::min(corners[1], corners[3]);
				record.widget_rects[4 * i + 2] = std::max(corners[0], corners[2]);
				record.widget_rects[4 * i + 3] = std::max(corners[1], corners[3]);
				if (entries.type.isName("Btn") && widget.isDict())
					record.widget_states[i] = on_state(widget);
			}
		});
	} catch (const std::bad_alloc &) {
		form_field_records_free(list.records, list.count);
		return -1;
	}
	*records = list.records;
	return list.count;
}
