import Foundation
import Hummingbird
import RendererProvider
import RendererServerHTTP

/// The folder readers' uploads are kept in (``UploadConfiguration``): it takes a request's
/// body into a hidden file of its own (never served), and gives a file that proved to be a
/// document its upload name, removing the oldest uploads past the folder's budget.
///
/// Hidden files left by a server that was killed while receiving are removed when the store
/// is made.
actor UploadStore {
    /// The folder's real path.
    nonisolated let folder: String
    nonisolated let configuration: UploadConfiguration
    /// The uploads' names, the first kept first (those found at start by their times).
    private var kept: [String]

    /// The store of `configuration`'s folder, created when missing.
    init(_ configuration: UploadConfiguration) throws {
        try FileManager.default.createDirectory(atPath: configuration.folder, withIntermediateDirectories: true)
        guard let real = realpath(configuration.folder, nil) else {
            throw RendererError(.fileNotFound, "the uploads' folder \(configuration.folder) cannot be read")
        }
        folder = String(cString: real)
        free(real)
        self.configuration = configuration
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names where name.hasPrefix(Self.receivingPrefix) { unlink(folder + "/" + name) }
        let folder = self.folder
        kept = names.filter(DocumentCatalog.isUploadName).map { name in
            (name, (try? FileManager.default.attributesOfItem(atPath: folder + "/" + name))?[.modificationDate] as? Date ?? .distantPast)
        }.sorted { $0.1 < $1.1 }.map(\.0)
    }

    private static let receivingPrefix = ".receiving-"

    /// Writes `body` into a new hidden file of the folder, readable by the server's user only,
    /// and returns its path; past ``UploadConfiguration/maximumBytes`` (or when the body
    /// fails), removes it and throws (413).
    nonisolated func receive(_ body: RequestBody) async throws -> String {
        let path = folder + "/" + Self.receivingPrefix + Secrets.digest(of: [Secrets.random()], bytes: 16)
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw RendererError(.ioFailure, "cannot create a file in the uploads' folder") }
        do {
            defer { try? handle.close() }
            var count = 0
            for try await buffer in body {
                count += buffer.readableBytes
                guard count <= configuration.maximumBytes else { throw APIError.tooLarge(configuration.maximumBytes) }
                try handle.write(contentsOf: buffer.readableBytesView)
            }
            guard count > 0 else { throw APIError.badRequest("the upload is empty") }
        } catch {
            unlink(path)
            throw error
        }
        return path
    }

    /// Gives the received file at `path` a new upload name, makes room for it within
    /// ``UploadConfiguration/totalBytes`` by removing the uploads kept first, and returns its id.
    func keep(_ path: String) throws -> String {
        let name = Secrets.digest(of: [Secrets.random()], bytes: 16) + ".pdf"
        guard rename(path, folder + "/" + name) == 0 else {
            unlink(path)
            throw RendererError(.ioFailure, "cannot keep the upload")
        }
        kept.append(name)
        var sizes = kept.map { (try? FileManager.default.attributesOfItem(atPath: folder + "/" + $0))?[.size] as? Int ?? 0 }
        var total = sizes.reduce(0, +)
        while total > configuration.totalBytes, kept.count > 1 {
            unlink(folder + "/" + kept.removeFirst())
            total -= sizes.removeFirst()
        }
        return DocumentCatalog.uploadsRoot + "/" + name
    }

    /// Removes a received file that is not kept.
    nonisolated func discard(_ path: String) {
        unlink(path)
    }

}
