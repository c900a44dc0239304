#include "CPopplerCore.h"
#include "core.h"

#include <poppler/Catalog.h>
#include <poppler/OptionalContent.h>
#include <poppler/XRef.h>

#include <cstdlib>
#include <memory>
#include <new>

/* Optional content as the file lists it: poppler-glib lists the groups in the order of the
   default configuration's /Order tree (some not at all), and no configuration but the
   default; the core API gives the catalog's list in its order, each group's default state
   as Poppler parsed it, and every configuration dictionary. */

namespace {

struct FreeText {
	void operator()(char *text) const { std::free(text); }
};
using Text = std::unique_ptr<char, FreeText>;

/* /OCProperties, or none. */
Object properties_of(cpoppler_core *doc)
{
	Object catalog = doc->doc->getXRef()->getCatalog();
	return catalog.isDict() ? catalog.dictLookup("OCProperties") : Object();
}

} // namespace

extern "C" int cpoppler_core_layers(cpoppler_core *doc, cpoppler_layer_callback each, void *user)
{
	try {
		Object properties = properties_of(doc);
		if (!properties.isDict())
			return 1;
		Object groups = properties.dictLookup("OCGs");
		if (!groups.isArray())
			return 1;
		OCGs *parsed = doc->doc->getCatalog()->getOptContentConfig();
		for (int i = 0; i < groups.arrayGetLength(); i++) {
			Object reference = groups.arrayGetNF(i).copy();
			Object group = groups.arrayGet(i);
			Text name(group.isDict() ? cpoppler::copy_text(group, "Name") : nullptr);
			OptionalContentGroup *state = parsed && reference.isRef() ? parsed->findOcgByRef(reference.getRef()) : nullptr;
			each(user, name ? name.get() : "", !state || state->getState() == OptionalContentGroup::On);
		}
	} catch (const std::bad_alloc &) {
		return 0;
	}
	return 1;
}

extern "C" int cpoppler_core_layer_configurations(cpoppler_core *doc, cpoppler_layer_configuration_callback each, void *user)
{
	try {
		Object properties = properties_of(doc);
		if (!properties.isDict())
			return 1;
		auto report = [&](const Object &configuration, int is_default) {
			bool readable = configuration.isDict();
			Text name(readable ? cpoppler::copy_text(configuration, "Name") : nullptr);
			Text creator(readable ? cpoppler::copy_text(configuration, "Creator") : nullptr);
			each(user, name.get(), creator.get(), is_default);
		};
		report(properties.dictLookup("D"), 1);
		Object configurations = properties.dictLookup("Configs");
		for (int i = 0; configurations.isArray() && i < configurations.arrayGetLength(); i++) {
			Object configuration = configurations.arrayGet(i);
			if (configuration.isDict())
				report(configuration, 0);
		}
	} catch (const std::bad_alloc &) {
		return 0;
	}
	return 1;
}
