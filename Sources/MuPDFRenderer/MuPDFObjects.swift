import CMuPDF
import EngineSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

#if canImport(Glibc)
import Glibc
#endif

/// The PDF-object primitives over MuPDF's PDF document.
extension MuPDFDocument: PDFObjectEditing {
    var rendererID: String { MuPDFErrors.rendererID }

    func catalogReference() throws -> PDFReference {
        var (num, gen): (Int32, Int32) = (0, 0)
        try call("read the catalog") { cmupdf_catalog_reference(handle, &num, &gen, &$0) }
        return PDFReference(number: Int(num), generation: Int(gen))
    }

    func pageReference(at index: Int) throws -> PDFReference {
        var (num, gen): (Int32, Int32) = (0, 0)
        try call("find page \(index + 1)") { cmupdf_page_reference(handle, Int32(index), &num, &gen, &$0) }
        return PDFReference(number: Int(num), generation: Int(gen))
    }

    func object(_ number: Int) throws -> PDFObject {
        try PDFObjectBuilder.read { each, user in
            try call("read object \(number)", code: .damaged) { cmupdf_object_tokens(handle, Int32(number), each, user, &$0) }
        }
    }

    func trailer() throws -> PDFObject {
        try PDFObjectBuilder.read { each, user in
            try call("read the trailer", code: .damaged) { cmupdf_trailer_tokens(handle, each, user, &$0) }
        }
    }

    func fileLength() throws -> Int {
        Int(cmupdf_file_length(handle))
    }

    func streamContents(_ number: Int, limit: Int, decoded: Bool) throws -> Data? {
        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        try call("read stream \(number)", code: .damaged) {
            cmupdf_stream_contents(handle, Int32(number), max(limit, 0), decoded ? 1 : 0, &bytes, &length, &$0)
        }
        guard let bytes else { return nil }
        defer { free(bytes) }
        return Data(bytes: bytes, count: length)
    }

    func addObject(_ object: PDFObject) throws -> PDFReference {
        var num: Int32 = 0
        try call("add an object") { cmupdf_add_object(handle, object.syntax, &num, &$0) }
        return PDFReference(number: Int(num), generation: 0)
    }

    func addStream(_ dictionary: PDFObject, contents: Data) throws -> PDFReference {
        var num: Int32 = 0
        try call("add a stream") { error in
            contents.withUnsafeBytes { cmupdf_add_stream(handle, dictionary.syntax, $0.bindMemory(to: UInt8.self).baseAddress, $0.count, &num, &error) }
        }
        return PDFReference(number: Int(num), generation: 0)
    }

    func replaceObject(_ reference: PDFReference, with object: PDFObject) throws {
        try call("write object \(reference.number)") { cmupdf_replace_object(handle, Int32(reference.number), object.syntax, &$0) }
    }

    func setEntry(_ key: String, of reference: PDFReference, to value: PDFObject?) throws {
        try call("write /\(key) of object \(reference.number)") { cmupdf_set_entry(handle, Int32(reference.number), key, value?.syntax, &$0) }
    }

    func setTrailerEntry(_ key: String, to value: PDFObject?) throws {
        try call("write /\(key) of the trailer") { cmupdf_set_trailer_entry(handle, key, value?.syntax, &$0) }
    }

    func appendAnnotation(_ reference: PDFReference, toPage index: Int) throws {
        try call("add a link to page \(index + 1)") { cmupdf_append_annotation(handle, Int32(index), Int32(reference.number), &$0) }
    }

    func removeAnnotation(_ reference: PDFReference, fromPage index: Int) throws {
        try call("remove a link from page \(index + 1)") { cmupdf_remove_annotation(handle, Int32(index), Int32(reference.number), &$0) }
    }

    /// Runs a C call that returns 0 with its error set on failure.
    private func call(_ action: String, code: RendererError.Code = .engineFailure, _ body: (inout cmupdf_error) -> Int32) throws {
        var error = cmupdf_error()
        guard body(&error) != 0 else { throw MuPDFErrors.translate(error, doing: action, code: code) }
    }
}
