import Foundation
import RendererProvider

/// Where `hostapp render` (and `hostapp text -o`) writes each page: into a directory as
/// `NAME-PAGE.EXT`, or by a pattern whose `%d` (or `%0Nd`, zero-padded to N digits) becomes
/// the page number.
struct OutputNaming {
    private enum Target {
        case directory(String, stem: String)
        case pattern(prefix: String, width: Int, suffix: String)
    }

    private let target: Target
    private let fileExtension: String

    /// Reads `output`; a directory that does not exist yet is created.
    init(output: String, document: String, fileExtension: String) throws {
        self.fileExtension = fileExtension
        if let match = output.firstMatch(of: /%(0(\d+))?d/) {
            let width = match.output.2.flatMap { Int($0) } ?? 0
            target = .pattern(prefix: String(output[..<match.range.lowerBound]), width: width, suffix: String(output[match.range.upperBound...]))
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw RendererError(.ioFailure, "cannot create the output directory \(output): \((error as NSError).localizedDescription)")
        }
        let stem = URL(fileURLWithPath: document).deletingPathExtension().lastPathComponent
        target = .directory(output, stem: stem)
    }

    /// The directory the files go into: the output directory, or the pattern's.
    var directory: String {
        switch target {
        case .directory(let directory, _): directory
        case .pattern(let prefix, _, _):
            prefix.contains("/") ? String(prefix[...prefix.lastIndex(of: "/")!].dropLast()).nonEmpty ?? "/" : "."
        }
    }

    func path(forPage number: Int) -> String {
        switch target {
        case .directory(let directory, let stem):
            return URL(fileURLWithPath: directory).appendingPathComponent("\(stem)-\(number).\(fileExtension)").relativePath
        case .pattern(let prefix, let width, let suffix):
            let digits = String(number)
            return prefix + String(repeating: "0", count: max(0, width - digits.count)) + digits + suffix
        }
    }
}

extension String {
    /// The string, or nil when it is empty.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
