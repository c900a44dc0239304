#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// An incremental update written after a file's bytes (ISO 32000-1, 7.5.6): new and changed
/// objects, then a cross-reference section of the kind the file's last one is (a table, or
/// an uncompressed cross-reference stream) and a trailer whose `/Prev` is that last one.
/// The original bytes are kept as they are, so what signed them stays signed.
package struct IncrementalUpdate {
    /// The file's bytes, which the update follows.
    private let file: Data
    /// Where the file's last cross-reference section starts (its `startxref`).
    private let previous: Int
    /// Whether that section is a cross-reference stream.
    private let previousIsStream: Bool
    /// The entries the new trailer keeps: `/Root`, `/Info`, `/ID`.
    private let kept: [String: PDFObject]
    /// The file's `/Size`, where new object numbers start.
    private let size: Int
    /// The objects of the update, by reference, as their bytes between `obj` and `endobj`.
    private var bodies: [PDFReference: Data] = [:]
    /// Those of them set as objects, to be changed again before they are written.
    private var objects: [PDFReference: PDFObject] = [:]
    private var nextNumber: Int

    /// An update of `file`, whose last trailer is `trailer`. `damaged` when the file does not
    /// end in a `startxref` that points at a cross-reference section; `unsupported` for an
    /// encrypted file, whose new strings would have to be encrypted.
    package init(file: Data, trailer: PDFObject, rendererID: String) throws {
        guard trailer["Encrypt"] == nil else {
            throw RendererError(.unsupported, "an encrypted document cannot be updated this way", rendererID: rendererID)
        }
        guard let previous = Self.startxref(in: file), let kind = Self.sectionKind(at: previous, in: file) else {
            throw RendererError(.damaged, "the file does not end with a cross-reference section the update can follow; save it whole first", rendererID: rendererID)
        }
        guard let size = trailer["Size"]?.number, size >= 1, size < 8_388_608 else {
            throw RendererError(.damaged, "the file's trailer has no usable /Size", rendererID: rendererID)
        }
        self.file = file
        self.previous = previous
        self.previousIsStream = kind == .stream
        self.size = Int(size)
        self.nextNumber = Int(size)
        self.kept = ["Root", "Info", "ID"].reduce(into: [:]) { kept, key in kept[key] = trailer[key] }
    }

    /// A new object number, for an object set later.
    package mutating func reserve() -> PDFReference {
        defer { nextNumber += 1 }
        return PDFReference(number: nextNumber, generation: 0)
    }

    /// Writes `object` as the object `reference` names, new or changed.
    package mutating func set(_ reference: PDFReference, to object: PDFObject) {
        bodies[reference] = Data(object.syntax.utf8)
        objects[reference] = object
    }

    /// The object set for `reference` so far; nil when none is, or its body was given as bytes.
    package func pending(_ reference: PDFReference) -> PDFObject? {
        objects[reference]
    }

    /// Writes the object `reference` names as `body`, bytes of PDF syntax already made.
    package mutating func set(_ reference: PDFReference, body: Data) {
        bodies[reference] = body
        objects[reference] = nil
    }

    /// Writes a stream of `contents` (unfiltered) with `dictionary`, its `/Length` added.
    package mutating func setStream(_ reference: PDFReference, dictionary: [String: PDFObject], contents: Data) {
        var entries = dictionary
        entries["Length"] = .integer(contents.count)
        bodies[reference] = Data(PDFObject.dictionary(entries).syntax.utf8) + Data("\nstream\n".utf8) + contents + Data("\nendstream".utf8)
        objects[reference] = nil
    }

    /// The file with the update after it, and where each object's body starts in it.
    package func written() -> (data: Data, bodyOffsets: [PDFReference: Int]) {
        var out = Data(capacity: file.count + 4096)
        out.append(file)
        if let last = out.last, last != 0x0A, last != 0x0D { out.append(0x0A) }
        var offsets: [PDFReference: Int] = [:]
        var entries: [(reference: PDFReference, offset: Int)] = []
        for reference in bodies.keys.sorted(by: { $0.number < $1.number }) {
            let start = out.count
            out.append(Data("\(reference.number) \(reference.generation) obj\n".utf8))
            offsets[reference] = out.count
            out.append(bodies[reference]!)
            out.append(Data("\nendobj\n".utf8))
            entries.append((reference, start))
        }
        var trailer = kept
        trailer["Prev"] = .integer(previous)
        let sectionStart = out.count
        if previousIsStream {
            let own = PDFReference(number: nextNumber, generation: 0)
            entries.append((own, sectionStart))
            trailer["Size"] = .integer(max(size, own.number + 1))
            out.append(Self.crossReferenceStream(entries, trailer: trailer, own: own))
        } else {
            trailer["Size"] = .integer(max(size, (entries.map(\.reference.number).max() ?? 0) + 1))
            out.append(Self.crossReferenceTable(entries))
            out.append(Data("trailer\n\(PDFObject.dictionary(trailer).syntax)\n".utf8))
        }
        out.append(Data("startxref\n\(sectionStart)\n%%EOF\n".utf8))
        return (out, offsets)
    }

    /// A table with one subsection per run of consecutive object numbers.
    private static func crossReferenceTable(_ entries: [(reference: PDFReference, offset: Int)]) -> Data {
        var text = "xref\n"
        for run in runs(of: entries) {
            text += "\(run[0].reference.number) \(run.count)\n"
            for entry in run { text += String(printf: "%010ld %05ld n\r\n", entry.offset, entry.reference.generation) }
        }
        return Data(text.utf8)
    }

    /// An uncompressed cross-reference stream (object `own`) holding `entries`.
    private static func crossReferenceStream(_ entries: [(reference: PDFReference, offset: Int)], trailer: [String: PDFObject], own: PDFReference) -> Data {
        let offsetWidth = entries.map(\.offset).max().map { $0 > 0xFFFF_FFFF ? 8 : 4 } ?? 4
        var rows = Data()
        var index: [PDFObject] = []
        for run in runs(of: entries) {
            index += [.integer(run[0].reference.number), .integer(run.count)]
            for entry in run {
                rows.append(1)
                for shift in stride(from: (offsetWidth - 1) * 8, through: 0, by: -8) { rows.append(UInt8(truncatingIfNeeded: entry.offset >> shift)) }
                rows.append(contentsOf: [UInt8(truncatingIfNeeded: entry.reference.generation >> 8), UInt8(truncatingIfNeeded: entry.reference.generation)])
            }
        }
        var dictionary = trailer
        dictionary["Type"] = .name("XRef")
        dictionary["W"] = .array([.integer(1), .integer(offsetWidth), .integer(2)])
        dictionary["Index"] = .array(index)
        dictionary["Length"] = .integer(rows.count)
        return Data("\(own.number) 0 obj\n\(PDFObject.dictionary(dictionary).syntax)\nstream\n".utf8) + rows + Data("\nendstream\nendobj\n".utf8)
    }

    /// `entries` (in ascending order) cut where the object numbers stop following each other.
    private static func runs(of entries: [(reference: PDFReference, offset: Int)]) -> [[(reference: PDFReference, offset: Int)]] {
        var runs: [[(reference: PDFReference, offset: Int)]] = []
        for entry in entries {
            if let last = runs.last?.last, last.reference.number + 1 == entry.reference.number {
                runs[runs.count - 1].append(entry)
            } else {
                runs.append([entry])
            }
        }
        return runs
    }

    private enum SectionKind { case table, stream }

    /// The offset the file's last `startxref` gives, read from its last kilobytes.
    private static func startxref(in file: Data) -> Int? {
        let tail = file.suffix(4096)
        guard let keyword = tail.lastRange(of: Data("startxref".utf8)) else { return nil }
        let digits = tail[keyword.upperBound...].drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }.prefix { (0x30...0x39).contains($0) }
        guard !digits.isEmpty, digits.count < 16, let offset = Int(String(decoding: digits, as: UTF8.self)), offset < file.count else { return nil }
        return offset
    }

    /// What starts at `offset`: the keyword `xref`, or an object (`N G obj`, a stream).
    private static func sectionKind(at offset: Int, in file: Data) -> SectionKind? {
        let start = file.index(file.startIndex, offsetBy: offset)
        let head = String(decoding: file[start..<min(file.endIndex, start + 32)], as: UTF8.self)
        if head.hasPrefix("xref") { return .table }
        let parts = head.split(whereSeparator: \.isWhitespace)
        if parts.count >= 3, Int(parts[0]) != nil, Int(parts[1]) != nil, parts[2].hasPrefix("obj") { return .stream }
        return nil
    }
}
