#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

/// Where `hostapp render` (and `hostapp text -o`) writes each page: into a directory as
/// `NAME-PAGE.EXT`, the page number zero-padded to the width of the document's page count
/// (`long-01.png` ... `long-10.png`, so that the files sort in page order), by a pattern whose `%d` (or `%0Nd`, zero-padded to N digits) becomes the
/// page number, into one file named with the output's own extension, or, for `-`, to
/// standard output. The last two take one page, as `mutool draw -o page.png doc.pdf 1` does.
struct OutputNaming {
    private enum Target {
        case directory(String, stem: String, width: Int)
        case pattern(prefix: String, width: Int, suffix: String)
        case file(String)
        case standardOutput
    }

    private let target: Target
    private let fileExtension: String

    /// Reads `output` for `pageCount` selected pages of a document of `documentPageCount`:
    /// `-` is standard output; a name with `%d` a
    /// pattern; an existing directory, or a name whose extension is not one of
    /// `fileExtensions`, a directory (created if missing); any other name one file. Standard
    /// output and one file with several pages throw `invalidArgument`.
    init(output: String, document: String, fileExtension: String, fileExtensions: Set<String>, pageCount: Int, documentPageCount: Int) throws {
        self.fileExtension = fileExtension
        if let match = output.firstMatch(of: /%(0(\d+))?d/) {
            let width = match.output.2.flatMap { Int($0) } ?? 0
            target = .pattern(prefix: String(output[..<match.range.lowerBound]), width: width, suffix: String(output[match.range.upperBound...]))
            return
        }
        if output == "-" || Self.namesFile(output, extensions: fileExtensions) {
            guard pageCount == 1 else {
                let example = output == "-" ? "a directory" : "a pattern such as \(URL(fileURLWithPath: output).deletingPathExtension().relativePath)-%d.\(URL(fileURLWithPath: output).pathExtension)"
                throw RendererError(.invalidArgument, "\(output == "-" ? "standard output" : output) takes one page and \(pageCount) are selected: choose one with --pages, or write to \(example)")
            }
            target = output == "-" ? .standardOutput : .file(output)
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw RendererError(.ioFailure, "cannot create the output directory \(output): \(error.reason)")
        }
        let stem = URL(fileURLWithPath: document).deletingPathExtension().lastPathComponent
        target = .directory(output, stem: stem, width: String(documentPageCount).count)
    }

    /// Whether the page goes to standard output rather than to a file.
    var writesStandardOutput: Bool {
        if case .standardOutput = target { return true }
        return false
    }

    /// The directory the files go into: the output directory, the pattern's or the file's
    /// (the current directory for standard output).
    var directory: String {
        switch target {
        case .directory(let directory, _, _): directory
        case .pattern(let prefix, _, _): Self.folder(of: prefix)
        case .file(let path): Self.folder(of: path)
        case .standardOutput: "."
        }
    }

    /// The file page `number` (1-based) is written to; `-` for standard output.
    func path(forPage number: Int) -> String {
        switch target {
        case .directory(let directory, let stem, let width):
            return URL(fileURLWithPath: directory).appendingPathComponent("\(stem)-\(Self.padded(number, to: width)).\(fileExtension)").relativePath
        case .pattern(let prefix, let width, let suffix):
            return prefix + Self.padded(number, to: width) + suffix
        case .file(let path):
            return path
        case .standardOutput:
            return "-"
        }
    }

    /// Whether `output` names one file: no `%d` pattern, no existing directory, and an
    /// extension (any case) among `extensions`.
    static func namesFile(_ output: String, extensions: Set<String>) -> Bool {
        guard output.firstMatch(of: /%(0\d+)?d/) == nil, extensions.contains(URL(fileURLWithPath: output).pathExtension.lowercased()) else {
            return false
        }
        return !LocalFile.isDirectory(output)
    }

    /// `number` in decimal, zero-padded to `width` digits.
    static func padded(_ number: Int, to width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func folder(of path: String) -> String {
        path.contains("/") ? String(path[...path.lastIndex(of: "/")!].dropLast()).nonEmpty ?? "/" : "."
    }
}

extension String {
    /// The string, or nil when it is empty.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
