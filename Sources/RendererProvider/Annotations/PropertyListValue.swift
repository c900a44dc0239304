#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A property-list value as a tree the host can read (`[String: Any]`), read from and written
/// to property-list data with FoundationEssentials' coders: what
/// ``Annotation/dictionaryRepresentation`` is made of, without Foundation's
/// `PropertyListSerialization` (whose module would link ICU into `hostapp`).
///
/// A property list records 1.0 as a real and 1 as an integer, but its decoder gives either
/// to whoever asks for an `Int`: a whole number reads back as `Int`, any other as `Double`.
enum PropertyListValue: Codable {
    case string(String)
    case bool(Bool)
    case integer(Int)
    case real(Double)
    case date(Date)
    case data(Data)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    /// The value `any` is, when it is a property-list value: strings, booleans, integers,
    /// reals, dates, data, and arrays and string-keyed dictionaries of them.
    ///
    /// Numbers are asked for before booleans: a dictionary that went through Foundation's
    /// `PropertyListSerialization` (or user defaults) holds its numbers as `NSNumber`, and an
    /// `NSNumber` of 0 or 1 also casts to `Bool`, while a Swift `Bool` casts to no number.
    init?(_ any: Any) {
        switch any {
        case let value as String: self = .string(value)
        case let value as Int: self = .integer(value)
        case let value as Double: self = .real(value)
        case let value as Bool: self = .bool(value)
        case let value as Date: self = .date(value)
        case let value as Data: self = .data(value)
        case let values as [Any]:
            var array: [PropertyListValue] = []
            for value in values {
                guard let item = PropertyListValue(value) else { return nil }
                array.append(item)
            }
            self = .array(array)
        case let values as [String: Any]:
            var dictionary: [String: PropertyListValue] = [:]
            for (key, value) in values {
                guard let item = PropertyListValue(value) else { return nil }
                dictionary[key] = item
            }
            self = .dictionary(dictionary)
        default: return nil
        }
    }

    /// The value as the host reads it: `String`, `Bool`, `Int`, `Double`, `Date`, `Data`,
    /// `[Any]` or `[String: Any]`.
    var any: Any {
        switch self {
        case .string(let value): value
        case .bool(let value): value
        case .integer(let value): value
        case .real(let value): value
        case .date(let value): value
        case .data(let value): value
        case .array(let values): values.map(\.any)
        case .dictionary(let values): values.mapValues(\.any)
        }
    }

    init(from decoder: any Decoder) throws {
        if var container = try? decoder.unkeyedContainer() {
            var array: [PropertyListValue] = []
            while !container.isAtEnd { array.append(try container.decode(PropertyListValue.self)) }
            self = .array(array)
        } else if let container = try? decoder.container(keyedBy: DynamicCodingKey.self) {
            var dictionary: [String: PropertyListValue] = [:]
            for key in container.allKeys { dictionary[key.stringValue] = try container.decode(PropertyListValue.self, forKey: key) }
            self = .dictionary(dictionary)
        } else {
            let container = try decoder.singleValueContainer()
            // Booleans first: the decoder gives no boolean for a number, nor a number for one.
            if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Int.self) {
                self = .integer(value)
            } else if let value = try? container.decode(Double.self) {
                self = .real(value)
            } else if let value = try? container.decode(Date.self) {
                self = .date(value)
            } else if let value = try? container.decode(Data.self) {
                self = .data(value)
            } else {
                self = .string(try container.decode(String.self))
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .dictionary(let values):
            var container = encoder.container(keyedBy: DynamicCodingKey.self)
            for (key, value) in values { try container.encode(value, forKey: DynamicCodingKey(stringValue: key)) }
        default:
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .bool(let value): try container.encode(value)
            case .integer(let value): try container.encode(value)
            case .real(let value): try container.encode(value)
            case .date(let value): try container.encode(value)
            case .data(let value): try container.encode(value)
            case .array, .dictionary: break
            }
        }
    }
}
