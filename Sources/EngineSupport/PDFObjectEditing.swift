#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// The PDF-object calls that read a document, which an engine's C layer performs: what
/// ``PDFObjectEditing`` edits with, and what pages copied from another document are read
/// through (``PDFObjectEditing/copyPages(_:of:)``).
package protocol PDFObjectReading {
    /// The id of the backend, for errors.
    var rendererID: String { get }
    /// The catalog's reference (the trailer's `/Root`).
    func catalogReference() throws -> PDFReference
    /// The reference of page `index`'s dictionary.
    func pageReference(at index: Int) throws -> PDFReference
    /// Object `number`, references in it unresolved; null when there is none. A stream is
    /// its dictionary.
    func object(_ number: Int) throws -> PDFObject
    /// The trailer of the file's last cross-reference section (a cross-reference stream's
    /// dictionary), references unresolved: `/Size`, `/Root`, `/Info`, `/ID`.
    func trailer() throws -> PDFObject
    /// The contents of object `number` when it is a stream of at most `limit` bytes:
    /// `decoded`, its filters applied, or as the file stores it (decrypted, its filters not
    /// applied). Nil when it is no stream, or a longer one (no more than `limit` + 1 bytes of
    /// which are read).
    func streamContents(_ number: Int, limit: Int, decoded: Bool) throws -> Data?
    /// The length in bytes of the file the document was opened from.
    func fileLength() throws -> Int
}

/// The few PDF-object calls an engine's C layer performs to edit. Edits of the document's
/// structure (the outline, link annotations, the page tree, a flattened form, pages copied
/// from another document) are written once on them, in this module's extensions, for every
/// backend.
package protocol PDFObjectEditing: PDFObjectReading, EngineDocument {
    /// Adds `object` as a new indirect object and returns its reference.
    func addObject(_ object: PDFObject) throws -> PDFReference
    /// Adds a stream of `contents` (as stored: filters as `dictionary` names them) with
    /// `dictionary` (its `/Length` set to match) as a new indirect object; returns its reference.
    func addStream(_ dictionary: PDFObject, contents: Data) throws -> PDFReference
    /// Puts `object` in place of the object `reference` names.
    func replaceObject(_ reference: PDFReference, with object: PDFObject) throws
    /// Sets entry `key` of the dictionary `reference` names to `value`; nil removes it.
    func setEntry(_ key: String, of reference: PDFReference, to value: PDFObject?) throws
    /// Sets entry `key` of the trailer, which a save writes (`/Info`), to `value`; nil removes it.
    func setTrailerEntry(_ key: String, to value: PDFObject?) throws
    /// Appends the link or watermark annotation `reference` names to page `index`.
    func appendAnnotation(_ reference: PDFReference, toPage index: Int) throws
    /// Removes the annotation `reference` names from page `index`.
    func removeAnnotation(_ reference: PDFReference, fromPage index: Int) throws
}

extension PDFObjectReading {
    /// `object` with a reference followed (one step); any other object as it is.
    package func resolved(_ object: PDFObject?) throws -> PDFObject {
        guard let object else { return .null }
        if case .reference(let reference) = object { return try self.object(reference.number) }
        return object
    }
}

extension PDFObjectEditing {
    /// The object a destination's `/Dest` or action's `/A` entry holds for `destination`,
    /// in page `index`'s user space: `/Dest` with an explicit destination for a page, `/A`
    /// with a URI action for a URI.
    package func target(_ destination: Destination) throws -> (key: String, value: PDFObject) {
        switch destination {
        case .uri(let uri):
            return ("A", .dictionary(["S": .name("URI"), "URI": .string(Array(uri.utf8))]))
        case .page(let index, let point, let view):
            let space = try loadPage(at: index).pageSpace()
            let explicit = ExplicitDestination(view: view ?? point.map { DestinationView(fit: .xyz, left: $0.x, top: $0.y) } ?? DestinationView(fit: .fit), in: space)
            let numbers = explicit.values.map { $0.map(PDFObject.number) ?? .null }
            return ("Dest", .array([.reference(try pageReference(at: index)), .name(explicit.fit.rawValue)] + numbers))
        }
    }
}
