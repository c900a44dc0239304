import CAnnotationRecord
import CPopplerBridge
import EngineSupport
import Foundation
import RendererEngine

/// The same document opened through Poppler's core API, which tells what poppler-glib does
/// not (encryption, `/Rotate`, boxes, text as pdftotext writes it), where its annotations,
/// form and metadata are edited and from where it is saved; closed in `deinit`. Confined
/// like its glib twin.
final class PopplerCoreDocument {
    private let handle: OpaquePointer

    /// `nil` when Poppler's core API cannot open what poppler-glib opened.
    init?(source: DocumentSource, absolutePath: String?, password: String?) {
        let opened: OpaquePointer?
        switch source {
        case .file:
            opened = cpoppler_core_open_file(absolutePath, password)
        case .memory(let data):
            opened = data.withUnsafeBytes {
                cpoppler_core_open_data($0.bindMemory(to: CChar.self).baseAddress, $0.count, password)
            }
        case .stream(let stream):
            guard let source = try? StreamBridge.cStream(stream) else { return nil }
            opened = cpoppler_core_open_stream(source, password)
        }
        guard let opened else { return nil }
        handle = opened
    }

    deinit {
        cpoppler_core_close(handle)
    }

    /// True when Poppler rebuilt the cross-reference table to open the file.
    var wasReconstructed: Bool { cpoppler_core_was_reconstructed(handle) != 0 }

    /// Writes the document with its changes to `path`, a new file.
    func save(to path: String, rewrite: Bool) throws {
        let status = cpoppler_core_save(handle, path, rewrite ? 1 : 0)
        guard status == 0 else { throw PopplerErrors.saveFailure(status, doing: "save to \(path)") }
    }

    /// Writes what `save(to:rewrite:)` writes into `output`.
    func write(into output: any FileWriteHandle, rewrite: Bool) throws {
        let status = try StreamBridge.withSink(writingTo: output) { cpoppler_core_write(handle, $0, rewrite ? 1 : 0) }
        guard status == 0 else { throw PopplerErrors.saveFailure(status, doing: "save the document") }
    }

    /// The document with its changes, as an incremental update would save it.
    func serialized() throws -> Data {
        var bytes: UnsafeMutablePointer<CChar>?
        var length = 0
        let status = cpoppler_core_serialize(handle, &bytes, &length)
        guard status == 0, let bytes else { throw PopplerErrors.saveFailure(status, doing: "write the changed document to memory") }
        defer { free(bytes) }
        return Data(bytes: bytes, count: length)
    }

    /// The document's optional-content groups in `/OCProperties /OCGs` order, with their
    /// default states.
    func optionalContentGroups() throws -> [OptionalContentGroup] {
        final class Collector {
            var groups: [OptionalContentGroup] = []
        }
        let collector = Collector()
        let ok = cpoppler_core_layers(handle, { user, name, shown in
            let collector = Unmanaged<Collector>.fromOpaque(user!).takeUnretainedValue()
            collector.groups.append(OptionalContentGroup(index: collector.groups.count, name: name.map { String(cString: $0) } ?? "", isVisibleByDefault: shown != 0))
        }, Unmanaged.passUnretained(collector).toOpaque())
        guard ok != 0 else { throw RendererError(.limitExceeded, "out of memory listing the optional content", rendererID: PopplerErrors.rendererID) }
        return collector.groups
    }

    /// The document's optional-content configurations: the default first, then `/Configs`.
    func optionalContentConfigurations() throws -> [OptionalContentConfiguration] {
        final class Collector {
            var configurations: [OptionalContentConfiguration] = []
        }
        let collector = Collector()
        let ok = cpoppler_core_layer_configurations(handle, { user, name, creator, isDefault in
            let collector = Unmanaged<Collector>.fromOpaque(user!).takeUnretainedValue()
            collector.configurations.append(OptionalContentConfiguration(
                name: name.map { String(cString: $0) }, creator: creator.map { String(cString: $0) }, isDefault: isDefault != 0))
        }, Unmanaged.passUnretained(collector).toOpaque())
        guard ok != 0 else { throw RendererError(.limitExceeded, "out of memory listing the optional-content configurations", rendererID: PopplerErrors.rendererID) }
        return collector.configurations
    }

    /// Gives the text or choice field's `value` to Poppler's form API: `CPOPPLER_OK`, or
    /// another status.
    func setFormField(_ value: FormFieldValue) -> Int32 {
        let numbers = value.widgets.map { Int32($0.reference.number) }
        let pages = value.widgets.map { Int32($0.pageIndex ?? -1) }
        let indices = value.optionIndices.map { Int32($0 ?? -1) }
        return numbers.withUnsafeBufferPointer { numbers in
            pages.withUnsafeBufferPointer { pages in
                indices.withUnsafeBufferPointer { indices in
                    value.values.withCStrings { strings in
                        value.type.withCString { type in
                            var record = form_field_value(
                                field: Int32(value.field.number), type: type, flags: Int32(truncatingIfNeeded: value.flags),
                                widgets: numbers.baseAddress, pages: pages.baseAddress, widget_count: Int32(numbers.count),
                                values: strings, option_indices: indices.baseAddress, value_count: Int32(value.values.count))
                            return cpoppler_core_set_form_field(handle, &record)
                        }
                    }
                }
            }
        }
    }

    func createAnnotation(onPage index: Int, _ record: UnsafePointer<annotation_record>, _ number: inout Int32) -> cpoppler_status {
        cpoppler_core_create_annot(handle, Int32(index), record, &number)
    }

