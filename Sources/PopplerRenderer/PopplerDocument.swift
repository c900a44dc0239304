import CPoppler
import Foundation
import RendererProvider

/// One poppler-glib document, unreferenced in `deinit`, with its twins in Poppler's C++
/// APIs. Annotations are edited in the core twin; the glib document is then opened again
/// from the core twin's bytes before a page is drawn, so that drawings show the changes.
final class PopplerDocument: EngineDocument {
    /// The glib document. After annotations change it is out of date until a page is
    /// loaded through ``currentPage(at:)``.
    private(set) var handle: OpaquePointer
    let pageCount: Int
    /// The same file through poppler's C++ API, for rotations, encryption and text.
    let cpp: PopplerCppDocument
    private let source: DocumentSource
    private let absolutePath: String?
    private let password: String?
    /// The same file through Poppler's core API, opened when annotations are first read.
    private var coreTwin: PopplerCoreDocument?
    /// True when the core twin has changes the glib document does not show yet.
    private var glibIsOutOfDate = false
    /// The memory pages are drawn in, kept from one page to the next.
    private var drawingMemory: [UInt8] = []

    init(source: DocumentSource, password: String?) throws {
        var error: UnsafeMutablePointer<GError>?
        let opened: OpaquePointer?
        var absolutePath: String?
        switch source {
        case .file(let path):
            // Poppler opens URIs, which need an absolute path.
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            guard let uri = g_filename_to_uri(absolute, nil, &error) else {
                throw PopplerErrors.openFailure(error, source: source, passwordGiven: password != nil)
            }
            opened = poppler_document_new_from_file(uri, password, &error)
            g_free(uri)
            absolutePath = absolute
        case .memory(let data):
            let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            opened = poppler_document_new_from_bytes(bytes, password, &error)
            g_bytes_unref(bytes)
        }
        guard let opened else {
            throw PopplerErrors.openFailure(error, source: source, passwordGiven: password != nil)
        }
        let count = Int(poppler_document_get_n_pages(opened))
        guard let cpp = PopplerCppDocument(source: source, absolutePath: absolutePath, password: password), cpp.pageCount == count else {
            g_object_unref(UnsafeMutableRawPointer(opened))
            throw PopplerErrors.cppUnavailable(source)
        }
        handle = opened
        pageCount = count
        self.cpp = cpp
        self.source = source
        self.absolutePath = absolutePath
        self.password = password
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(handle))
    }

    func info() throws -> DocumentInfo {
        var major: guint = 0
        var minor: guint = 0
        poppler_document_get_pdf_version(handle, &major, &minor)
        let permissions = poppler_document_get_permissions(handle)
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
            isEncrypted: cpp.isEncrypted,
            permissions: cpp.isEncrypted ? Self.permissions(permissions) : .all,
            fileIdentifier: fileIdentifier())
    }

    func loadPage(at index: Int) throws -> any EnginePage {
        PopplerPage(document: self, index: index, rotation: cpp.rotation(ofPage: index))
    }

    /// The glib page at `index`, from a glib document that shows every annotation change;
    /// the caller unreferences it.
    func currentPage(at index: Int) throws -> OpaquePointer {
        if glibIsOutOfDate {
            let bytes = try core().serialized()
            var error: UnsafeMutablePointer<GError>?
            let data = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            defer { g_bytes_unref(data) }
            guard let reopened = poppler_document_new_from_bytes(data, password, &error) else {
                throw PopplerErrors.openFailure(error, source: .memory(bytes), passwordGiven: password != nil)
            }
            g_object_unref(UnsafeMutableRawPointer(handle))
            handle = reopened
            glibIsOutOfDate = false
        }
        guard let page = poppler_document_get_page(handle, Int32(index)) else {
            throw PopplerErrors.pageFailure(index)
        }
        return page
    }

    /// The core twin, opened on first use.
    func core() throws -> PopplerCoreDocument {
        if let coreTwin { return coreTwin }
        guard let opened = PopplerCoreDocument(source: source, absolutePath: absolutePath, password: password) else {
            throw PopplerErrors.coreUnavailable(source)
        }
        coreTwin = opened
        return opened
    }

    /// Notes that the core twin changed, so the glib document must be opened again.
    func annotationsChanged() {
        glibIsOutOfDate = true
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

extension PopplerDocument {
    /// Calls `body` with at least `count` bytes of memory for drawing a page, reused from
    /// the previous page when it is large enough; `body` must not keep the pointer.
    func withDrawingMemory<T>(count: Int, _ body: (UnsafeMutablePointer<UInt8>) throws -> T) rethrows -> T {
        if drawingMemory.count < count {
            drawingMemory = [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        }
        return try drawingMemory.withUnsafeMutableBufferPointer { try body($0.baseAddress!) }
    }
}
