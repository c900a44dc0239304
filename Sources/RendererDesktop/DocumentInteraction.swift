import CGio
import Foundation
import RendererProvider

/// How the Linux desktop sees a document, through GIO (freedesktop.org's shared MIME
/// database and desktop entries): its type and name, the applications that open it (the
/// default first), handing it to one of them, and icons of its first page.
///
/// ```swift
/// let interaction = try DocumentInteraction(path: "report.pdf")
/// print(interaction.contentType)                       // application/pdf
/// for application in interaction.applications() { print(application.id, application.name) }
/// try interaction.open(with: "org.gnome.Evince.desktop")
/// ```
public struct DocumentInteraction: Sendable {
    /// An application a desktop entry declares for the document's type.
    public struct Application: Hashable, Sendable, Codable {
        /// The desktop entry's id, such as `org.gnome.Evince.desktop`.
        public var id: String
        /// Its name, as menus show it.
        public var name: String
        /// Whether it is the one the desktop opens the type with.
        public var isDefault: Bool
    }

    /// The document's path.
    public let path: String
    /// Its type, as the shared MIME database finds it from the name and the first bytes,
    /// such as `application/pdf`.
    public let contentType: String
    /// The type in words, such as "PDF document".
    public let typeDescription: String?
    /// Its file name.
    public var name: String { URL(fileURLWithPath: path).lastPathComponent }

    /// What the desktop knows of the document at `path`; throws `fileNotFound` when it
    /// cannot be read.
    public init(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw RendererError(.fileNotFound, "\(path) cannot be read") }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        try? handle.close()
        self.path = path
        var uncertain: gboolean = 0
        let guessed = head.withUnsafeBytes { g_content_type_guess(path, $0.bindMemory(to: UInt8.self).baseAddress, gsize($0.count), &uncertain) }
        contentType = Self.taking(guessed) ?? "application/octet-stream"
        typeDescription = Self.taking(g_content_type_get_description(contentType))
    }

    /// The applications whose desktop entries open the document's type, the default first.
    public func applications() -> [Application] {
        let preferred = g_app_info_get_default_for_type(contentType, 0)
        defer { if let preferred { g_object_unref(UnsafeMutableRawPointer(preferred)) } }
        let defaultID = preferred.flatMap { g_app_info_get_id($0) }.map { String(cString: $0) }
        var found: [Application] = []
        Self.forEachApplication(of: contentType) { info, id in
            let application = Application(id: id, name: g_app_info_get_name(info).map { String(cString: $0) } ?? id, isDefault: id == defaultID)
            if !found.contains(where: { $0.id == application.id }) { found.append(application) }
            return false
        }
        return found.filter(\.isDefault) + found.filter { !$0.isDefault }
    }

    /// Hands the document to the application whose desktop entry has id `id` (one of
    /// ``applications()``), as the desktop does: its Exec line with the file. Throws
    /// `invalidArgument` for an id that does not open this type, `ioFailure` when it
    /// cannot be started.
    public func open(with id: String) throws {
        var launched: Result<Void, RendererError>?
        Self.forEachApplication(of: contentType) { info, entry in
            guard entry == id else { return false }
            let file = g_file_new_for_path(path)
            defer { g_object_unref(UnsafeMutableRawPointer(file)) }
            let files = g_list_append(nil, UnsafeMutableRawPointer(file))
            defer { g_list_free(files) }
            var error: UnsafeMutablePointer<GError>?
            if g_app_info_launch(info, files, nil, &error) != 0 {
                launched = .success(())
            } else {
                let message = error.map { String(cString: $0.pointee.message) } ?? "it did not start"
                g_clear_error(&error)
                launched = .failure(RendererError(.ioFailure, "cannot open \(name) with \(id): \(message)"))
            }
            return true
        }
        guard let launched else { throw RendererError(.invalidArgument, "no application \(id) opens \(contentType)") }
        try launched.get()
    }

    /// Calls `body` with each application GIO lists for `contentType` and its desktop
    /// entry's id, until `body` returns true; the list is GIO's, freed here.
    private static func forEachApplication(of contentType: String, _ body: (OpaquePointer, String) -> Bool) {
        let list = g_app_info_get_all_for_type(contentType)
        defer { g_list_free_full(list, { g_object_unref($0) }) }
        var node = list
        while let current = node {
            node = current.pointee.next
            guard let info = current.pointee.data.map({ OpaquePointer($0) }), let id = g_app_info_get_id(info) else { continue }
            if body(info, String(cString: id)) { return }
        }
    }

    /// Icons of `document`'s first page in each of `sides` (pixels square), as
    /// `Document.iconImage(side:pageAt:)` draws them.
    public static func icons(of document: Document, sides: [Int] = Document.iconSides) throws -> [Int: Bitmap] {
        try Dictionary(uniqueKeysWithValues: sides.map { ($0, try document.iconImage(side: $0)) })
    }

    /// A string GLib allocated, freed once copied.
    private static func taking(_ text: UnsafeMutablePointer<gchar>?) -> String? {
        guard let text else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }
}
