#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A terminal field of a document's interactive form (AcroForm), as the file holds it: what
/// kind it is, its value, its options and where its widgets are.
public struct FormField: Hashable, Sendable, Codable {
    /// What a field is, from its `/FT` and flags.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// Text typed in (`/FT /Tx`).
        case text
        /// A button that is on or off (`/FT /Btn`).
        case checkbox
        /// One of a group of buttons, of which at most one is on (`/FT /Btn`, radio flag).
        case radio
        /// A button that acts and keeps no value (`/FT /Btn`, push-button flag).
        case pushButton
        /// A list of options shown at once (`/FT /Ch`).
        case listBox
        /// A list of options that drops down (`/FT /Ch`, combo flag).
        case comboBox
        /// A signature (`/FT /Sig`).
        case signature
        /// A field whose `/FT` is missing or unknown.
        case unknown
    }

    /// The field flags the API reads (`/Ff`, ISO 32000-1, tables 221, 226, 228 and 230).
    public struct Flags: OptionSet, Hashable, Sendable, Codable {
        /// The `/Ff` bits.
        public let rawValue: Int
        /// Flags of the given `/Ff` bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The value cannot be changed.
        public static let readOnly = Flags(rawValue: 1 << 0)
        /// A value is required before the form is submitted.
        public static let required = Flags(rawValue: 1 << 1)
        /// A text field of several lines.
        public static let multiline = Flags(rawValue: 1 << 12)
        /// A text field whose value is not shown.
        public static let password = Flags(rawValue: 1 << 13)
        /// A choice field whose several options can be chosen at once.
        public static let multiSelect = Flags(rawValue: 1 << 21)
        /// A combo box whose value can be typed as well as chosen.
        public static let editable = Flags(rawValue: 1 << 18)
    }

    /// An option of a choice field.
    public struct Option: Hashable, Sendable, Codable {
        /// The value the field takes when the option is chosen (its export value).
        public var value: String
        /// The text shown for it.
        public var label: String

        /// An option of `value` shown as `label`.
        public init(value: String, label: String) {
            self.value = value
            self.label = label
        }
    }

    /// Where one of the field's widgets is shown.
    public struct Widget: Hashable, Sendable, Codable {
        /// The page; nil when no page shows the widget.
        public var pageIndex: Int?
        /// Its rectangle in page space; nil when it has no page.
        public var rect: PageRect?
        /// For a checkbox or radio button, the state that turns this widget on (such as
        /// `Yes`); nil for other fields.
        public var onState: String?

        /// A widget with the given facts.
        public init(pageIndex: Int?, rect: PageRect?, onState: String? = nil) {
            self.pageIndex = pageIndex
            self.rect = rect
            self.onState = onState
        }
    }

    /// The fully qualified name: the partial names (`/T`) from the top of the field tree,
    /// joined by dots.
    public var name: String
    /// What the field is.
    public var kind: Kind
    /// The current value (`/V`): the text, the state of a button (`Off` when none is on), or
    /// the chosen option's value; nil when the field has none. A signature's value is its
    /// signature: see ``SignatureField``.
    public var value: String?
    /// Every chosen value, for a choice field of several; `[value]` or empty otherwise.
    public var values: [String]
    /// The value a reset gives the field (`/DV`).
    public var defaultValue: String?
    /// The options of a list or combo box (`/Opt`).
    public var options: [Option]
    /// The flags.
    public var flags: Flags
    /// The greatest number of characters of a text field (`/MaxLen`); nil when unlimited.
    public var maxLength: Int?
    /// The field's widgets, in `/Kids` order.
    public var widgets: [Widget]

    /// A field with the given facts.
    public init(
        name: String, kind: Kind, value: String? = nil, values: [String]? = nil, defaultValue: String? = nil, options: [Option] = [],
        flags: Flags = [], maxLength: Int? = nil, widgets: [Widget] = []
    ) {
        self.name = name
        self.kind = kind
        self.value = value
        self.values = values ?? value.map { [$0] } ?? []
        self.defaultValue = defaultValue
        self.options = options
        self.flags = flags
        self.maxLength = maxLength
        self.widgets = widgets
    }

    /// The kind a field of type `type` (`Tx`, `Btn`, `Ch`, `Sig`) with `flags` (`/Ff`) is.
    public static func kind(type: String, flags: Int) -> Kind {
        switch type {
        case "Tx": .text
        case "Btn": flags & (1 << 16) != 0 ? .pushButton : flags & (1 << 15) != 0 ? .radio : .checkbox
        case "Ch": flags & (1 << 17) != 0 ? .comboBox : .listBox
        case "Sig": .signature
        default: .unknown
        }
    }
}
