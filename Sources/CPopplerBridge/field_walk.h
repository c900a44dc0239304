#ifndef CPOPPLERCPP_FIELD_WALK_H
#define CPOPPLERCPP_FIELD_WALK_H

#include <poppler/Object.h>
#include <poppler/PDFDoc.h>

#include <functional>
#include <string>
#include <utility>

/* The walk of the AcroForm's field tree that the field, signature and filling functions
   share, the same walk as the MuPDF layer's: depth first in /Fields and /Kids order, with
   /FT, /Ff, /V, /DV and /MaxLen passed down from the ancestors that set them, an indirect
   field met a second time skipped, no deeper than 32 levels, so a field loop ends the walk
   there. */

namespace cpoppler {

/* What a field inherits from its ancestors (ISO 32000-1, 12.7.3.1). */
struct InheritedEntries {
	Object type, flags, value, default_value, max_length;

	InheritedEntries copy() const
	{
		return { type.copy(), flags.copy(), value.copy(), default_value.copy(), max_length.copy() };
	}
};

/* Called for each terminal field with its name, what it inherits and its widgets: its /Kids,
   or none when the field is its own widget. */
using TerminalField = std::function<void(const Object &field, Ref ref, const std::string &name, const InheritedEntries &entries, const Object &widgets)>;

/* Calls `terminal` for each terminal field of the document's form. */
void walk_fields(PDFDoc *doc, const TerminalField &terminal);

/* The widget at `index` of a terminal field's widgets (the field itself when `widgets` is
   not an array), with its reference. */
std::pair<Object, Ref> widget_at(const Object &field, Ref ref, const Object &widgets, int index);

/* The index of the page showing `widget` (the object `ref`): its /P, else the page whose
   /Annots lists it; -1 when neither is found. */
int page_of(PDFDoc *doc, const Object &widget, Ref ref);

} // namespace cpoppler

#endif
