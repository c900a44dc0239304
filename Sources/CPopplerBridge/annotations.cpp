#include "CPopplerCore.h"
#include "core.h"

#include <poppler/Annot.h>
#include <poppler/AnnotStampImageHelper.h>
#include <poppler/Page.h>
#include <poppler/UTF.h>
#include <poppler/goo/gmem.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <vector>

using cpoppler::copy_text;
using cpoppler::pdf_text;
using cpoppler::utf16_text;

namespace {

// MARK: Reading

/* The numbers of the array at `key`; empty when it is not an array of numbers. */
std::vector<double> numbers(const Object &array)
{
	std::vector<double> values;
	if (!array.isArray())
		return values;
	for (int i = 0; i < array.arrayGetLength(); i++) {
		Object item = array.arrayGet(i);
		if (!item.isNum())
			return {};
		values.push_back(item.getNum());
	}
	return values;
}

double *copy_numbers(const std::vector<double> &values)
{
	auto *copy = static_cast<double *>(std::malloc(sizeof(double) * std::max<size_t>(values.size(), 1)));
	if (!copy)
		throw std::bad_alloc();
	std::copy(values.begin(), values.end(), copy);
	return copy;
}

int read_color(const Object &dict, const char *key, double color[4])
{
	std::vector<double> values = numbers(dict.dictLookup(key));
	if (values.size() != 1 && values.size() != 3 && values.size() != 4)
		return 0;
	std::copy(values.begin(), values.end(), color);
	return static_cast<int>(values.size());
}

/* The border width from /BS /W, else the third number of /Border. */
int read_border(const Object &dict, double *width)
{
	Object bs = dict.dictLookup("BS");
	if (bs.isDict()) {
		Object w = bs.dictLookup("W");
		if (w.isNum()) {
			*width = w.getNum();
			return 1;
		}
	}
	std::vector<double> border = numbers(dict.dictLookup("Border"));
	if (border.size() >= 3) {
		*width = border[2];
		return 1;
	}
	return 0;
}

bool has_icon(Annot::AnnotSubtype type)
{
	return type == Annot::typeText || type == Annot::typeStamp || type == Annot::typeFileAttachment || type == Annot::typeSound;
}

bool has_interior(Annot::AnnotSubtype type)
{
	return type == Annot::typeSquare || type == Annot::typeCircle || type == Annot::typeLine || type == Annot::typePolygon
		|| type == Annot::typePolyLine;
}

bool is_text_markup(Annot::AnnotSubtype type)
{
	return type == Annot::typeHighlight || type == Annot::typeUnderline || type == Annot::typeSquiggly
		|| type == Annot::typeStrikeOut;
}

bool is_markup(Annot::AnnotSubtype type)
{
	switch (type) {
	case Annot::typeText: case Annot::typeFreeText: case Annot::typeLine: case Annot::typeSquare:
	case Annot::typeCircle: case Annot::typePolygon: case Annot::typePolyLine: case Annot::typeHighlight:
	case Annot::typeUnderline: case Annot::typeSquiggly: case Annot::typeStrikeOut: case Annot::typeStamp:
	case Annot::typeCaret: case Annot::typeInk: case Annot::typeFileAttachment: case Annot::typeSound:
		return true;
	default:
		return false;
	}
}

void read_annot(Annot *annot, annotation_record *a)
{
	const Object &dict = annot->getAnnotObj();
	Object subtype = dict.dictLookup("Subtype");
	if (subtype.isName())
		std::strncpy(a->subtype, subtype.getName(), sizeof a->subtype - 1);
	a->name = copy_text(dict, "NM");
	const PDFRectangle &rect = annot->getRect();
	a->rect[0] = rect.x1, a->rect[1] = rect.y1, a->rect[2] = rect.x2, a->rect[3] = rect.y2;

	if (is_text_markup(annot->getType())) {
		std::vector<double> quads = numbers(dict.dictLookup("QuadPoints"));
		quads.resize(quads.size() / 8 * 8);
		a->quads = copy_numbers(quads);
		a->quad_count = static_cast<int>(quads.size() / 8);
	}
	if (annot->getType() == Annot::typeInk) {
		Object list = dict.dictLookup("InkList");
		std::vector<double> all;
		std::vector<int> counts;
		for (int i = 0; list.isArray() && i < list.arrayGetLength(); i++) {
			std::vector<double> path = numbers(list.arrayGet(i));
			counts.push_back(static_cast<int>(path.size() / 2));
			all.insert(all.end(), path.begin(), path.begin() + static_cast<long>(path.size() / 2 * 2));
		}
		a->ink = copy_numbers(all);
		a->ink_counts = static_cast<int *>(std::malloc(sizeof(int) * std::max<size_t>(counts.size(), 1)));
		if (!a->ink_counts)
			throw std::bad_alloc();
		std::copy(counts.begin(), counts.end(), a->ink_counts);
		a->ink_path_count = static_cast<int>(counts.size());
	}
	std::vector<double> points;
	if (annot->getType() == Annot::typeLine) {
		points = numbers(dict.dictLookup("L"));
		points.resize(points.size() >= 4 ? 4 : 0);
	} else if (annot->getType() == Annot::typePolygon || annot->getType() == Annot::typePolyLine) {
		points = numbers(dict.dictLookup("Vertices"));
		points.resize(points.size() / 2 * 2);
	}
	if (!points.empty()) {
		a->points = copy_numbers(points);
		a->point_count = static_cast<int>(points.size() / 2);
	}
	a->color_n = read_color(dict, "C", a->color);
	a->interior_n = read_color(dict, "IC", a->interior);
	Object ca = dict.dictLookup("CA");
	a->opacity = ca.isNum() ? ca.getNum() : 1;
	a->has_border = read_border(dict, &a->border);
	a->contents = copy_text(dict, "Contents");
	a->author = copy_text(dict, "T");
	a->subject = copy_text(dict, "Subj");
	a->state = copy_text(dict, "State");
	a->state_model = copy_text(dict, "StateModel");
	if (has_icon(annot->getType()))
		a->icon = copy_text(dict, "Name");
	a->created = copy_text(dict, "CreationDate");
	a->modified = copy_text(dict, "M");
	Object flags = dict.dictLookup("F");
	a->flags = flags.isInt() ? flags.getInt() : 0;
	if (annot->getType() == Annot::typeFreeText && dict.dictLookup("DA").isString()) {
		auto *text = static_cast<AnnotFreeText *>(annot);
		std::unique_ptr<DefaultAppearance> da = text->getDefaultAppearance();
		if (da && da->getFontName().isName()) {
			a->font = strdup(da->getFontName().getName());
			if (!a->font)
				throw std::bad_alloc();
			a->font_size = da->getFontPtSize();
			if (const AnnotColor *color = da->getFontColor()) {
				a->text_color_n = color->getSpace();
				for (int i = 0; i < a->text_color_n && i < 4; i++)
					a->text_color[i] = color->getValues()[i];
			}
			a->quadding = static_cast<int>(text->getQuadding());
		}
	}
}

// MARK: Finding

Page *page_of(cpoppler_core *doc, int index)
{
	if (index < 0 || index >= doc->doc->getNumPages())
		return nullptr;
	return doc->doc->getPage(index + 1);
}

/* Whether `annot` is a link: one Poppler read, or one added in this session, which the page
   holds as a plain Annot (objects.cpp). */
bool is_link(Annot *annot)
{
	if (annot->getType() == Annot::typeLink)
		return true;
	return annot->getType() == Annot::typeUnknown && annot->getAnnotObj().isDict() && annot->getAnnotObj().dictLookup("Subtype").isName("Link");
}

/* The page's annotations without links and popups, in /Annots order. */
std::vector<Annot *> listed(Page *page)
{
	std::vector<Annot *> result;
	Annots *annots = page->getAnnots();
	if (!annots)
		return result;
	for (Annot *annot : annots->getAnnots())
		if (!is_link(annot) && annot->getType() != Annot::typePopup)
			result.push_back(annot);
	return result;
}

Annot *annot_at(Page *page, int position)
{
	std::vector<Annot *> annots = listed(page);
	if (position < 0 || position >= static_cast<int>(annots.size()))
		return nullptr;
	return annots[static_cast<size_t>(position)];
}

// MARK: Writing

/* Sets or (for a NULL `text`) removes a text entry of the annotation's dictionary. */
void set_text(Annot *annot, const char *key, const char *text)
{
	Object &dict = const_cast<Object &>(annot->getAnnotObj());
	if (text)
		dict.dictSet(key, Object(pdf_text(text)));
	else
		dict.dictRemove(key);
	annot->getDoc()->getXRef()->setModifiedObject(&dict, annot->getRef());
}

void remove_entry(Annot *annot, const char *key)
{
	set_text(annot, key, nullptr);
}

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
PDFRectangle rect_for(Annot::AnnotSubtype type, const annotation_record *v)
{
	double margin = v->has_border ? std::max(v->border, 1.0) : 1.0;
	if (is_text_markup(type))
		return bounds(v->quads, v->quad_count * 4, 0);
	if (type == Annot::typeInk) {
		int total = 0;
		for (int i = 0; i < v->ink_path_count; i++)
			total += v->ink_counts[i];
		return bounds(v->ink, total, margin);
	}
	if (type == Annot::typeLine || type == Annot::typePolygon || type == Annot::typePolyLine)
		return bounds(v->points, v->point_count, margin);
	return PDFRectangle(v->rect[0], v->rect[1], v->rect[2], v->rect[3]);
}

/* Writes every field of `v` but the dates into `annot`. Poppler's setters drop the
   appearance stream of what they change. */
cpoppler_status apply_fields(Page *page, Annot *annot, const annotation_record *v)
{
	Annot::AnnotSubtype type = annot->getType();
	if (v->interior_n && !has_interior(type))
		return CPOPPLER_ARGUMENT;
	if (v->icon && !has_icon(type))
		return CPOPPLER_ARGUMENT;
	if (!is_markup(type) && (v->author || v->subject || v->created || v->opacity != 1))
		return CPOPPLER_ARGUMENT;

	PDFRectangle rect = rect_for(type, v);
	annot->setRect(&rect);
	if (is_text_markup(type)) {
		auto quads = std::make_unique<AnnotQuadrilaterals::AnnotQuadrilateral[]>(static_cast<size_t>(v->quad_count));
		for (int i = 0; i < v->quad_count; i++) {
			const double *q = v->quads + 8 * i;
			quads[static_cast<size_t>(i)] = AnnotQuadrilaterals::AnnotQuadrilateral(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]);
		}
		AnnotQuadrilaterals all(std::move(quads), v->quad_count);
		static_cast<AnnotTextMarkup *>(annot)->setQuadrilaterals(&all);
	}
	if (type == Annot::typeInk) {
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
	if (type == Annot::typeLine && v->point_count == 2)
		static_cast<AnnotLine *>(annot)->setVertices(v->points[0], v->points[1], v->points[2], v->points[3]);
	if (type == Annot::typePolygon || type == Annot::typePolyLine) {
		std::vector<AnnotCoord> coords;
		for (int i = 0; i < v->point_count; i++)
			coords.emplace_back(v->points[2 * i], v->points[2 * i + 1]);
		AnnotPath path(std::move(coords));
		static_cast<AnnotPolygon *>(annot)->setVertices(&path);
	}

	annot->setColor(color_of(v->color_n, v->color));
	switch (type) {
	case Annot::typeSquare: case Annot::typeCircle:
		static_cast<AnnotGeometry *>(annot)->setInteriorColor(color_of(v->interior_n, v->interior));
		break;
	case Annot::typeLine:
		static_cast<AnnotLine *>(annot)->setInteriorColor(color_of(v->interior_n, v->interior));
		break;
	case Annot::typePolygon: case Annot::typePolyLine:
		static_cast<AnnotPolygon *>(annot)->setInteriorColor(color_of(v->interior_n, v->interior));
		break;
	default:
		break;
	}
	remove_entry(annot, "BS");
	if (v->has_border) {
		auto border = std::make_unique<AnnotBorderArray>();
		border->setWidth(v->border);
		annot->setBorder(std::move(border));
	} else {
		remove_entry(annot, "Border");
	}
	if (v->font && type == Annot::typeFreeText) {
		auto *text = static_cast<AnnotFreeText *>(annot);
		text->setDefaultAppearance(DefaultAppearance(Object(objName, v->font), v->font_size, color_of(v->text_color_n, v->text_color)));
		text->setQuadding(static_cast<VariableTextQuadding>(v->quadding < 0 || v->quadding > 2 ? 0 : v->quadding));
	}
	annot->setContents(utf16_text(v->contents));
	if (!v->contents)
		remove_entry(annot, "Contents");
	if (is_markup(type)) {
		auto *markup = static_cast<AnnotMarkup *>(annot);
		markup->setOpacity(v->opacity);
		markup->setLabel(utf16_text(v->author));
		if (!v->author)
			remove_entry(annot, "T");
		set_text(annot, "Subj", v->subject);
	}
	if (v->icon) {
		GooString icon(v->icon);
		if (type == Annot::typeText)
			static_cast<AnnotText *>(annot)->setIcon(&icon);
		else if (type == Annot::typeStamp)
			static_cast<AnnotStamp *>(annot)->setIcon(&icon);
	}
	annot->setFlags(static_cast<unsigned int>(v->flags));
	if (v->name)
		set_text(annot, "NM", v->name);
	set_text(annot, "State", v->state);
	set_text(annot, "StateModel", v->state_model);
	Object &dict = const_cast<Object &>(annot->getAnnotObj());
	if (v->in_reply_to > 0) {
		Annot *root = annot_at(page, v->in_reply_to - 1);
		if (!root)
			return CPOPPLER_NO_ANNOTATION;
		dict.dictSet("IRT", Object(root->getRef()));
	} else
		dict.dictRemove("IRT");
	annot->getDoc()->getXRef()->setModifiedObject(&dict, annot->getRef());
	return CPOPPLER_OK;
}

/* Sets the dates; call it after every other change, because every setter stamps /M. */
void set_dates(Annot *annot, const annotation_record *v)
{
	if (is_markup(annot->getType())) {
		if (v->created) {
			GooString created(v->created);
			static_cast<AnnotMarkup *>(annot)->setDate(&created);
		} else {
			remove_entry(annot, "CreationDate");
		}
	}
	if (v->modified) {
		GooString modified(v->modified);
		annot->setModified(&modified);
	} else {
		remove_entry(annot, "M");
	}
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

/* Runs `edit` on the page and the listed annotation at `position` on it. */
template <typename Edit>
cpoppler_status edit_annot(cpoppler_core *doc, int page, int position, Edit edit)
{
	Page *p = page_of(doc, page);
	if (!p)
		return CPOPPLER_NO_PAGE;
	try {
		Annot *annot = annot_at(p, position);
		if (!annot)
			return CPOPPLER_NO_ANNOTATION;
		return edit(p, annot);
	} catch (const std::bad_alloc &) {
		return CPOPPLER_OUT_OF_MEMORY;
	}
}

} // namespace

extern "C" int cpoppler_core_page_annots(cpoppler_core *doc, int page, annotation_record **annots)
{
	*annots = nullptr;
	Page *p = page_of(doc, page);
	if (!p)
		return -1;
	annotation_record *list = nullptr;
	int count = 0;
	try {
		std::vector<Annot *> found = listed(p);
		list = static_cast<annotation_record *>(std::calloc(std::max<size_t>(found.size(), 1), sizeof *list));
		if (!list)
			return -1;
		for (Annot *annot : found)
			read_annot(annot, &list[count++]);
		/* Each reply's root, as 1 + its place among the records. */
		for (size_t i = 0; i < found.size(); i++) {
			Object root = found[i]->getAnnotObj().dictLookupNF("IRT").copy();
			if (!root.isRef())
				continue;
			auto place = std::find_if(found.begin(), found.end(), [&](Annot *other) { return other->getRef() == root.getRef(); });
			list[i].in_reply_to = place == found.end() ? -1 : static_cast<int>(place - found.begin()) + 1;
		}
	} catch (const std::bad_alloc &) {
		annotation_records_free(list, count);
		return -1;
	}
	*annots = list;
	return count;
}

extern "C" cpoppler_status cpoppler_core_create_annot(cpoppler_core *doc, int page, const annotation_record *values)
{
	Page *p = page_of(doc, page);
	if (!p)
		return CPOPPLER_NO_PAGE;
	try {
		PDFRectangle rect = rect_for(Annot::typeUnknown, values);
		Annot *annot = create(doc->doc.get(), values->subtype, &rect);
		if (!annot)
			return CPOPPLER_UNSUPPORTED;
		cpoppler_status status = apply_fields(p, annot, values);
		if (status == CPOPPLER_OK) {
			p->addAnnot(annot);
			set_dates(annot, values);
		} else
			doc->doc->getXRef()->removeIndirectObject(annot->getRef());
		annot->decRefCnt();
		return status;
	} catch (const std::bad_alloc &) {
		return CPOPPLER_OUT_OF_MEMORY;
	}
}

extern "C" cpoppler_status cpoppler_core_update_annot(cpoppler_core *doc, int page, int position, const annotation_record *values)
{
	return edit_annot(doc, page, position, [values](Page *p, Annot *annot) {
		Object kept;
		if (annot->getType() == Annot::typeStamp) {
			const GooString *icon = static_cast<AnnotStamp *>(annot)->getIcon();
			if (!values->icon || (icon && icon->cmp(values->icon) == 0))
				kept = annot->getAppearance();
		}
		cpoppler_status status = apply_fields(p, annot, values);
		if (status == CPOPPLER_OK) {
			if (kept.isStream())
				annot->setNewAppearance(std::move(kept));
			set_dates(annot, values);
		}
		return status;
	});
}

extern "C" cpoppler_status cpoppler_core_name_annot(cpoppler_core *doc, int page, int position, const char *name)
{
	return edit_annot(doc, page, position, [name](Page *, Annot *annot) {
		set_text(annot, "NM", name);
		return CPOPPLER_OK;
	});
}

extern "C" cpoppler_status cpoppler_core_delete_annot(cpoppler_core *doc, int page, int position)
{
	return edit_annot(doc, page, position, [](Page *p, Annot *annot) {
		if (annot->getType() == Annot::typeWidget)
			return CPOPPLER_UNSUPPORTED;
		/* The page drops its reference while removing, and uses the annotation after. */
		annot->incRefCnt();
		p->removeAnnot(annot);
		annot->decRefCnt();
		return CPOPPLER_OK;
	});
}

extern "C" cpoppler_status cpoppler_core_set_stamp_image(cpoppler_core *doc, int page, int position, int width, int height,
	const unsigned char *rgb, const unsigned char *alpha)
{
	if (width <= 0 || height <= 0 || static_cast<long long>(width) * height * 3 > std::numeric_limits<int>::max())
		return CPOPPLER_ARGUMENT;
	return edit_annot(doc, page, position, [&](Page *, Annot *annot) {
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