    func updateAnnotation(onPage index: Int, _ reference: PDFReference, to record: UnsafePointer<annotation_record>) -> cpoppler_status {
        cpoppler_core_update_annot(handle, Int32(index), Int32(reference.number), record)
    }

    /// Sets each of `keys` to the item at its place in the array `values` writes (null
    /// removes it).
    func setAnnotationEntries(_ keys: [String], to values: String, onPage index: Int, _ reference: PDFReference) -> cpoppler_status {
        keys.withCStrings { keys in
            cpoppler_core_set_annot_entries(handle, Int32(index), Int32(reference.number), keys, values)
        }
    }

    func deleteAnnotation(onPage index: Int, _ reference: PDFReference) -> cpoppler_status {
        cpoppler_core_delete_annot(handle, Int32(index), Int32(reference.number))
    }

    func setStampImage(onPage index: Int, _ reference: PDFReference, _ image: StampImage) -> cpoppler_status {
        image.withPlanes { rgb, alpha in
            cpoppler_core_set_stamp_image(handle, Int32(index), Int32(reference.number), Int32(image.width), Int32(image.height), rgb, alpha)
        }
    }

    // MARK: PDF objects (PopplerObjects.swift)

    func addObject(_ syntax: String, _ num: inout Int32) -> cpoppler_status {
        cpoppler_core_add_object(handle, syntax, &num)
    }

    func addStream(_ syntax: String, _ contents: Data, _ num: inout Int32) -> cpoppler_status {
        contents.withUnsafeBytes { cpoppler_core_add_stream(handle, syntax, $0.bindMemory(to: CChar.self).baseAddress, $0.count, &num) }
    }

    func replaceObject(_ number: Int, _ syntax: String) -> cpoppler_status {
        cpoppler_core_replace_object(handle, Int32(number), syntax)
    }

    func setEntry(_ key: String, of number: Int, _ syntax: String?) -> cpoppler_status {
        cpoppler_core_set_entry(handle, Int32(number), key, syntax)
    }

    func setTrailerEntry(_ key: String, _ syntax: String?) -> cpoppler_status {
        cpoppler_core_set_trailer_entry(handle, key, syntax)
    }

    func appendAnnotation(_ number: Int, toPage index: Int) -> cpoppler_status {
        cpoppler_core_append_annotation(handle, Int32(index), Int32(number))
    }

    func removeAnnotation(_ number: Int, fromPage index: Int) -> cpoppler_status {
        cpoppler_core_remove_annotation(handle, Int32(index), Int32(number))
    }

    var isEncrypted: Bool { cpoppler_core_is_encrypted(handle) != 0 }
    var pageCount: Int { Int(cpoppler_core_page_count(handle)) }

    func rotation(ofPage index: Int) -> PageRotation {
        PageRotation(degrees: Int(cpoppler_core_page_rotation(handle, Int32(index)))) ?? .none
    }

    func boxes(ofPage index: Int) -> PageBoxes? {
        var numbers = [Double](repeating: 0, count: 20)
        return cpoppler_core_page_boxes(handle, Int32(index), &numbers) != 0 ? PageBoxes(userRects: numbers) : nil
    }

    func text(ofPage index: Int) -> String? {
        guard let text = cpoppler_core_page_text(handle, Int32(index)) else { return nil }
        defer { free(text) }
        return String(cString: text)
    }
}

/// The PDF-object calls that read: the document's own edits read through these
/// (`PopplerDocument` forwards them), and pages copied from this document are read by them.
extension PopplerCoreDocument: PDFObjectReading {
    var rendererID: String { PopplerErrors.rendererID }

    func catalogReference() throws -> PDFReference {
        var (num, gen): (Int32, Int32) = (0, 0)
        guard cpoppler_core_catalog_reference(handle, &num, &gen) != 0 else {
            throw RendererError(.damaged, "the document has no catalog", rendererID: rendererID)
        }
        return PDFReference(number: Int(num), generation: Int(gen))
    }

    func pageReference(at index: Int) throws -> PDFReference {
        var (num, gen): (Int32, Int32) = (0, 0)
        guard cpoppler_core_page_reference(handle, Int32(index), &num, &gen) != 0 else { throw PopplerErrors.pageFailure(index) }
        return PDFReference(number: Int(num), generation: Int(gen))
    }

    func object(_ number: Int) throws -> PDFObject {
        try PDFObjectBuilder.read { each, user in
            guard cpoppler_core_object_tokens(handle, Int32(number), each, user) != 0 else {
                throw RendererError(.limitExceeded, "out of memory reading object \(number)", rendererID: rendererID)
            }
        }
    }

    func trailer() throws -> PDFObject {
        try PDFObjectBuilder.read { each, user in
            guard cpoppler_core_trailer_tokens(handle, each, user) != 0 else {
                throw RendererError(.limitExceeded, "out of memory reading the trailer", rendererID: rendererID)
            }
        }
    }

    func streamContents(_ number: Int, limit: Int, decoded: Bool) throws -> Data? {
        var bytes: UnsafeMutablePointer<CChar>?
        var length = 0
        guard cpoppler_core_stream_contents(handle, Int32(number), max(limit, 0), decoded ? 1 : 0, &bytes, &length) != 0 else {
            throw RendererError(.limitExceeded, "out of memory reading stream \(number)", rendererID: rendererID)
        }
        guard let bytes else { return nil }
        defer { free(bytes) }
        return Data(bytes: bytes, count: length)
    }

    func fileLength() throws -> Int {
        Int(cpoppler_core_file_length(handle))
    }
}
