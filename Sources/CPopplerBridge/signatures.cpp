#include "CPopplerCore.h"
#include "core.h"

#include <poppler/Catalog.h>
#include <poppler/Page.h>
#include <poppler/XRef.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <set>
#include <string>

/* The signature fields of the AcroForm's field tree, read from the objects as the MuPDF
   layer reads them: walked depth first in /Fields and /Kids order, an indirect field met a
   second time skipped, no deeper than 32 levels, so a field loop ends the walk there. */

namespace {

constexpr int max_depth = 32;

struct FieldWalk {
	PDFDoc *doc;
	signature_record *records = nullptr;
	int count = 0;
	int capacity = 0;
	std::set<int> seen;

	/* A new, zeroed record at the end. */
	signature_record &append()
	{
		if (count == capacity) {
			int wanted = capacity ? capacity * 2 : 8;
			auto *grown = static_cast<signature_record *>(std::realloc(records, sizeof(signature_record) * static_cast<size_t>(wanted)));
			if (!grown)
				throw std::bad_alloc();
			records = grown;
			capacity = wanted;
		}
		signature_record &record = records[count++];
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

/* The index of the page showing `widget` (the object `ref`): its /P, else the page whose
   /Annots lists it; -1 when neither is found. */
int page_of(PDFDoc *doc, const Object &widget, Ref ref)
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

void add_signature(FieldWalk &walk, const Object &field, const std::string &name, const Object &widget, Ref widget_ref)
{
	signature_record &record = walk.append();
	record.field = copy_string(name);
	record.page = page_of(walk.doc, widget, widget_ref);
	Object value = field.dictLookup("V");
	record.is_signed = value.isDict() ? 1 : 0;
	if (!record.is_signed)
		return;
	record.signer = cpoppler::copy_text(value, "Name");
	record.reason = cpoppler::copy_text(value, "Reason");
	record.location = cpoppler::copy_text(value, "Location");
	record.date = cpoppler::copy_text(value, "M");
	record.sub_filter = cpoppler::copy_text(value, "SubFilter");
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
}

void visit(FieldWalk &walk, const Object &reference, const std::string &parent, const Object &type, int depth)
{
	if (depth > max_depth)
		return;
	Ref ref = Ref::INVALID();
	if (reference.isRef()) {
		ref = reference.getRef();
		if (!walk.seen.insert(ref.num).second)
			return;
	}
	Object field = reference.fetch(walk.doc->getXRef());
	if (!field.isDict())
		return;
	char *partial = field.dictLookupNF("T").isString() ? cpoppler::copy_text(field, "T") : nullptr;
	std::string own = partial ? partial : "";
	std::free(partial);
	std::string name = parent.empty() ? own : own.empty() ? parent : parent + "." + own;
	Object own_type = field.dictLookup("FT");
	const Object &field_type = own_type.isName() ? own_type : type;
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
			visit(walk, kids.arrayGetNF(i), name, field_type, depth + 1);
	} else if (field_type.isName("Sig")) {
		if (kid_count > 0) {
			const Object &first = kids.arrayGetNF(0);
			add_signature(walk, field, name, kids.arrayGet(0), first.isRef() ? first.getRef() : Ref::INVALID());
		} else {
			add_signature(walk, field, name, field, ref);
		}
	}
}

} // namespace

extern "C" int cpoppler_core_signatures(cpoppler_core *doc, signature_record **records, long long *file_size)
{
	*records = nullptr;
	BaseStream *file = doc->doc->getBaseStream();
	*file_size = file ? static_cast<long long>(file->getLength()) : 0;
	FieldWalk walk { doc->doc.get() };
	try {
		Object catalog = doc->doc->getXRef()->getCatalog();
		Object form = catalog.isDict() ? catalog.dictLookup("AcroForm") : Object();
		Object fields = form.isDict() ? form.dictLookup("Fields") : Object();
		Object no_type;
		for (int i = 0; fields.isArray() && i < fields.arrayGetLength(); i++)
			visit(walk, fields.arrayGetNF(i), "", no_type, 0);
	} catch (const std::bad_alloc &) {
		signature_records_free(walk.records, walk.count);
		return -1;
	}
	*records = walk.records;
	return walk.count;
}
