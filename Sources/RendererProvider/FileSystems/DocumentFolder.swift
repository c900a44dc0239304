#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

/// A folder whose PDF documents a host serves to others (the server's folder roots, the MCP
/// server's folder), and the only files under it that it will open.
///
/// A document is named by its path relative to the folder, with `/` between components.
/// Resolving a name refuses, before any file is opened: empty, `.` and `..` components and
/// NUL characters, components that start with a dot (hidden files and folders are never
/// served nor listed), names that do not end in `.pdf`, anything whose real path (symbolic
/// links followed) leaves the folder, what is not a regular file, and files that do not
/// start like a PDF.
package struct DocumentFolder: Sendable {
    /// Why a name was refused; a host answers each in its own terms, never with a path.
    package enum Refusal: Error, Equatable {
        /// The name is not one a document of the folder can have, or nothing is there.
        case notServed
        /// The name leads out of the folder through a symbolic link.
        case outside
        /// The name is a folder or another kind of file.
        case notAFile
        /// The file does not start like a PDF.
        case notPDF
    }

    /// The folder's real path.
    package let path: String

    /// The folder at `path`, whose real path it keeps; nil when there is no folder there.
    package init?(_ path: String) {
        guard let real = Self.realPath(path), Self.isFolder(real) else { return nil }
        self.path = real
    }

    /// A folder already resolved to its real path.
    package init(realPath: String) {
        path = realPath
    }

    /// The real path of the document `name` names (its components already split at `/`).
    package func resolve(components: [String]) throws(Refusal) -> String {
        guard !components.isEmpty, !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." || $0.contains("\0") }),
            !components.contains(where: { $0.hasPrefix(".") }), components.last!.lowercased().hasSuffix(".pdf")
        else { throw .notServed }
        guard let real = Self.realPath(([path] + components).joined(separator: "/")) else { throw .notServed }
        guard real.hasPrefix(path.hasSuffix("/") ? path : path + "/") else { throw .outside }
        try Self.requirePDFFile(real)
        return real
    }

    /// The real path of the document `name` names.
    package func resolve(_ name: String) throws(Refusal) -> String {
        try resolve(components: name.split(separator: "/", omittingEmptySubsequences: false).map(String.init))
    }

    /// The name of every document the folder serves, sorted; the folder is walked without
    /// following links out of it, and hidden folders are skipped.
    package func documentNames() -> [String] {
        var names: [String] = []
        func walk(_ relative: String) {
            let here = relative.isEmpty ? path : path + "/" + relative
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: here)) ?? [] where !entry.hasPrefix(".") {
                let name = relative.isEmpty ? entry : relative + "/" + entry
                var status = stat()
                guard lstat(path + "/" + name, &status) == 0 else { continue }
                if status.st_mode & S_IFMT == S_IFDIR {
                    walk(name)
                } else if (try? resolve(name)) != nil {
                    names.append(name)
                }
            }
        }
        walk("")
        return names.sorted()
    }

    /// Throws unless `real` is a regular file that starts like a PDF.
    package static func requirePDFFile(_ real: String) throws(Refusal) {
        var status = stat()
        guard stat(real, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { throw .notAFile }
        guard looksLikePDF(real) else { throw .notPDF }
    }

    /// Whether the file has a PDF header in its first kilobyte, where engines look for it.
    package static func looksLikePDF(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: 1024)
        let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        let marker = Array("%PDF-".utf8)
        return head[..<count].indices.contains { start in
            start + marker.count <= count && head[start..<start + marker.count].elementsEqual(marker)
        }
    }

    /// The real path of `path` (symbolic links followed), or nil when nothing is there.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
