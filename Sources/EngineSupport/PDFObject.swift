import CAnnotationRecord
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// An indirect object's number and generation, as `N G R` names it.
package struct PDFReference: Hashable, Sendable {
    package var number: Int
    package var generation: Int

    package init(number: Int, generation: Int) {
        self.number = number
        self.generation = generation
    }
}

/// A PDF object as ``PDFObjectEditing`` reads and writes it: references are not followed,
/// names are their decoded text, strings their bytes. Streams are read as their dictionary
/// and never written.
package indirect enum PDFObject: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    case real(Double)
    case name(String)
    case string([UInt8])
    case array([PDFObject])
    case dictionary([String: PDFObject])
    case reference(PDFReference)

    /// A text string: its bytes as they are when `text` is printable ASCII (the same in
    /// PDFDocEncoding), else UTF-16BE after a byte order mark.
    package static func text(_ text: String) -> PDFObject {
        let utf8 = Array(text.utf8)
        if utf8.allSatisfy({ (0x20...0x7E).contains($0) }) { return .string(utf8) }
        return .string([0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
    }

    /// A number, written as an integer when it is one.
    package static func number(_ value: Double) -> PDFObject {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? .integer(Int(value)) : .real(value)
    }

    /// The entry `key` of a dictionary; nil for another object or a missing key.
    package subscript(key: String) -> PDFObject? {
        if case .dictionary(let entries) = self { return entries[key] }
        return nil
    }

    /// This dictionary with entry `key` set to `value` (nil removes it); any other object
    /// becomes a dictionary of that one entry.
    package func setting(_ key: String, to value: PDFObject?) -> PDFObject {
        var entries: [String: PDFObject] = [:]
        if case .dictionary(let existing) = self { entries = existing }
        entries[key] = value
        return .dictionary(entries)
    }

    /// The items of an array; empty for anything else.
    package var items: [PDFObject] {
        if case .array(let items) = self { return items }
        return []
    }

    /// The value of a number; nil for anything else.
    package var number: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: return nil
        }
    }

    /// The value of a number as a whole number (a real's integer part), within ±9e15 so that
    /// sums of a few stay in range; nil for anything else, and for a number beyond that: a
    /// hostile file's `1e39` must not stop the process.
    package var wholeNumber: Int? {
        switch self {
        case .integer(let value): return value.magnitude < 9_000_000_000_000_000 ? value : nil
        case .real(let value): return value.magnitude < 9e15 ? Int(value.rounded(.towardZero)) : nil
        default: return nil
        }
    }

    /// The object as a file writes it: strings in hexadecimal, names with `#xx` escapes,
    /// dictionary keys sorted so that equal objects are written alike.
    package var syntax: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .real(let value): return Self.format(value)
        case .name(let name): return PDFTextString.nameToken(for: name)
        case .string(let bytes): return "<" + bytes.map { String(printf: "%02X", $0) }.joined() + ">"
        case .array(let items): return "[" + items.map(\.syntax).joined(separator: " ") + "]"
        case .dictionary(let entries):
            return "<<" + entries.keys.sorted().map { PDFTextString.nameToken(for: $0) + " " + entries[$0]!.syntax }.joined(separator: " ") + ">>"
        case .reference(let reference): return "\(reference.number) \(reference.generation) R"
        }
    }

    /// A real without an exponent (PDF has none), to a hundred-thousandth; 0 for a value that is not finite.
    private static func format(_ value: Double) -> String {
        value.isFinite ? value.decimalText(places: 5) : "0"
    }
}

/// Builds one ``PDFObject`` from the tokens a C layer hands over (`pdf_token_kind`,
/// CAnnotationRecord.h).
package final class PDFObjectBuilder {
    /// A container being read, with the key it is the value of in the dictionary around it.
    private struct Frame {
        var isArray: Bool
        var items: [PDFObject] = []
        var entries: [String: PDFObject] = [:]
        var key: String?
    }

    private var frames: [Frame] = []
    private var result: PDFObject?
    private var pendingKey: String?

    /// The object `call` hands over: `call` passes the callback and its user pointer to the
    /// C layer's reading function. Null when the tokens make no whole object.
    package static func read(_ call: (pdf_token_callback, UnsafeMutableRawPointer) throws -> Void) rethrows -> PDFObject {
        let builder = PDFObjectBuilder()
        try call({ user, kind, number, generation, bytes, length in
            let builder = Unmanaged<PDFObjectBuilder>.fromOpaque(user!).takeUnretainedValue()
            let data = bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? []
            builder.take(kind, number: number, generation: Int(generation), bytes: data)
        }, Unmanaged.passUnretained(builder).toOpaque())
        return builder.frames.isEmpty ? builder.result ?? .null : .null
    }

    private func take(_ kind: pdf_token_kind, number: Double, generation: Int, bytes: [UInt8]) {
        switch kind {
        case PDF_TOKEN_KEY: pendingKey = String(decoding: bytes, as: UTF8.self)
        case PDF_TOKEN_ARRAY_BEGIN, PDF_TOKEN_DICT_BEGIN:
            frames.append(Frame(isArray: kind == PDF_TOKEN_ARRAY_BEGIN, key: pendingKey))
            pendingKey = nil
        case PDF_TOKEN_ARRAY_END, PDF_TOKEN_DICT_END:
            guard let frame = frames.popLast() else { return }
            pendingKey = frame.key
            add(frame.isArray ? .array(frame.items) : .dictionary(frame.entries))
        case PDF_TOKEN_BOOL: add(.bool(number != 0))
        case PDF_TOKEN_INTEGER: add(number.magnitude < 9e15 ? .integer(Int(number)) : .real(number))
        case PDF_TOKEN_REAL: add(.real(number))
        case PDF_TOKEN_NAME: add(.name(String(decoding: bytes, as: UTF8.self)))
        case PDF_TOKEN_STRING: add(.string(bytes))
        case PDF_TOKEN_REFERENCE: add(.reference(PDFReference(number: Int(number), generation: generation)))
        default: add(.null)
        }
    }

    /// Adds a finished value to the container being read (under the pending key in a
    /// dictionary), or makes it the result.
    private func add(_ value: PDFObject) {
        defer { pendingKey = nil }
        guard !frames.isEmpty else {
            result = value
            return
        }
        if frames[frames.count - 1].isArray {
            frames[frames.count - 1].items.append(value)
        } else if let key = pendingKey {
            frames[frames.count - 1].entries[key] = value
        }
    }
}
