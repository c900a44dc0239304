#include "CPopplerCore.h"
#include "core.h"

#include <poppler/Catalog.h>
#include <poppler/Form.h>

#include <new>
#include <string>
#include <vector>

/* Text and choice values given to Poppler's form API (its widgets' setters, which the library
   exports), which gives the widgets new appearances (and writes /V and /I, which
   EngineSupport then writes once for every engine). The field is found by EngineSupport's
   walk of the field tree, so that both engines name fields alike, and reached in Poppler's
   form through its widgets. */

namespace {

/* Chooses the options `value` gives, or, for one value that is no option, sets it as the
   combo box's own text. */
cpoppler_status select_choices(FormWidgetChoice *choice, const form_field_value *value)
{
	if (value->value_count == 1 && value->option_indices[0] < 0) {
		choice->setEditChoice(cpoppler::utf16_text(value->values[0]).get());
		return CPOPPLER_OK;
	}
	choice->deselectAll();
	for (int i = 0; i < value->value_count; i++) {
		int index = value->option_indices[i];
		if (index < 0)
			return CPOPPLER_ARGUMENT;
		if (choice->isMultiSelect())
			choice->toggle(index);
		else
			choice->select(index);
	}
	return CPOPPLER_OK;
}

/* Removes /V and /I from the kids Poppler wrote them into (widgets it holds as fields of
   their own); the kids keep their new appearances. */
void clear_kid_values(XRef *xref, const std::vector<Ref> &kids)
{
	for (Ref ref : kids) {
		Object kid = xref->fetch(ref);
		if (!kid.isDict())
			continue;
		for (const char *key : {"V", "I"})
			kid.dictRemove(key);
		xref->setModifiedObject(&kid, ref);
	}
}

} // namespace

extern "C" int cpoppler_core_set_form_field(cpoppler_core *doc, const form_field_value *value)
{
	PDFDoc *pdf = doc->doc.get();
	try {
		XRef *xref = pdf->getXRef();
		Ref found_ref = cpoppler::reference(xref, value->field);
		Object found = found_ref == Ref::INVALID() ? Object() : xref->fetch(found_ref);
		if (!found.isDict())
			return CPOPPLER_UNSUPPORTED;
		std::vector<Ref> widget_refs;
		for (int i = 0; i < value->widget_count; i++)
			widget_refs.push_back(cpoppler::reference(xref, value->widgets[i]));
		/* Poppler's form is reached through each widget. A widget that is a kid of the field
		   (with /Parent, without /T) is a field of its own to Poppler, which writes the value
		   into that kid and draws only its appearance: so every widget is set, and the value
		   is then removed from the kids (EngineSupport writes it into the field the walk
		   named, where readers look for it). */
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
				static_cast<FormWidgetText *>(widget)->setContent(cpoppler::utf16_text(value->value_count ? value->values[0] : "").get());
				break;
			case formChoice:
				status = select_choices(static_cast<FormWidgetChoice *>(widget), value);
				break;
			default:
				status = CPOPPLER_UNSUPPORTED;
			}
			if (status != CPOPPLER_OK)
				return status;
			if (field->getRef() != found_ref)
				kids_written.push_back(field->getRef());
		}
		clear_kid_values(xref, kids_written);
		return CPOPPLER_OK;
	} catch (const std::bad_alloc &) {
		return CPOPPLER_OUT_OF_MEMORY;
	}
}
