#include "CPopplerCore.h"
#include "core.h"

#include <poppler/Annot.h>
#include <poppler/Catalog.h>
#include <poppler/Page.h>
#include <poppler/Parser.h>
#include <poppler/XRef.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

/* PDF objects: the primitives EngineSupport's PDFObjectEditing writes outline and link
   edits on, mirroring cmupdf_objects.c. Changed objects are handed to the XRef, so Poppler
   writes them in an incremental update. */

Object cpoppler::parse(XRef *xref, const char *syntax)
{
	/* The parser's lexer owns the stream. */
	auto *stream = new MemStream(syntax, 0, static_cast<Goffset>(std::strlen(syntax)), Object(objNull));
	Parser parser(xref, stream, false);
	return parser.getObj();
}

using cpoppler::parse;

namespace {

void emit(const Object &obj, int depth, pdf_token_callback each, void *user);

void emit(const Dict *dict, int depth, pdf_token_callback each, void *user)
{
	each(user, PDF_TOKEN_DICT_BEGIN, 0, 0, nullptr, 0);
	for (int i = 0; i < dict->getLength(); i++) {
		const char *key = dict->getKey(i);
		each(user, PDF_TOKEN_KEY, 0, 0, key, std::strlen(key));
		emit(dict->getValNF(i), depth + 1, each, user);
	}
	each(user, PDF_TOKEN_DICT_END, 0, 0, nullptr, 0);
}

/* Hands `obj` to `each` as tokens, `depth` levels down. */
void emit(const Object &obj, int depth, pdf_token_callback each, void *user)
{
	if (depth > PDF_TOKEN_MAX_DEPTH) {
		each(user, PDF_TOKEN_NULL, 0, 0, nullptr, 0);
	} else if (obj.isRef()) {
		each(user, PDF_TOKEN_REFERENCE, obj.getRef().num, obj.getRef().gen, nullptr, 0);
	} else if (obj.isBool()) {
		each(user, PDF_TOKEN_BOOL, obj.getBool() ? 1 : 0, 0, nullptr, 0);
	} else if (obj.isInt() || obj.isInt64()) {
		each(user, PDF_TOKEN_INTEGER, obj.getNum(), 0, nullptr, 0);
	} else if (obj.isReal()) {
		each(user, PDF_TOKEN_REAL, obj.getReal(), 0, nullptr, 0);
	} else if (obj.isName()) {
		each(user, PDF_TOKEN_NAME, 0, 0, obj.getName(), std::strlen(obj.getName()));
	} else if (obj.isString()) {
		each(user, PDF_TOKEN_STRING, 0, 0, obj.getString()->c_str(), obj.getString()->getLength());
	} else if (obj.isArray()) {
		each(user, PDF_TOKEN_ARRAY_BEGIN, 0, 0, nullptr, 0);
		for (int i = 0; i < obj.arrayGetLength(); i++)
			emit(obj.arrayGetNF(i), depth + 1, each, user);
		each(user, PDF_TOKEN_ARRAY_END, 0, 0, nullptr, 0);
	} else if (obj.isDict()) {
		emit(obj.getDict(), depth, each, user);
	} else if (obj.isStream()) {
		emit(obj.getStream()->getDict(), depth, each, user);
	} else {
		each(user, PDF_TOKEN_NULL, 0, 0, nullptr, 0);
	}
}

} // namespace

Ref cpoppler::reference(XRef *xref, int num)
{
	if (num <= 0 || num >= xref->getNumObjects())
		return Ref::INVALID();
	XRefEntry *entry = xref->getEntry(num, false);
	if (!entry || entry->type == xrefEntryFree)
		return Ref::INVALID();
	return { num, entry->type == xrefEntryCompressed ? 0 : entry->gen };
}

extern "C" int cpoppler_core_catalog_reference(cpoppler_core *doc, int *num, int *gen)
{
	Ref root = doc->doc->getXRef()->getRoot();
	*num = root.num;
	*gen = root.gen;
	return root.num > 0;
}

extern "C" int cpoppler_core_page_reference(cpoppler_core *doc, int index, int *num, int *gen)
{
	if (index < 0 || index >= doc->doc->getNumPages())
		return 0;
	const Ref *ref = doc->doc->getCatalog()->getPageRef(index + 1);
	if (!ref)
		return 0;
	*num = ref->num;
	*gen = ref->gen;
	return 1;
}

