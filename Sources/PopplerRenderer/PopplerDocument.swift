import CPoppler
import Foundation
import RendererProvider

/// One poppler-glib document, unreferenced in `deinit`.
final class PopplerDocument: EngineDocument {
    let handle: OpaquePointer
    let pageCount: Int
    /// The same file through poppler's C++ API, for rotations, encryption and text.
    let cpp: PopplerCppDocument
    /// The identities of the listed annotations of each page whose annotations changed,
    /// so that removing one does not move the positional keys of the others.
    var annotationKeys: [Int: [String]] = [:]

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
        guard let page = poppler_document_get_page(handle, Int32(index)) else {
            throw RendererError(.damaged, "Poppler could not load page \(index + 1)", backend: PopplerErrors.backend)
        }
        return PopplerPage(document: self, handle: page, index: index, rotation: cpp.rotation(ofPage: index))
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
    /// Poppler always saves the original bytes followed by an update.
    var canSaveIncrementally: Bool { true }

    /// Poppler truncates the file it has open when asked to save over it; `path` is always
    /// a new file here.
    func write(to path: String, incremental: Bool) throws {
        var error: UnsafeMutablePointer<GError>?
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard let uri = g_filename_to_uri(absolute, nil, &error) else {
            throw PopplerErrors.saveFailure(error, path: path)
        }
        defer { g_free(uri) }
        guard poppler_document_save(handle, uri, &error) != 0 else {
            throw PopplerErrors.saveFailure(error, path: path)
        }
    }

    /// The first part of the trailer's `/ID` in hexadecimal; Poppler reads only 16-byte IDs.
    func fileIdentifier() -> String? {
        var permanent: UnsafeMutablePointer<gchar>?
        guard poppler_document_get_id(handle, &permanent, nil) != 0, let permanent else { return nil }
        defer { g_free(permanent) }
        let hex = String(decoding: UnsafeRawBufferPointer(start: permanent, count: 32), as: UTF8.self)
        return hex.lowercased()
    }
}
