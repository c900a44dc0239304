import CPopplerBridge
import EngineSupport
import Foundation
import RendererEngine

/// The PDF-object primitives over the core twin (which reads, `PopplerCoreDocument`'s
/// `PDFObjectReading`); each change leaves the glib twin to be opened again, so that the
/// outline and links it reads show it.
extension PopplerDocument: PDFObjectEditing {
    var rendererID: String { PopplerErrors.rendererID }

    func catalogReference() throws -> PDFReference { try core.catalogReference() }
    func pageReference(at index: Int) throws -> PDFReference { try core.pageReference(at: index) }
    func object(_ number: Int) throws -> PDFObject { try core.object(number) }
    func trailer() throws -> PDFObject { try core.trailer() }
    func fileLength() throws -> Int { try core.fileLength() }

    func streamContents(_ number: Int, limit: Int, decoded: Bool) throws -> Data? {
        try core.streamContents(number, limit: limit, decoded: decoded)
    }

    func addObject(_ object: PDFObject) throws -> PDFReference {
        var num: Int32 = 0
        try check(core.addObject(object.syntax, &num), doing: "add an object")
        coreChanged()
        return PDFReference(number: Int(num), generation: 0)
    }

    func addStream(_ dictionary: PDFObject, contents: Data) throws -> PDFReference {
        var num: Int32 = 0
        try check(core.addStream(dictionary.syntax, contents, &num), doing: "add a stream")
        coreChanged()
        return PDFReference(number: Int(num), generation: 0)
    }

    func replaceObject(_ reference: PDFReference, with object: PDFObject) throws {
        try check(core.replaceObject(reference.number, object.syntax), doing: "write object \(reference.number)")
        coreChanged()
    }

    func setEntry(_ key: String, of reference: PDFReference, to value: PDFObject?) throws {
        try check(core.setEntry(key, of: reference.number, value?.syntax), doing: "write /\(key) of object \(reference.number)")
        coreChanged()
    }

    func setTrailerEntry(_ key: String, to value: PDFObject?) throws {
        try check(core.setTrailerEntry(key, value?.syntax), doing: "write /\(key) of the trailer")
        coreChanged()
    }

    func appendAnnotation(_ reference: PDFReference, toPage index: Int) throws {
        try check(core.appendAnnotation(reference.number, toPage: index), doing: "add an annotation to page \(index + 1)")
        coreChanged()
    }

    func removeAnnotation(_ reference: PDFReference, fromPage index: Int) throws {
        try check(core.removeAnnotation(reference.number, fromPage: index), doing: "remove a link from page \(index + 1)")
        coreChanged()
    }

    private func check(_ status: cpoppler_status, doing action: String) throws {
        guard status == CPOPPLER_OK else { throw PopplerErrors.objectFailure(status, doing: action) }
    }
}