extern "C" int cpoppler_core_object_tokens(cpoppler_core *doc, int num, pdf_token_callback each, void *user)
{
	try {
		XRef *xref = doc->doc->getXRef();
		Ref ref = cpoppler::reference(xref, num);
		if (ref == Ref::INVALID())
			emit(Object(objNull), 0, each, user);
		else
			emit(xref->fetch(ref), 0, each, user);
		return 1;
	} catch (const std::bad_alloc &) {
		return 0;
	}
}

extern "C" int cpoppler_core_trailer_tokens(cpoppler_core *doc, pdf_token_callback each, void *user)
{
	try {
		emit(*doc->doc->getXRef()->getTrailerDict(), 0, each, user);
		return 1;
	} catch (const std::bad_alloc &) {
		return 0;
	}
}

extern "C" long long cpoppler_core_file_length(cpoppler_core *doc)
{
	BaseStream *file = doc->doc->getBaseStream();
	return file ? static_cast<long long>(file->getLength()) : 0;
}

extern "C" int cpoppler_core_stream_contents(cpoppler_core *doc, int num, long limit, int decoded, char **bytes, long *length)
{
	*bytes = nullptr;
	*length = 0;
	try {
		XRef *xref = doc->doc->getXRef();
		Ref ref = cpoppler::reference(xref, num);
		Object obj = ref == Ref::INVALID() ? Object(objNull) : xref->fetch(ref);
		if (!obj.isStream() || limit < 0 || limit >= INT_MAX)
			return 1;
		/* Below the filters: the decryption (which counts itself undecoded), else the bytes
		   of the file. */
		Stream *stream = decoded ? obj.getStream() : obj.getStream()->getUndecodedStream();
		/* Read in growing chunks: the limit is a bound, not the size to expect. */
		std::vector<unsigned char> data;
		long count = 0;
		stream->reset();
		while (count <= limit) {
			long chunk = std::min<long>(std::max<long>(count, 65536), limit + 1 - count);
			data.resize(static_cast<size_t>(count + chunk));
			int got = stream->doGetChars(static_cast<int>(chunk), data.data() + count);
			if (got <= 0)
				break;
			count += got;
		}
		stream->close();
		if (count > limit)
			return 1;
		*bytes = static_cast<char *>(std::malloc(count > 0 ? static_cast<size_t>(count) : 1));
		if (!*bytes)
			return 0;
		std::memcpy(*bytes, data.data(), static_cast<size_t>(count));
		*length = count;
		return 1;
	} catch (const std::bad_alloc &) {
		return 0;
	}
}

extern "C" cpoppler_status cpoppler_core_add_object(cpoppler_core *doc, const char *syntax, int *num)
{
	try {
		XRef *xref = doc->doc->getXRef();
		Object obj = parse(xref, syntax);
		if (obj.isError() || obj.isEOF())
			return CPOPPLER_ARGUMENT;
		*num = xref->addIndirectObject(obj).num;
		return CPOPPLER_OK;
	} catch (const std::bad_alloc &) {
		return CPOPPLER_OUT_OF_MEMORY;
	}
}

extern "C" cpoppler_status cpoppler_core_add_stream(cpoppler_core *doc, const char *syntax, const char *bytes, long length, int *num)
{
	XRef *xref = doc->doc->getXRef();
	/* The stream frees its buffer with gfree, which is free. */
	char *buffer = static_cast<char *>(std::malloc(length > 0 ? static_cast<size_t>(length) : 1));
	if (!buffer)
		return CPOPPLER_OUT_OF_MEMORY;
	std::memcpy(buffer, bytes, static_cast<size_t>(length));
	try {
		Object parsed = parse(xref, syntax);
		if (!parsed.isDict()) {
			std::free(buffer);
			return CPOPPLER_ARGUMENT;
		}
		/* addStreamObject takes a dictionary of its own; the stream's /Length is written with it. */
		Dict *dict = new Dict(xref);
		for (int i = 0; i < parsed.dictGetLength(); i++)
			if (std::strcmp(parsed.dictGetKey(i), "Length") != 0)
				dict->add(parsed.dictGetKey(i), parsed.dictGetValNF(i).copy());
		*num = xref->addStreamObject(dict, buffer, static_cast<Goffset>(length)).num;
		return CPOPPLER_OK;
	} catch (const std::bad_alloc &) {
		return CPOPPLER_OUT_OF_MEMORY;
	}
}

