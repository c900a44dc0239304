import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

#if canImport(Glibc)
import Glibc
#endif

/// The JSON-lines record that a sharded or resumable `hostapp render` or `hostapp text`
/// keeps beside its output, `hostapp-manifest-K-of-N.jsonl`: a header line saying what the
/// run makes (document, settings, its shard and pages), then a line for each page once its
/// file is complete (file, size, SHA-256, seconds taken). A page's file is written whole
/// before its line (files are renamed into place), so a killed run leaves at most the page
/// it was on unrecorded, and a half-written last line is ignored when the manifest is read.
struct PageManifest {
    /// What the run makes; a rerun with `--resume` keeps the records only if it is the same.
    struct Header: Codable, Equatable {
        var manifest = 1
        /// `render` or `text`.
        var command: String
        /// The document as named on the command line.
        var document: String
        /// The SHA-256 of the document's bytes; nil for a document read from a vault.
        var documentSHA256: String?
        /// The options that shape the files, such as `png 150 dpi rgb`.
        var settings: String
        /// The whole selection's page numbers (1-based), across all shards.
        var selected: [Int]
        /// This shard's index and the number of shards.
        var shard: Int
        var of: Int
        /// The page numbers this shard writes.
        var assigned: [Int]
    }

    /// One finished page.
    struct Record: Codable, Equatable {
        /// The page number, 1-based.
        var page: Int
        /// The file, relative to the manifest's directory.
        var file: String
        var bytes: Int
        var sha256: String
        /// How long the page took, for balancing later shards (`--shard-costs`).
        var seconds: Double
    }

    /// The manifest's file name for shard `index` of `count`.
    static func fileName(shard index: Int, of count: Int) -> String {
        "hostapp-manifest-\(index)-of-\(count).jsonl"
    }

    /// Whether a file name is a manifest's.
    static func isManifest(_ name: String) -> Bool {
        name.hasPrefix("hostapp-manifest-") && name.hasSuffix(".jsonl")
    }

    let header: Header
    /// The last record of each page, by page number.
    let records: [Int: Record]

    /// Reads a manifest; nil when the file is missing or its header unreadable. Lines that do
    /// not parse (a line cut short by a kill) are skipped; a later record of a page replaces
    /// an earlier one.
    static func read(_ path: String) -> PageManifest? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let lines = data.split(separator: UInt8(ascii: "\n"))
        let decoder = JSONDecoder()
        guard let first = lines.first, let header = try? decoder.decode(Header.self, from: Data(first)) else { return nil }
        var records: [Int: Record] = [:]
        for line in lines.dropFirst() {
            if let record = try? decoder.decode(Record.self, from: Data(line)) { records[record.page] = record }
        }
        return PageManifest(header: header, records: records)
    }

    /// Whether the record's file, under `directory`, has the size and SHA-256 recorded.
    static func holds(_ record: Record, in directory: String) -> Bool {
        let path = record.file.hasPrefix("/") ? record.file : directory + "/" + record.file
        guard let data = FileManager.default.contents(atPath: path), data.count == record.bytes else { return false }
        return sha256(data) == record.sha256
    }

    static func sha256(_ data: Data) -> String {
        String(hexadecimal: SHA256.hash(data: data))
    }

    /// The SHA-256 of a file's bytes, read in blocks, and how many bytes it read; nil when
    /// the file cannot be read.
    static func digest(ofFileAt path: String) -> (sha256: String, bytes: Int)? {
        guard let file = try? LocalFile(path: path, flags: O_RDONLY) else { return nil }
        var hash = SHA256()
        var block = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while true {
            guard let count = try? block.withUnsafeMutableBytes({ try file.read(at: offset, into: $0) }) else { return nil }
            if count == 0 { return (String(hexadecimal: hash.finalize()), offset) }
            hash.update(data: block[..<count])
            offset += count
        }
    }

    /// The seconds each page took in the manifests at `path` (one manifest, or every manifest
    /// in a directory), by 0-based page index: what `--shard-costs` balances shards by.
    static func costs(at path: String) throws -> [Int: Double] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw RendererError(.fileNotFound, "no manifest at \(path)")
        }
        let files = LocalFile.isDirectory(path)
            ? try FileManager.default.contentsOfDirectory(atPath: path).filter(isManifest).map { path + "/" + $0 }
            : [path]
        var costs: [Int: Double] = [:]
        for file in files {
            guard let manifest = read(file) else { throw RendererError(.damaged, "\(file) is not a hostapp manifest") }
            for record in manifest.records.values { costs[record.page - 1] = record.seconds }
        }
        return costs
    }
}

/// Appends the records of a running shard to its manifest.
final class ManifestWriter {
    let directory: String
    private let output: LocalFile
    /// The pages already done by an earlier run, their files checked (with `--resume`).
    let done: [Int: PageManifest.Record]

    /// Opens the manifest of `header`'s shard in `directory`. With `resume`, an existing
    /// manifest of the same header is kept and its pages whose files still match it are
    /// ``done``; otherwise (or when the header differs, with a note) a new manifest starts.
    init(directory: String, header: PageManifest.Header, resume: Bool) throws {
        self.directory = directory
        let path = directory + "/" + PageManifest.fileName(shard: header.shard, of: header.of)
        var done: [Int: PageManifest.Record] = [:]
        var keep = false
        if resume, let earlier = PageManifest.read(path) {
            if earlier.header == header {
                keep = true
                let assigned = Set(header.assigned)
                for (page, record) in earlier.records where assigned.contains(page) && PageManifest.holds(record, in: directory) {
                    done[page] = record
                }
            } else {
                Failure.printNote("\(path) records another run (document, settings or pages differ): starting it anew")
            }
        }
        if !keep {
            let line = try JSONEncoder.manifest.encode(header) + Data("\n".utf8)
            guard FileManager.default.createFile(atPath: path, contents: line) else {
                throw RendererError(.ioFailure, "cannot write the manifest \(path)")
            }
        }
        guard let output = try? LocalFile(path: path, flags: O_WRONLY) else { throw RendererError(.ioFailure, "cannot write the manifest \(path)") }
        self.output = output
        self.done = done
    }

    /// Records a finished page whose file is at `path`, written in `seconds`; `sha256` and
    /// `bytes` describe the file.
    func record(page: Int, path: String, bytes: Int, sha256: String, seconds: Double) throws {
        let relative = path.hasPrefix(directory + "/") ? String(path.dropFirst(directory.count + 1)) : path
        let record = PageManifest.Record(page: page, file: relative, bytes: bytes, sha256: sha256, seconds: (seconds * 1e4).rounded() / 1e4)
        do {
            try (JSONEncoder.manifest.encode(record) + Data("\n".utf8)).withUnsafeBytes { try output.write($0, at: output.length) }
        } catch {
            throw RendererError(.ioFailure, "cannot write the manifest in \(directory): \(error.reason)")
        }
    }
}

extension JSONEncoder {
    /// One line per value, keys in a fixed order.
    static var manifest: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
