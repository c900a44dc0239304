#include "CPopplerCore.h"
#include "core.h"

#include <poppler/Catalog.h>
#include <poppler/Form.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

/* Text and choice values written through Poppler's form API (its widgets' setters, which the
   library exports), which writes /V (and a multi-select choice field's /I) and gives the
   widgets new appearances. The MuPDF layer writes the same objects. The field is found by EngineSupport's walk of the field tree, so that both engines
   name fields alike, and reached in Poppler's form through its widgets. */

namespace {

/* The index in /Opt of the option whose export value is `value`; -1 when none is. */
int option_index(const Object &field, const char *value)
{
	Object options = field.dictLookup("Opt");
	for (int i = 0; options.isArray() && i < options.arrayGetLength(); i++) {
		Object option = options.arrayGet(i);
		Object exported = option.isArray() && option.arrayGetLength() >= 2 ? option.arrayGet(0) : std::move(option);
		char *text = cpoppler::copy_text(exported);
		bool same = text && std::strcmp(text, value) == 0;
		std::free(text);
		if (same)
			return i;
	}
	return -1;
}

cpoppler_status set_choice(FormWidgetChoice *choice, const Object &field, const char **values, int count)
{
	std::vector<int> indices;
	for (int i = 0; i < count; i++)
		indices.push_back(option_index(field, values[i]));
	if (count == 1 && indices[0] < 0) {
		choice->setEditChoice(cpoppler::utf16_text(values[0]).get());
		return CPOPPLER_OK;
	}
	choice->deselectAll();
	for (int index : indices) {
		if (index < 0)
			return CPOPPLER_ARGUMENT;
		if (choice->isMultiSelect())
			choice->toggle(index);
		else
			choice->select(index);
	}
	return CPOPPLER_OK;
}

/* Moves /V and /I from the kids Poppler wrote them into (widgets it holds as fields of
   their own) to the field `field_ref`, the first kid's values winning; the kids keep their
   new appearances. */
void move_value_to_field(XRef *xref, Ref field_ref, const std::vector<Ref> &kids)
{
	if (kids.empty() || field_ref == Ref::INVALID())
		return;
	Object field = xref->fetch(field_ref);
	if (!field.isDict())
		return;
	for (const char *key : {"V", "I"})
		field.dictRemove(key);
	for (size_t i = 0; i < kids.size(); i++) {
		Object kid = xref->fetch(kids[i]);
		if (!kid.isDict())
			continue;
		for (const char *key : {"V", "I"}) {
			Object value = kid.dictLookupNF(key).copy();
			if (value.isNull())
				continue;
			if (i == 0)
				field.dictSet(key, std::move(value));
			kid.dictRemove(key);
		}
		xref->setModifiedObject(&kid, kids[i]);
	}
	xref->setModifiedObject(&field, field_ref);
}

} // namespace

extern "C" int cpoppler_core_set_form_field(cpoppler_core *doc, const cpoppler_field_target *target, const char **values, int count)
{
	PDFDoc *pdf = doc->doc.get();
	try {
		XRef *xref = pdf->getXRef();
		Ref found_ref = cpoppler::reference(xref, target->field);
		Object found = found_ref == Ref::INVALID() ? Object() : xref->fetch(found_ref);
		if (!found.isDict())
			return CPOPPLER_UNSUPPORTED;
		std::vector<Ref> widget_refs;
		for (int i = 0; i < target->widget_count; i++)
			widget_refs.push_back(cpoppler::reference(xref, target->widgets[i]));
		/* Poppler's form is reached through each widget. A widget that is a kid of the field
		   (with /Parent, without /T) is a field of its own to Poppler, which writes the value
		   into that kid and draws only its appearance: so every widget is set, and the value
		   is then moved to the field the walk named, where readers look for it. */
		Form *form = pdf->getCatalog()->getForm();
		if (!form)
			return CPOPPLER_UNSUPPORTED;
		std::vector<Ref> kids_written;
		for (Ref widget_ref : widget_refs) {
			FormWidget *widget = form->findWidgetByRef(widget_ref);
			FormField *field = widget ? widget->getField() : nullptr;
			if (!field)
				return CPOPPLER_UNSUPPORTED;
			cpoppler_status status = CPOPPLER_OK;
			switch (field->getType()) {
			case formText:
				static_cast<FormWidgetText *>(widget)->setContent(cpoppler::utf16_text(count ? values[0] : "").get());
				break;
			case formChoice:
				status = set_choice(static_cast<FormWidgetChoice *>(widget), found, values, count);
				break;
			default:
				status = CPOPPLER_UNSUPPORTED;
			}
			if (status != CPOPPLER_OK)
				return status;
			if (field->getRef() != found_ref)
				kids_written.push_back(field->getRef());
		}
		move_value_to_field(xref, found_ref, kids_written);
		return CPOPPLER_OK;
	} catch (const std::bad_alloc &) {
		return CPOPPLER_OUT_OF_MEMORY;
	}
}

extern "C" int cpoppler_core_xfa_facts(cpoppler_core *doc)
{
	Object catalog = doc->doc->getXRef()->getCatalog();
	if (!catalog.isDict())
		return 0;
	Object form = catalog.dictLookup("AcroForm");
	Object rendering = catalog.dictLookup("NeedsRendering");
	return (form.isDict() && !form.dictLookup("XFA").isNull() ? 1 : 0) | (rendering.isBool() && rendering.getBool() ? 2 : 0);
}
