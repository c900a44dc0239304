import CPopplerBridge
import EngineSupport
import Foundation
import RendererEngine

/// The PDF-object primitives over the core twin; each change leaves the glib twin to be
/// opened again, so that the outline and links it reads show it.
extension PopplerDocument: PDFObjectEditing {
    var rendererID: String { PopplerErrors.rendererID }

    func catalogReference() throws -> PDFReference {
        var (num, gen): (Int32, Int32) = (0, 0)
        guard core.catalogReference(&num, &gen) else { throw RendererError(.damaged, "the document has no catalog", rendererID: rendererID) }
        return PDFReference(number: Int(num), generation: Int(gen))
    }

    func pageReference(at index: Int) throws -> PDFReference {
        var (num, gen): (Int32, Int32) = (0, 0)
        guard core.pageReference(at: index, &num, &gen) else { throw PopplerErrors.pageFailure(index) }
        return PDFReference(number: Int(num), generation: Int(gen))
    }

    func object(_ number: Int) throws -> PDFObject {
        try PDFObjectBuilder.read { each, user in
            guard core.objectTokens(number, each, user) else { throw RendererError(.limitExceeded, "out of memory reading object \(number)", rendererID: rendererID) }
        }
    }

    func trailer() throws -> PDFObject {
        try PDFObjectBuilder.read { each, user in
            guard core.trailerTokens(each, user) else { throw RendererError(.limitExceeded, "out of memory reading the trailer", rendererID: rendererID) }
        }
    }

    func fileLength() throws -> Int {
        core.fileLength
    }

    func streamContents(_ number: Int, limit: Int) throws -> Data? {
        try core.streamContents(number, limit: limit)
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

    func appendAnnotation(_ reference: PDFReference, toPage index: Int) throws {
        try check(core.appendAnnotation(reference.number, toPage: index), doing: "add a link to page \(index + 1)")
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
