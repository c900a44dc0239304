#include "CPopplerCore.h"
#include "core.h"

#include <poppler/Annot.h>
#include <poppler/AnnotStampImageHelper.h>
#include <poppler/Page.h>
#include <poppler/UTF.h>
#include <poppler/goo/gmem.h>

#include <algorithm>
#include <limits>
#include <new>
#include <string>
#include <vector>

using cpoppler::utf16_text;

namespace {

// MARK: Finding

Page *page_of(cpoppler_core *doc, int index)
{
	if (index < 0 || index >= doc->doc->getNumPages())
		return nullptr;
	return doc->doc->getPage(index + 1);
}

/* The annotation object `num` of the page; NULL when the page has none. */
Annot *annot_with(Page *page, int num)
{
	Annots *annots = page->getAnnots();
	if (!annots)
		return nullptr;
	for (Annot *annot : annots->getAnnots())
		if (annot->getRef().num == num)
			return annot;
	return nullptr;
}

// MARK: Writing

std::unique_ptr<AnnotColor> color_of(int n, const double c[4])
{
	switch (n) {
	case 1: return std::make_unique<AnnotColor>(c[0]);
	case 3: return std::make_unique<AnnotColor>(c[0], c[1], c[2]);
	case 4: return std::make_unique<AnnotColor>(c[0], c[1], c[2], c[3]);
	default: return nullptr;
	}
}

/* The bounds of `count` points (x, y pairs), widened by `margin`. */
PDFRectangle bounds(const double *xy, int count, double margin)
{
	double x0 = std::numeric_limits<double>::max(), y0 = x0, x1 = -x0, y1 = -x0;
	for (int i = 0; i < count; i++) {
		x0 = std::min(x0, xy[2 * i]), x1 = std::max(x1, xy[2 * i]);
		y0 = std::min(y0, xy[2 * i + 1]), y1 = std::max(y1, xy[2 * i + 1]);
	}
	if (count == 0)
		return PDFRectangle();
	return PDFRectangle(x0 - margin, y0 - margin, x1 + margin, y1 + margin);
}

/* The rectangle for `v`: the caller's, or the bounds of the geometry of kinds drawn from it. */
PDFRectangle rect_for(const annotation_record *v)
{
	double margin = std::max(v->border, 1.0);
	switch (v->geometry) {
	case ANNOTATION_GEOMETRY_QUADS:
		return bounds(v->quads, v->quad_count * 4, 0);
	case ANNOTATION_GEOMETRY_INK: {
		int total = 0;
		for (int i = 0; i < v->ink_path_count; i++)
			total += v->ink_counts[i];
		return bounds(v->ink, total, margin);
	}
	case ANNOTATION_GEOMETRY_LINE: case ANNOTATION_GEOMETRY_VERTICES:
		return bounds(v->points, v->point_count, margin);
	case ANNOTATION_GEOMETRY_RECT:
		break;
	}
	return PDFRectangle(v->rect[0], v->rect[1], v->rect[2], v->rect[3]);
}

/* Writes the record's shape, text style and icon into `annot`, a markup annotation of the
   kind `v` names (the API creates and changes no other), as the record's traits say the
   kind has them; which Poppler class holds each is Poppler's. Poppler's setters drop the
   appearance stream of what they change. */
cpoppler_status apply_fields(Annot *annot, const annotation_record *v)
{
	/* The casts below hold for the kind the record names, and only for it. */
	if (!annot->getAnnotObj().dictLookup("Subtype").isName(v->subtype))
		return CPOPPLER_ARGUMENT;
	Annot::AnnotSubtype type = annot->getType();
	PDFRectangle rect = rect_for(v);
	annot->setRect(&rect);
	if (v->geometry == ANNOTATION_GEOMETRY_QUADS) {
		auto quads = std::make_unique<AnnotQuadrilaterals::AnnotQuadrilateral[]>(static_cast<size_t>(v->quad_count));
		for (int i = 0; i < v->quad_count; i++) {
			const double *q = v->quads + 8 * i;
			quads[static_cast<size_t>(i)] = AnnotQuadrilaterals::AnnotQuadrilateral(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]);
		}
		AnnotQuadrilaterals all(std::move(quads), v->quad_count);
		static_cast<AnnotTextMarkup *>(annot)->setQuadrilaterals(&all);
	}
	if (v->geometry == ANNOTATION_GEOMETRY_INK) {
		std::vector<std::unique_ptr<AnnotPath>> paths;
		std::vector<AnnotPath *> pointers;
		const double *next = v->ink;
		for (int i = 0; i < v->ink_path_count; i++) {
			std::vector<AnnotCoord> coords;
			for (int j = 0; j < v->ink_counts[i]; j++, next += 2)
				coords.emplace_back(next[0], next[1]);
			paths.push_back(std::make_unique<AnnotPath>(std::move(coords)));
			pointers.push_back(paths.back().get());
		}
		static_cast<AnnotInk *>(annot)->setInkList(pointers.data(), static_cast<int>(pointers.size()));
	}
	if (v->geometry == ANNOTATION_GEOMETRY_LINE && v->point_count == 2)
		static_cast<AnnotLine *>(annot)->setVertices(v->points[0], v->points[1], v->points[2], v->points[3]);
	if (v->geometry == ANNOTATION_GEOMETRY_VERTICES) {
		std::vector<AnnotCoord> coords;
		for (int i = 0; i < v->point_count; i++)
			coords.emplace_back(v->points[2 * i], v->points[2 * i + 1]);
		AnnotPath path(std::move(coords));
		static_cast<AnnotPolygon *>(annot)->setVertices(&path);
	}
	if (v->font && v->has_text_style) {
		auto *text = static_cast<AnnotFreeText *>(annot);
		text->setDefaultAppearance(DefaultAppearance(Object(objName, v->font), v->font_size, color_of(v->text_color_n, v->text_color)));
		text->setQuadding(static_cast<VariableTextQuadding>(v->quadding < 0 || v->quadding > 2 ? 0 : v->quadding));
	}
	if (v->icon && v->has_icon) {
		GooString icon(v->icon);
		if (type == Annot::typeText)
			static_cast<AnnotText *>(annot)->setIcon(&icon);
		else if (type == Annot::typeStamp)
			static_cast<AnnotStamp *>(annot)->setIcon(&icon);
	}
	return CPOPPLER_OK;
}

