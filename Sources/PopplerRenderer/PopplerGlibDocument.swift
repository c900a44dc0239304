import CPopplerBridge
import CPopplerGlib
import EngineSupport
import Foundation
import RendererEngine

/// A poppler-glib document, unreferenced in `deinit`: what draws pages and reads metadata,
/// text with boxes, the outline and links. Confined like the `PopplerDocument` that owns it.
final class PopplerGlibDocument {
    private let handle: OpaquePointer

    /// Opens `source` (a file at `absolutePath`, or bytes in memory); throws as
    /// `PopplerErrors/openFailure(_:source:passwordGiven:)` says.
    init(source: DocumentSource, absolutePath: String?, password: String?) throws {
        var error: UnsafeMutablePointer<GError>?
        let opened: OpaquePointer?
        switch source {
        case .file:
            // Poppler opens URIs, which need an absolute path.
            guard let uri = g_filename_to_uri(absolutePath, nil, &error) else {
                throw PopplerErrors.openFailure(error, source: source, passwordGiven: password != nil)
            }
            opened = poppler_document_new_from_file(uri, password, &error)
            g_free(uri)
        case .memory(let data):
            let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            opened = poppler_document_new_from_bytes(bytes, password, &error)
            g_bytes_unref(bytes)
        case .stream(let stream):
            let input = cpoppler_glib_stream_new(try StreamBridge.cStream(stream))
            opened = poppler_document_new_from_stream(input?.assumingMemoryBound(to: GInputStream.self), goffset(stream.length), password, nil, &error)
            g_object_unref(input)
        }
        guard let opened else { throw PopplerErrors.openFailure(error, source: source, passwordGiven: password != nil) }
        handle = opened
    }

    deinit {
        // Only layers read before: listing them now would walk the document's optional
        // content for nothing, and poppler-glib's walk crashes on some damaged /Order arrays.
        for layer in loadedLayers ?? [] { g_object_unref(UnsafeMutableRawPointer(layer.handle)) }
        g_object_unref(UnsafeMutableRawPointer(handle))
    }

    /// A layer as poppler-glib gives it: its title (the group's name) and its handle, which
    /// shows and hides the group in this document's drawings.
    struct GlibLayer {
        let title: String
        let handle: OpaquePointer
    }

    /// The layers poppler-glib lists: those of the default configuration's `/Order` tree,
    /// depth first (every group when there is no `/Order`), read once and unreferenced in
    /// `deinit`.
    var layers: [GlibLayer] {
        if let loadedLayers { return loadedLayers }
        let layers = readLayers()
        loadedLayers = layers
        return layers
    }

    /// The layers, once read.
    private var loadedLayers: [GlibLayer]?

    private func readLayers() -> [GlibLayer] {
        guard let first = poppler_layers_iter_new(handle) else { return [] }
        defer { poppler_layers_iter_free(first) }
        var found: [GlibLayer] = []
        func walk(_ iterator: OpaquePointer) {
            repeat {
                if let layer = poppler_layers_iter_get_layer(iterator) {
                    found.append(GlibLayer(title: poppler_layer_get_title(layer).map { String(cString: $0) } ?? "", handle: layer))
                }
                if let child = poppler_layers_iter_get_child(iterator) {
                    walk(child)
                    poppler_layers_iter_free(child)
                }
            } while poppler_layers_iter_next(iterator) != 0
        }
        walk(first)
        return found
    }

    var pageCount: Int { Int(poppler_document_get_n_pages(handle)) }

    /// The page at `index`, which the caller unreferences.
    func page(at index: Int) throws -> OpaquePointer {
        guard let page = poppler_document_get_page(handle, Int32(index)) else { throw PopplerErrors.pageFailure(index) }
        return page
    }

    /// The page's crop box in user space; nil when the page cannot be loaded.
    func cropBox(ofPage index: Int) -> UserRect? {
        guard let page = try? page(at: index) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var crop = PopplerRectangle()
        poppler_page_get_crop_box(page, &crop)
        return UserRect(x0: crop.x1, y0: crop.y1, x1: crop.x2, y1: crop.y2)
    }

    /// An iterator over the outline's first level, which the caller frees; nil without one.
    func outlineIterator() -> OpaquePointer? {
        poppler_index_iter_new(handle)
    }