extern "C" cpoppler_status cpoppler_core_replace_object(cpoppler_core *doc, int num, const char *syntax)
{
	try {
		XRef *xref = doc->doc->getXRef();
		Ref ref = cpoppler::reference(xref, num);
		Object obj = parse(xref, syntax);
		if (ref == Ref::INVALID() || obj.isError() || obj.isEOF())
			return CPOPPLER_ARGUMENT;
		xref->setModifiedObject(&obj, ref);
		return CPOPPLER_OK;
	} catch (const std::bad_alloc &) {
		return CPOPPLER_OUT_OF_MEMORY;
	}
}

extern "C" cpoppler_status cpoppler_core_set_entry(cpoppler_core *doc, int num, const char *key, const char *syntax)
{
	try {
		XRef *xref = doc->doc->getXRef();
		Ref ref = cpoppler::reference(xref, num);
		if (ref == Ref::INVALID())
			return CPOPPLER_ARGUMENT;
		Object dict = xref->fetch(ref);
		if (!dict.isDict())
			return CPOPPLER_ARGUMENT;
		if (syntax) {
			Object value = parse(xref, syntax);
			if (value.isError() || value.isEOF())
				return CPOPPLER_ARGUMENT;
			dict.dictSet(key, std::move(value));
		} else {
			dict.dictRemove(key);
		}
		xref->setModifiedObject(&dict, ref);
		return CPOPPLER_OK;
	} catch (const std::bad_alloc &) {
		return CPOPPLER_OUT_OF_MEMORY;
	}
}

extern "C" cpoppler_status cpoppler_core_set_trailer_entry(cpoppler_core *doc, const char *key, const char *syntax)
{
	try {
		XRef *xref = doc->doc->getXRef();
		/* An incremental save writes the trailer's /Root and /Info from this dictionary. */
		Object *trailer = xref->getTrailerDict();
		if (!trailer->isDict())
			return CPOPPLER_ARGUMENT;
		if (syntax) {
			Object value = parse(xref, syntax);
			if (value.isError() || value.isEOF())
				return CPOPPLER_ARGUMENT;
			trailer->dictSet(key, std::move(value));
		} else {
			trailer->dictRemove(key);
		}
		return CPOPPLER_OK;
	} catch (const std::bad_alloc &) {
		return CPOPPLER_OUT_OF_MEMORY;
	}
}

extern "C" cpoppler_status cpoppler_core_append_annotation(cpoppler_core *doc, int index, int num)
{
	if (index < 0 || index >= doc->doc->getNumPages())
		return CPOPPLER_NO_PAGE;
	try {
		PDFDoc *pdf = doc->doc.get();
		Page *page = pdf->getPage(index + 1);
		Ref ref = cpoppler::reference(pdf->getXRef(), num);
		if (!page || ref == Ref::INVALID())
			return page ? CPOPPLER_ARGUMENT : CPOPPLER_NO_PAGE;
		Object dict = pdf->getXRef()->fetch(ref);
		Object subtype = dict.isDict() ? dict.dictLookup("Subtype") : Object(objNull);
		if (!subtype.isName("Link") && !subtype.isName("Watermark"))
			return CPOPPLER_UNSUPPORTED;
		/* Poppler's page keeps its annotations loaded: it learns of the new one only through
		   addAnnot, which also writes /Annots. libpoppler does not export AnnotLink or
		   AnnotWatermark, so the page holds the annotation as a plain Annot (of type unknown)
		   until the document is opened again; the annotation listing (EngineSupport) reads
		   the kind from its /Subtype. */
		Object refObject(ref);
		auto *link = new Annot(pdf, std::move(dict), &refObject);
		page->addAnnot(link);
		link->decRefCnt();
		return CPOPPLER_OK;
	} catch (const std::bad_alloc &) {
		return CPOPPLER_OUT_OF_MEMORY;
	}
}

extern "C" cpoppler_status cpoppler_core_remove_annotation(cpoppler_core *doc, int index, int num)
{
	if (index < 0 || index >= doc->doc->getNumPages())
		return CPOPPLER_NO_PAGE;
	try {
		Page *page = doc->doc->getPage(index + 1);
		Annots *annots = page ? page->getAnnots() : nullptr;
		if (!annots)
			return CPOPPLER_NO_PAGE;
		std::vector<Annot *> found;
		for (Annot *annot : annots->getAnnots())
			if (annot->getRef().num == num)
				found.push_back(annot);
		for (Annot *annot : found) {
			/* The page drops its reference while removing, and uses the annotation after. */
			annot->incRefCnt();
			page->removeAnnot(annot);
			annot->decRefCnt();
		}
		return found.empty() ? CPOPPLER_NO_ANNOTATION : CPOPPLER_OK;
	} catch (const std::bad_alloc &) {
		return CPOPPLER_OUT_OF_MEMORY;
	}
}