/* A new annotation of `subtype` on the document, or NULL for a kind Poppler cannot create. */
Annot *create(PDFDoc *doc, const char *subtype, PDFRectangle *rect)
{
	std::string kind = subtype;
	if (kind == "Text")
		return new AnnotText(doc, rect);
	if (kind == "FreeText") {
		auto *annot = new AnnotFreeText(doc, rect);
		annot->setDefaultAppearance(DefaultAppearance(Object(objName, "Helv"), 12, std::make_unique<AnnotColor>(0, 0, 0)));
		return annot;
	}
	if (kind == "Line")
		return new AnnotLine(doc, rect);
	if (kind == "Square")
		return new AnnotGeometry(doc, rect, Annot::typeSquare);
	if (kind == "Circle")
		return new AnnotGeometry(doc, rect, Annot::typeCircle);
	if (kind == "Polygon")
		return new AnnotPolygon(doc, rect, Annot::typePolygon);
	if (kind == "PolyLine")
		return new AnnotPolygon(doc, rect, Annot::typePolyLine);
	if (kind == "Highlight")
		return new AnnotTextMarkup(doc, rect, Annot::typeHighlight);
	if (kind == "Underline")
		return new AnnotTextMarkup(doc, rect, Annot::typeUnderline);
	if (kind == "Squiggly")
		return new AnnotTextMarkup(doc, rect, Annot::typeSquiggly);
	if (kind == "StrikeOut")
		return new AnnotTextMarkup(doc, rect, Annot::typeStrikeOut);
	if (kind == "Stamp")
		return new AnnotStamp(doc, rect);
	if (kind == "Ink")
		return new AnnotInk(doc, rect);
	return nullptr;
}

/* Runs `edit` on the page and its annotation object `num`. */
template <typename Edit>
cpoppler_status edit_annot(cpoppler_core *doc, int page, int num, Edit edit)
{
	Page *p = page_of(doc, page);
	if (!p)
		return CPOPPLER_NO_PAGE;
	try {
		Annot *annot = annot_with(p, num);
		if (!annot)
			return CPOPPLER_NO_ANNOTATION;
		return edit(p, annot);
	} catch (const std::bad_alloc &) {
		return CPOPPLER_OUT_OF_MEMORY;
	}
}

} // namespace