    /// An iterator over the structure tree's first level, which the caller frees; nil when
    /// the document is not tagged.
    func structureIterator() -> OpaquePointer? {
        poppler_structure_element_iter_new(handle)
    }

    /// The named destination `name`, which the caller frees; nil when there is none.
    func destination(named name: UnsafePointer<gchar>) -> UnsafeMutablePointer<PopplerDest>? {
        poppler_document_find_dest(handle, name)
    }

    /// The fonts the pages use, as Poppler's font scanner finds them, each once.
    func fonts() -> [FontInfo] {
        let scanner = poppler_font_info_new(handle)
        defer { poppler_font_info_free(scanner) }
        var iterator: OpaquePointer?
        poppler_font_info_scan(scanner, Int32(pageCount), &iterator)
        guard let iterator else { return [] }
        defer { poppler_fonts_iter_free(iterator) }
        var fonts: [FontInfo] = []
        repeat {
            let kind: FontInfo.Kind
            switch poppler_fonts_iter_get_font_type(iterator) {
            case POPPLER_FONT_TYPE_TYPE3: kind = .type3
            case POPPLER_FONT_TYPE_TRUETYPE, POPPLER_FONT_TYPE_TRUETYPEOT: kind = .trueType
            case POPPLER_FONT_TYPE_CID_TYPE0, POPPLER_FONT_TYPE_CID_TYPE0C, POPPLER_FONT_TYPE_CID_TYPE0COT: kind = .cidType0
            case POPPLER_FONT_TYPE_CID_TYPE2, POPPLER_FONT_TYPE_CID_TYPE2OT: kind = .cidTrueType
            default: kind = .type1
            }
            let name = poppler_fonts_iter_get_full_name(iterator).map { String(cString: $0) }
            fonts.append(FontInfo(name: name, kind: kind, isEmbedded: poppler_fonts_iter_is_embedded(iterator) != 0))
        } while poppler_fonts_iter_next(iterator) != 0
        return fonts
    }

    /// Version, metadata and permissions; `isEncrypted` comes from the core twin, which tells.
    func info(pageCount: Int, isEncrypted: Bool) -> DocumentInfo {
        var major: guint = 0
        var minor: guint = 0
        poppler_document_get_pdf_version(handle, &major, &minor)
        return DocumentInfo(
            pageCount: pageCount,
            pdfVersion: "\(major).\(minor)",
            title: Self.take(poppler_document_get_title(handle)),
            author: Self.take(poppler_document_get_author(handle)),
            subject: Self.take(poppler_document_get_subject(handle)),
            keywords: Self.take(poppler_document_get_keywords(handle)),
            creator: Self.take(poppler_document_get_creator(handle)),
            producer: Self.take(poppler_document_get_producer(handle)),
            creationDate: Self.date(poppler_document_get_creation_date_time(handle)),
            modificationDate: Self.date(poppler_document_get_modification_date_time(handle)),
            isEncrypted: isEncrypted,
            permissions: isEncrypted ? Self.permissions(poppler_document_get_permissions(handle)) : .all,
            fileIdentifier: fileIdentifier())
    }

    /// The first part of the trailer's `/ID` in hexadecimal; Poppler reads only 16-byte IDs.
    func fileIdentifier() -> String? {
        var permanent: UnsafeMutablePointer<gchar>?
        guard poppler_document_get_id(handle, &permanent, nil) != 0, let permanent else { return nil }
        defer { g_free(permanent) }
        let hex = String(decoding: UnsafeRawBufferPointer(start: permanent, count: 32), as: UTF8.self)
        return hex.lowercased()
    }

    /// A string Poppler allocated, freed here; `nil` when absent or empty.
    private static func take(_ text: UnsafeMutablePointer<gchar>?) -> String? {
        guard let text else { return nil }
        defer { g_free(text) }
        let value = String(cString: text)
        return value.isEmpty ? nil : value
    }

    private static func date(_ dateTime: OpaquePointer?) -> Date? {
        guard let dateTime else { return nil }
        defer { g_date_time_unref(dateTime) }
        return Date(timeIntervalSince1970: TimeInterval(g_date_time_to_unix(dateTime)))
    }

