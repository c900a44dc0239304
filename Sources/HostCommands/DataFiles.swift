#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

#if canImport(Glibc)
import Glibc
#endif

/// The data files commands read and write besides documents (exported annotations and form
/// values), with `ioFailure` errors that name the file.
package enum DataFiles {
    /// The bytes of `path`.
    package static func read(_ path: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RendererError(.ioFailure, "cannot read \(path): \(error.reason)")
        }
    }

    /// A secret given as `value` (`option`) or as the first line of the file `file`
    /// (`option`-file) names; `invalidArgument` when both are given, nil when neither is.
    package static func secret(_ value: String?, orFile file: String?, option: String) throws -> String? {
        if value != nil && file != nil { throw RendererError(.invalidArgument, "\(option) and \(option)-file exclude each other") }
        return try value ?? file.map(secret(from:))
    }

    /// The first line of the secret file `path` (`-`: standard input), without its line end:
    /// a password. Errors name the file, never what it holds.
    package static func secret(from path: String) throws -> String {
        let data: Data
        do {
            data = path == "-" ? try StandardStream.readInput() : try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RendererError(.ioFailure, "cannot read the password file \(path): \(error.reason)")
        }
        let firstLine = data.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first ?? Data()
        return String(decoding: firstLine.last == UInt8(ascii: "\r") ? firstLine.dropLast() : firstLine, as: UTF8.self)
    }

    /// The `T` the JSON file `path` holds; `invalidArgument`, naming `what` the file is, for a
    /// file larger than `maximumSize` bytes or JSON that is not a `T`.
    package static func decode<T: Decodable>(_ type: T.Type, from path: String, maximumSize: Int, what: String) throws -> T {
        guard let file = try? LocalFile(path: path, flags: O_RDONLY) else { throw RendererError(.ioFailure, "cannot read \(path)") }
        let data = Data(try file.readInOrder(atMost: maximumSize + 1))
        guard data.count <= maximumSize else { throw RendererError(.invalidArgument, "the \(what) file is larger than \(maximumSize) bytes") }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw RendererError(.invalidArgument, "the \(what) file is not what it should be: \(error.summary)")
        } catch {
            throw RendererError(.invalidArgument, "the \(what) file is not JSON")
        }
    }

    /// Writes `data` to `path` atomically, or to standard output when `path` is nil.
    package static func write(_ data: Data, to path: String?) throws {
        guard let path else { return StandardStream.output.write(data) }
        try AtomicFile.write(data, to: path)
    }
}
