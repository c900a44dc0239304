#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Annotations as JSON, property lists and dictionaries, for applications that keep or send them.
extension Annotation {
    /// Annotations as a JSON array: keys sorted, dates in ISO 8601 (to the second).
    public static func jsonData(_ annotations: [Annotation]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(annotations)
    }

    /// The annotations in a JSON array written by ``jsonData(_:)``; throws
    /// `invalidArgument` saying what is wrong where.
    public static func annotations(fromJSON data: Data) throws -> [Annotation] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .rfc3339
        return try decoding("JSON") { try decoder.decode([Annotation].self, from: data) }
    }

    /// Annotations as an XML property list: an array of dictionaries.
    public static func propertyListData(_ annotations: [Annotation]) throws -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        return try encoder.encode(annotations)
    }

    /// The annotations in a property list written by ``propertyListData(_:)``.
    public static func annotations(fromPropertyList data: Data) throws -> [Annotation] {
        try decoding("property list") { try PropertyListDecoder().decode([Annotation].self, from: data) }
    }

    /// The annotation as a property-list dictionary (strings, numbers, dates, arrays and
    /// dictionaries), for storing in user defaults or passing to other APIs. A whole number
    /// is an `Int`, any other a `Double`.
    public var dictionaryRepresentation: [String: Any] {
        // Every field is a property-list value, and an annotation encodes as a dictionary.
        let data = try! PropertyListEncoder().encode(self)
        return try! PropertyListDecoder().decode(PropertyListValue.self, from: data).any as! [String: Any]
    }

    /// The annotation a ``dictionaryRepresentation`` describes; throws `invalidArgument`
    /// for a dictionary that does not describe one, or that holds a value no property list
    /// can (such as an object of the host's own).
    public init(dictionaryRepresentation: [String: Any]) throws {
        guard let value = PropertyListValue(dictionaryRepresentation) else {
            throw RendererError(.invalidArgument, "the property list holds a value that is not a string, number, date, data, array or dictionary")
        }
        let data = try Self.decoding("property list") { try PropertyListEncoder().encode(value) }
        self = try Self.decoding("property list") { try PropertyListDecoder().decode(Annotation.self, from: data) }
    }

    private static func decoding<T>(_ format: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DecodingError {
            throw RendererError(.invalidArgument, "the \(format) does not describe annotations: \(error.summary)")
        } catch {
            throw RendererError(.invalidArgument, "the \(format) cannot be read: \(error.reason)")
        }
    }
}
