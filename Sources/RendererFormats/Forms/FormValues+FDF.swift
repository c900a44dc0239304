#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// FDF (Forms Data Format, ISO 32000-1, 12.7.8): the PDF-syntax file that carries a form's
/// values apart from the form.
extension FormValues {
    /// The values as an FDF file. Fields are written as a tree of partial names (`/T`) with
    /// `/Kids`, as the field tree of the form has them; a value is a string, a name for a
    /// button state, or an array of strings for several choices. An entry with no values is
    /// written as `/V /Off` for a button and `/V ()` otherwise, so that importing it clears
    /// the field. `fileName`, when given, is written as the form the values belong to (`/F`).
    public func fdfData(fileName: String? = nil) -> Data {
        var root = FieldNode(partialName: "")
        for entry in entries { root.insert(entry, path: entry.name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)) }
        var body = "<< /FDF << /Fields [\n"
        for kid in root.kids { body += kid.token(indent: "  ") + "\n" }
        body += "]"
        if let fileName { body += " /F " + PDFTextString.token(for: fileName) }
        body += " >> >>"
        let text = "%FDF-1.2\n%\u{E2}\u{E3}\u{CF}\u{D3}\n1 0 obj\n\(body)\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"
        return Data(text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
    }

    /// The values of an FDF file: every field of its `/Fields` tree that has a `/V`, named by
    /// joining the partial names (`/T`) from the top. Strings are text (empty: no value),
    /// names are button states, arrays list several choices. Throws `invalidArgument` when
    /// the data is not FDF (no `/FDF` dictionary in the catalog, a value of another type, a
    /// field with no name), or a field tree loops or nests too deeply.
    public init(fdf data: Data) throws {
        let reader = try FDFObjectReader([UInt8](data))
        guard case .dictionary(let root) = reader.resolved(reader.trailer?["Root"]),
            case .dictionary(let fdf) = reader.resolved(root["FDF"])
        else { throw FDFObjectReader.error("it has no catalog with an /FDF dictionary") }
        var entries: [Entry] = []
        var visited: Set<Int> = []
        func walk(_ fields: FDFObject, prefix: String, depth: Int) throws {
            guard depth < FDFObjectReader.depthLimit else { throw FDFObjectReader.error("its field tree is deeper than \(FDFObjectReader.depthLimit) levels") }
            guard case .array(let kids) = reader.resolved(fields) else { throw FDFObjectReader.error("a /Fields or /Kids entry is not an array") }
            for kid in kids {
                if case .reference(let number) = kid {
                    guard visited.insert(number).inserted else { throw FDFObjectReader.error("its field tree loops at object \(number)") }
                }
                guard case .dictionary(let field) = reader.resolved(kid) else { throw FDFObjectReader.error("a field is not a dictionary") }
                guard case .string(let partial) = reader.resolved(field["T"]) else { throw FDFObjectReader.error("a field has no name (/T)") }
                let name = prefix.isEmpty ? PDFTextString.decode(partial) : prefix + "." + PDFTextString.decode(partial)
                if let value = field["V"] { entries.append(try Self.entry(name, value: reader.resolved(value), reader: reader)) }
                if let grandkids = field["Kids"] { try walk(grandkids, prefix: name, depth: depth + 1) }
            }
        }
        try walk(fdf["Fields"] ?? .array([]), prefix: "", depth: 0)
        self.init(entries)
    }

    private static func entry(_ name: String, value: FDFObject, reader: FDFObjectReader) throws -> Entry {
        switch value {
        case .null: return Entry(name: name, values: [])
        case .string(let bytes):
            let text = PDFTextString.decode(bytes)
            return Entry(name: name, values: text.isEmpty ? [] : [text])
        case .name(let state): return Entry(name: name, values: [state], isButtonState: true)
        case .array(let items):
            let values = try items.map { item in
                guard case .string(let bytes) = reader.resolved(item) else { throw FDFObjectReader.error("the value of \(name) lists something not a string") }
                return PDFTextString.decode(bytes)
            }
            return Entry(name: name, values: values)
        default:
            throw FDFObjectReader.error("the value of \(name) is not a string, a name or an array")
        }
    }
}

/// A field of the tree ``FormValues/fdfData(fileName:)`` writes: a partial name, the entry
/// that ends there (when one does) and the fields below it, in the order first named.
private struct FieldNode {
    let partialName: String
    var entry: FormValues.Entry?
    var kids: [FieldNode] = []

    init(partialName: String) { self.partialName = partialName }

    mutating func insert(_ entry: FormValues.Entry, path: ArraySlice<String>) {
        guard let first = path.first else {
            self.entry = entry
            return
        }
        if let index = kids.firstIndex(where: { $0.partialName == first }) {
            kids[index].insert(entry, path: path.dropFirst())
        } else {
            var kid = FieldNode(partialName: first)
            kid.insert(entry, path: path.dropFirst())
            kids.append(kid)
        }
    }

    mutating func insert(_ entry: FormValues.Entry, path: [String]) { insert(entry, path: path[...]) }

    func token(indent: String) -> String {
        var parts = ["/T " + PDFTextString.token(for: partialName)]
        if let entry {
            switch (entry.values.count, entry.isButtonState) {
            case (0, true): parts.append("/V /Off")
            case (0, false): parts.append("/V ()")
            case (1, true): parts.append("/V " + PDFTextString.nameToken(for: entry.values[0]))
            case (1, false): parts.append("/V " + PDFTextString.token(for: entry.values[0]))
            default: parts.append("/V [" + entry.values.map(PDFTextString.token(for:)).joined(separator: " ") + "]")
            }
        }
        guard !kids.isEmpty else { return indent + "<< " + parts.joined(separator: " ") + " >>" }
        let inner = kids.map { $0.token(indent: indent + "  ") }.joined(separator: "\n")
        return indent + "<< " + parts.joined(separator: " ") + " /Kids [\n" + inner + "\n" + indent + "] >>"
    }
}
