import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

/// One `KEY=VALUE` of `hostapp info --set`: a metadata field and its new value, an empty
/// value removing it. Dates are ISO 8601 (`2024-03-09T16:00:00Z`, or a day alone).
struct MetadataSetting: ExpressibleByArgument {
    /// The keys, by the names `--set` takes.
    static let keys = ["title", "author", "subject", "keywords", "creator", "producer", "created", "modified"]

    let key: String
    let value: String

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "=") else { return nil }
        key = argument[..<equals].lowercased()
        value = String(argument[argument.index(after: equals)...])
        guard Self.keys.contains(key) else { return nil }
        if ["created", "modified"].contains(key), !value.isEmpty, Self.date(value) == nil { return nil }
    }

    static var defaultCompletionKind: CompletionKind { .list(keys.map { $0 + "=" }) }

    /// Writes this setting into `metadata`.
    func apply(to metadata: inout DocumentMetadata) {
        let text = value.isEmpty ? nil : value
        switch key {
        case "title": metadata.title = text
        case "author": metadata.author = text
        case "subject": metadata.subject = text
        case "keywords": metadata.keywords = text
        case "creator": metadata.creator = text
        case "producer": metadata.producer = text
        case "created": metadata.creationDate = text.flatMap(Self.date)
        default: metadata.modificationDate = text.flatMap(Self.date)
        }
    }

    /// The ISO 8601 date or day `text` names.
    private static func date(_ text: String) -> Date? {
        (try? Date(text, strategy: .iso8601)) ?? (try? Date(text, strategy: Date.ISO8601FormatStyle().year().month().day()))
    }
}
