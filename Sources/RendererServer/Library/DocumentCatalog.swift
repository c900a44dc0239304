import Foundation
import RendererProvider
import RendererServerHTTP

/// The documents a server was given, and the only files it will open.
///
/// Each root (a file or a folder) is named by its last path component (made unique with
/// `-2`, `-3`...). A file root's document id is that name; a PDF under a folder root has the
/// id `name/relative/path.pdf`. Resolving an id refuses, before any file is opened:
/// empty, `.` and `..` components, components that start with a dot (hidden files and
/// folders are never served nor listed), files under a folder root whose name does not end
/// in `.pdf`, and unknown roots (404), anything whose real path (symbolic links followed)
/// leaves its root (403), what is not a regular file (404), and files that do not start like
/// a PDF (403).
///
/// When the server takes uploads, their folder is one more root, `uploads` (a served root of
/// that name becomes `uploads-2`), which is never listed and serves only the names uploads
/// are given: `uploads/` and 32 hexadecimal digits and `.pdf`.
struct DocumentCatalog: Sendable {
    /// One root: the name ids start with and its real path.
    struct Root: Sendable {
        var name: String
        var path: String
        var isFolder: Bool
        /// Whether its documents are listed: not the uploads'.
        var isListed = true
    }

    /// The name of the uploads' root.
    static let uploadsRoot = "uploads"

    let roots: [Root]

    /// A catalog of `paths`, and of the uploads in the folder `uploads`; throws
    /// `fileNotFound` for a path that does not exist, `invalidArgument` when the uploads'
    /// folder and a served root lie inside one another.
    init(paths: [String], uploads: String? = nil) throws {
        var roots: [Root] = []
        var taken = Set<String>()
        if let uploads {
            guard let real = DocumentFolder.realPath(uploads) else { throw RendererError(.fileNotFound, "\(uploads) does not exist") }
            roots.append(Root(name: Self.uploadsRoot, path: real, isFolder: true, isListed: false))
            taken.insert(Self.uploadsRoot)
        }
        for path in paths {
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            guard let real = DocumentFolder.realPath(absolute) else {
                throw RendererError(.fileNotFound, "\(path) does not exist")
            }
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: real, isDirectory: &isFolder)
            let base = URL(fileURLWithPath: absolute).lastPathComponent
            var name = base.isEmpty ? "root" : base
            var suffix = 2
            while taken.contains(name) {
                name = "\(base)-\(suffix)"
                suffix += 1
            }
            taken.insert(name)
            roots.append(Root(name: name, path: real, isFolder: isFolder.boolValue))
        }
        if let uploads = roots.first(where: { !$0.isListed }) {
            func within(_ inner: String, _ outer: String) -> Bool { inner == outer || inner.hasPrefix(outer.hasSuffix("/") ? outer : outer + "/") }
            for root in roots where root.isListed && (within(root.path, uploads.path) || within(uploads.path, root.path)) {
                throw RendererError(.invalidArgument, "the uploads' folder and the served \(root.name) lie inside one another; keep uploads apart")
            }
        }
        self.roots = roots
    }

    /// The uploads' root, when the server takes uploads.
    var uploads: Root? { roots.first { !$0.isListed } }

    /// Every servable document's id, in root order and then by path; folders are walked
    /// without following links out of them.
    func documentIDs() -> [String] {
        roots.filter(\.isListed).flatMap { root -> [String] in
            guard root.isFolder else { return [root.name] }
            return DocumentFolder(realPath: root.path).documentNames().map { "\(root.name)/\($0)" }
        }
    }

    /// The real path of the document `id` names; throws an ``APIError`` as the type documents.
    func resolve(id: String) throws -> String {
        let components = id.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let first = components.first, let root = roots.first(where: { $0.name == first }),
            !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." || $0.contains("\0") })
        else { throw APIError.notFound("no document \(Self.quoted(id)) is served") }
        if !root.isListed, components.count != 2 || !Self.isUploadName(components[1]) {
            throw APIError.notFound("no document \(Self.quoted(id)) is served")
        }
        do {
            guard root.isFolder else {
                guard components.count == 1 else { throw APIError.notFound("no document \(Self.quoted(id)) is served") }
                try DocumentFolder.requirePDFFile(root.path)
                return root.path
            }
            guard components.count > 1 else { throw APIError.notFound("\(Self.quoted(id)) is a folder, not a document") }
            return try DocumentFolder(realPath: root.path).resolve(components: Array(components.dropFirst()))
        } catch let refusal as DocumentFolder.Refusal {
            switch refusal {
            case .notServed: throw APIError.notFound("no document \(Self.quoted(id)) is served")
            case .outside: throw APIError.forbidden("\(Self.quoted(id)) leads outside the served folders")
            case .notAFile: throw APIError.notFound("\(Self.quoted(id)) is not a file")
            case .notPDF: throw APIError.forbidden("\(Self.quoted(id)) is not a PDF document")
            }
        }
    }

    /// Whether `name` is one an upload is given: 32 lower-case hexadecimal digits and `.pdf`.
    static func isUploadName(_ name: String) -> Bool {
        let digits = name.utf8.dropLast(4)
        return name.hasSuffix(".pdf") && digits.count == 32 && digits.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    private static func quoted(_ id: String) -> String { "\"\(id.prefix(200))\"" }
}