extern "C" cpoppler_status cpoppler_core_create_annot(cpoppler_core *doc, int page, const annotation_record *values, int *num)
{
	Page *p = page_of(doc, page);
	if (!p)
		return CPOPPLER_NO_PAGE;
	try {
		PDFRectangle rect = rect_for(values);
		Annot *annot = create(doc->doc.get(), values->subtype, &rect);
		if (!annot)
			return CPOPPLER_UNSUPPORTED;
		p->addAnnot(annot);
		*num = annot->getRef().num;
		annot->decRefCnt();
		return CPOPPLER_OK;
	} catch (const std::bad_alloc &) {
		return CPOPPLER_OUT_OF_MEMORY;
	}
}

extern "C" cpoppler_status cpoppler_core_update_annot(cpoppler_core *doc, int page, int num, const annotation_record *values)
{
	return edit_annot(doc, page, num, [values](Page *, Annot *annot) {
		Object kept;
		if (annot->getType() == Annot::typeStamp) {
			const GooString *icon = static_cast<AnnotStamp *>(annot)->getIcon();
			if (!values->icon || (icon && icon->cmp(values->icon) == 0))
				kept = annot->getAppearance();
		}
		cpoppler_status status = apply_fields(annot, values);
		if (status == CPOPPLER_OK) {
			if (kept.isStream())
				annot->setNewAppearance(std::move(kept));
		}
		return status;
	});
}

extern "C" cpoppler_status cpoppler_core_set_annot_entries(cpoppler_core *doc, int page, int num, const char *const *keys, const char *values)
{
	return edit_annot(doc, page, num, [&](Page *, Annot *annot) {
		Object items = cpoppler::parse(doc->doc->getXRef(), values);
		int count = 0;
		while (keys[count])
			count++;
		if (!items.isArray() || items.arrayGetLength() != count)
			return CPOPPLER_ARGUMENT;
		/* Into the copy of its dictionary the annotation keeps, which its setters write back whole. */
		Object &dict = const_cast<Object &>(annot->getAnnotObj());
		for (int i = 0; i < count; i++) {
			const Object &value = items.arrayGetNF(i);
			if (value.isNull())
				dict.dictRemove(keys[i]);
			else
				dict.dictSet(keys[i], value.copy());
		}
		annot->getDoc()->getXRef()->setModifiedObject(&dict, annot->getRef());
		return CPOPPLER_OK;
	});
}

extern "C" cpoppler_status cpoppler_core_delete_annot(cpoppler_core *doc, int page, int num)
{
	return edit_annot(doc, page, num, [](Page *p, Annot *annot) {
		if (annot->getType() == Annot::typeWidget)
			return CPOPPLER_UNSUPPORTED;
		/* The page drops its reference while removing, and uses the annotation after. */
		annot->incRefCnt();
		p->removeAnnot(annot);
		annot->decRefCnt();
		return CPOPPLER_OK;
	});
}

extern "C" cpoppler_status cpoppler_core_set_stamp_image(cpoppler_core *doc, int page, int num, int width, int height,
	const unsigned char *rgb, const unsigned char *alpha)
{
	if (width <= 0 || height <= 0 || static_cast<long long>(width) * height * 3 > std::numeric_limits<int>::max())
		return CPOPPLER_ARGUMENT;
	return edit_annot(doc, page, num, [&](Page *, Annot *annot) {
		if (annot->getType() != Annot::typeStamp)
			return CPOPPLER_UNSUPPORTED;
		PDFDoc *pdf = doc->doc.get();
		char *colour = const_cast<char *>(reinterpret_cast<const char *>(rgb));
		AnnotStampImageHelper *image;
		if (alpha) {
			/* The helper adds its image to the document: the mask's helper is needed only for
			   its reference. The stamp owns (and deletes) the image's helper. */
			AnnotStampImageHelper mask(pdf, width, height, DeviceGray, 8, const_cast<char *>(reinterpret_cast<const char *>(alpha)), width * height);
			image = new AnnotStampImageHelper(pdf, width, height, DeviceRGB, 8, colour, width * height * 3, mask.getRef());
		} else {
			image = new AnnotStampImageHelper(pdf, width, height, DeviceRGB, 8, colour, width * height * 3);
		}
		static_cast<AnnotStamp *>(annot)->setCustomImage(image);
		return CPOPPLER_OK;
	});
}
