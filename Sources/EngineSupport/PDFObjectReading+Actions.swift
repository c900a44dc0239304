#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// A document's own actions read over the PDF-object primitives, for every engine: the
/// catalog's open action and additional actions, and the JavaScript name tree.
extension PDFObjectReading {
    /// The catalog's actions (``DocumentActions``), as the document's objects hold them now.
    package func catalogActions() throws -> DocumentActions {
        var reader = ActionDescriber(objects: self)
        let catalog = try resolved(.reference(try catalogReference()))
        var actions = DocumentActions()
        if let open = catalog["OpenAction"] { actions.openAction = try reader.describe(open) }
        if case .dictionary(let triggers) = try resolved(catalog["AA"]) {
            for (trigger, action) in triggers { actions.additionalActions[trigger] = try reader.describe(action) }
        }
        if case let names = try resolved(catalog["Names"]), let tree = names["JavaScript"] {
            try reader.collectNames(tree, into: &actions.javaScript, depth: 0)
        }
        actions.isIncomplete = reader.isIncomplete
        return actions
    }
}

/// Describes actions as stable text (``DocumentActions``), following references once each
/// and reading streams (a script's `/JS`) whole up to a length.
private struct ActionDescriber<Objects: PDFObjectReading> {
    let objects: Objects
    /// Set when something could not be read whole.
    var isIncomplete = false
    /// The objects being described, so that a loop of references ends.
    private var open: Set<Int> = []

    init(objects: Objects) { self.objects = objects }

    /// The longest stream read; a longer one leaves the actions incomplete.
    private static var longestStream: Int { 16 << 20 }
    /// The deepest nesting of the name tree, and the most names, read.
    private static var deepestTree: Int { 32 }
    private static var mostNames: Int { 100_000 }

    /// `object` as text: references followed (a stream's decoded bytes in place of it),
    /// dictionaries with their keys sorted.
    mutating func describe(_ object: PDFObject) throws -> String {
        switch object {
        case .reference(let reference):
            guard !open.contains(reference.number) else { return "(loop)" }
            open.insert(reference.number)
            defer { open.remove(reference.number) }
            let target = try objects.object(reference.number)
            if case .dictionary = target, let contents = try objects.streamContents(reference.number, limit: Self.longestStream, decoded: true) {
                let dictionary: String = try describe(target)
                let bytes = String(hexadecimal: contents)
                return "stream(\(dictionary) \(bytes))"
            }
            // A stream past the length read: what it holds is unknown.
            if Self.isStreamDictionary(target) { isIncomplete = true }
            return try describe(target)
        case .array(let items):
            var parts: [String] = []
            for item in items { parts.append(try describe(item)) }
            return "[" + parts.joined(separator: " ") + "]"
        case .dictionary(let entries):
            var parts: [String] = []
            for key in entries.keys.sorted() { parts.append("/\(key) " + (try describe(entries[key]!))) }
            return "<<" + parts.joined(separator: " ") + ">>"
        default:
            return object.syntax
        }
    }

    /// Whether a dictionary is a stream's (it has a `/Length`).
    private static func isStreamDictionary(_ object: PDFObject) -> Bool { object["Length"] != nil }

    /// The names and described values of a name tree's node, its kids' first.
    mutating func collectNames(_ node: PDFObject, into names: inout [String: String], depth: Int) throws {
        guard depth < Self.deepestTree, names.count < Self.mostNames else {
            isIncomplete = true
            return
        }
        let node = try objects.resolved(node)
        for kid in node["Kids"]?.items ?? [] { try collectNames(kid, into: &names, depth: depth + 1) }
        let pairs = try objects.resolved(node["Names"]).items
        for index in stride(from: 0, to: pairs.count - 1, by: 2) {
            guard case .string(let bytes) = pairs[index] else { continue }
            names[PDFTextString.decode(bytes)] = try describe(pairs[index + 1])
        }
    }
}