    private static func permissions(_ flags: PopplerPermissions) -> DocumentPermissions {
        let pairs: [(PopplerPermissions, DocumentPermissions)] = [
            (POPPLER_PERMISSIONS_OK_TO_PRINT, .print), (POPPLER_PERMISSIONS_OK_TO_MODIFY, .modify),
            (POPPLER_PERMISSIONS_OK_TO_COPY, .copy), (POPPLER_PERMISSIONS_OK_TO_ADD_NOTES, .annotate),
            (POPPLER_PERMISSIONS_OK_TO_FILL_FORM, .fillForms),
            (POPPLER_PERMISSIONS_OK_TO_EXTRACT_CONTENTS, .extractForAccessibility),
            (POPPLER_PERMISSIONS_OK_TO_ASSEMBLE, .assemble),
            (POPPLER_PERMISSIONS_OK_TO_PRINT_HIGH_RESOLUTION, .printHighResolution),
        ]
        return DocumentPermissions(pairs.filter { flags.rawValue & $0.0.rawValue != 0 }.map(\.1))
    }
}

extension PopplerGlibDocument {
    /// One attachment poppler-glib found: its handle, held while `withAttachments` runs, and
    /// its facts.
    struct FoundAttachment {
        let handle: UnsafeMutablePointer<PopplerAttachment>
        let attachment: Attachment
    }

    /// Calls `body` with the document's attachments in the library's order: the name tree's
    /// (as `poppler_document_get_attachments` lists them), then each page's file-attachment
    /// annotations'; their handles are released when it returns.
    func withAttachments<T>(_ body: ([FoundAttachment]) throws -> T) throws -> T {
        var found: [FoundAttachment] = []
        defer { for entry in found { g_object_unref(entry.handle) } }
        var list = poppler_document_get_attachments(handle)
        defer { g_list_free(list) }
        while let node = list {
            if let pointer = node.pointee.data {
                let attachment = pointer.assumingMemoryBound(to: PopplerAttachment.self)
                found.append(FoundAttachment(handle: attachment, attachment: Self.facts(of: attachment, pageIndex: nil)))
            }
            list = node.pointee.next
        }
        for index in 0..<pageCount {
            guard let page = try? page(at: index) else { continue }
            defer { g_object_unref(UnsafeMutableRawPointer(page)) }
            let mappings = poppler_page_get_annot_mapping(page)
            defer { poppler_page_free_annot_mapping(mappings) }
            var node = mappings
            while let current = node {
                node = current.pointee.next
                guard let mapping = current.pointee.data?.assumingMemoryBound(to: PopplerAnnotMapping.self),
                    let annot = mapping.pointee.annot, poppler_annot_get_annot_type(annot) == POPPLER_ANNOT_FILE_ATTACHMENT,
                    let attachment = poppler_annot_file_attachment_get_attachment(annot)
                else { continue }
                found.append(FoundAttachment(handle: attachment, attachment: Self.facts(of: attachment, pageIndex: index)))
            }
        }
        return try body(found)
    }

    private static func facts(of attachment: UnsafeMutablePointer<PopplerAttachment>, pageIndex: Int?) -> Attachment {
        let date = { (dateTime: OpaquePointer?) in dateTime.map { Date(timeIntervalSince1970: TimeInterval(g_date_time_to_unix($0))) } }
        let size = poppler_attachment_get_size(attachment)
        let checksum = poppler_attachment_get_checksum(attachment).flatMap { sum -> String? in
            guard sum.pointee.len > 0, let bytes = sum.pointee.str else { return nil }
            return (0..<Int(sum.pointee.len)).map { String(format: "%02x", UInt8(bitPattern: bytes[$0])) }.joined()
        }
        return Attachment(
            name: poppler_attachment_get_name(attachment).map { String(cString: $0) } ?? "",
            description: poppler_attachment_get_description(attachment).map { String(cString: $0) },
            size: size < gsize(Int.max) ? Int(size) : nil,
            creationDate: date(poppler_attachment_get_ctime(attachment)), modificationDate: date(poppler_attachment_get_mtime(attachment)),
            checksum: checksum, place: pageIndex == nil ? .document : .annotation, pageIndex: pageIndex)
    }
}
