import RendererEngine

/// The values of a form's fields by fully qualified name: what form data files carry from one
/// document, or one reader, to another. It is written and read as JSON (its `Codable` form),
/// as FDF (``fdfData(fileName:)``, ``init(fdf:)``) and, with `RendererProviderXFDF`, as XFDF.
///
/// The JSON form is one object with a member per field: a string for one value, an array of
/// strings for several, and `null` for none, in the order of the form's field tree:
///
/// ```json
/// {"name": "Ada Lovelace", "subscribe": "Yes", "colors": ["red", "green"], "notes": null}
/// ```
public struct FormValues: Hashable, Sendable {
    /// One field's values.
    public struct Entry: Hashable, Sendable {
        /// The field's fully qualified name.
        public var name: String
        /// Its values: one, several for a multi-select choice field, or none.
        public var values: [String]
        /// True when the values are button states (`Yes`, `Off`), which FDF writes as names;
        /// false for text and choices. Formats that do not say (JSON, XFDF) read as false,
        /// and filling does not depend on it.
        public var isButtonState: Bool

        /// An entry setting `name` to `values`.
        public init(name: String, values: [String], isButtonState: Bool = false) {
            self.name = name
            self.values = values
            self.isButtonState = isButtonState
        }
    }

    /// The entries, in order; a name appears once.
    public private(set) var entries: [Entry]

    /// Values from `entries`; a later entry for a name replaces an earlier one in place.
    public init(_ entries: [Entry] = []) {
        var positions: [String: Int] = [:]
        var kept: [Entry] = []
        for entry in entries {
            if let index = positions[entry.name] {
                kept[index] = entry
            } else {
                positions[entry.name] = kept.count
                kept.append(entry)
            }
        }
        self.entries = kept
    }

    /// The values of every field that takes one (text, buttons and choices; not push buttons
    /// or signatures), in the order of `fields`.
    public init(fields: [FormField]) {
        self.init(fields.filter(\.isFillable).map { field in
            Entry(name: field.name, values: field.values, isButtonState: field.kind == .checkbox || field.kind == .radio)
        })
    }

    /// The values by name, as `Document.fillForm(_:)` takes them.
    public var dictionary: [String: [String]] {
        Dictionary(entries.map { ($0.name, $0.values) }, uniquingKeysWith: { _, last in last })
    }

    /// The entry for `name`; setting one replaces the entry of that name in place, or appends it.
    public subscript(name: String) -> Entry? {
        get { entries.first { $0.name == name } }
        set {
            let index = entries.firstIndex { $0.name == name }
            switch (index, newValue) {
            case (let index?, let entry?): entries[index] = entry
            case (let index?, nil): entries.remove(at: index)
            case (nil, let entry?): entries.append(entry)
            case (nil, nil): break
            }
        }
    }
}

extension FormValues: Codable {
    /// Reads the JSON form: an object whose members are strings, arrays of strings or null.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DynamicCodingKey.self)
        var entries: [Entry] = []
        for key in container.allKeys {
            let values: [String]
            if try container.decodeNil(forKey: key) {
                values = []
            } else if let one = try? container.decode(String.self, forKey: key) {
                values = [one]
            } else {
                values = try container.decode([String].self, forKey: key)
            }
            entries.append(Entry(name: key.stringValue, values: values))
        }
        self.init(entries)
    }

    /// Writes the JSON form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: DynamicCodingKey.self)
        for entry in entries {
            let key = DynamicCodingKey(stringValue: entry.name)
            switch entry.values.count {
            case 0: try container.encodeNil(forKey: key)
            case 1: try container.encode(entry.values[0], forKey: key)
            default: try container.encode(entry.values, forKey: key)
            }
        }
    }
}
