#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A feature a session can allow or refuse.
public enum SessionFeature: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    /// Saving over the session's file.
    case save
    /// Saving to another file.
    case saveTo
    /// Changing the document's pages and content (the PDF's `modify` permission).
    case editing
    /// Printing and exporting pages as images (the PDF's `print` permission).
    case printing
    /// Copying text and images out of the document (the PDF's `copy` permission): its text
    /// written out (plain, Markdown, HTML: the command line's `text`, the server's structure
    /// route, an agent's `get_text`), copied to the clipboard in the viewer, and its images
    /// extracted. Reading is not copying: search, find, and the text a screen reader reads
    /// (the PDF 2.0 rule for accessibility) stay allowed.
    case copying
    /// Printing from memory: a mode, off by default, in which a print job is made and sent
    /// without the provider writing any copy of the document or its pages to disk, and under
    /// a neutral job name rather than the document's (what the print server itself keeps is
    /// its own; docs/desktop-and-printing.md says what CUPS keeps). A host that requires
    /// it sets it enabled and unavailable, so that the reader cannot switch it off.
    case securePrinting
    /// Adding, changing and removing annotations (the PDF's `annotate` permission).
    case annotations
    /// Redaction annotations and applying them (the PDF's `modify` permission).
    case redaction
    /// Filling form fields (the PDF's `fillForms` permission).
    case formFilling
    /// Signing signature fields (the PDF's `fillForms` permission).
    case signing
    /// Showing the document full screen.
    case fullScreen
    /// Drawing pages for a dark screen (`RenderOptions.darkMode`).
    case darkMode

    /// The PDF permission the feature also needs, if any.
    public var pdfPermission: DocumentPermissions? {
        switch self {
        case .editing, .redaction: .modify
        case .printing: .print
        case .copying: .copy
        case .annotations: .annotate
        case .formFilling, .signing: .fillForms
        case .save, .saveTo, .fullScreen, .darkMode, .securePrinting: nil
        }
    }

    public static func < (lhs: SessionFeature, rhs: SessionFeature) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Whether one feature may be used (``available``) and whether it is switched on
/// (``enabled``). An action (saving, annotating, printing) is permitted when both are true;
/// for a mode (``SessionFeature/fullScreen``, ``SessionFeature/darkMode``) ``enabled`` is
/// whether it is on, and it may be switched on only when ``available``.
public struct FeatureSetting: Hashable, Sendable, Codable {
    /// Whether the feature may be used at all.
    public var available: Bool
    /// Whether it is switched on.
    public var enabled: Bool

    /// A setting; available and enabled by default.
    public init(available: Bool = true, enabled: Bool = true) {
        self.available = available
        self.enabled = enabled
    }
}

/// What a session allows for one document: a setting per ``SessionFeature`` and an optional
/// expiry date. The session enforces them, together with the PDF's own permissions: the
/// stricter wins, and an owner password lifts only the PDF's.
///
/// In JSON each feature is an object with `available` and `enabled` (either may be left
/// out; both default to true) or a plain boolean for both, and `expiryDate` is an ISO 8601
/// date: `{"save": false, "darkMode": {"enabled": true}, "expiryDate": "2027-01-01T00:00:00Z"}`.
/// Unknown keys and values of the wrong type are errors.
public struct DocumentSettings: Hashable, Sendable {
    /// Every feature's setting; features not listed are allowed and, modes aside, enabled.
    public private(set) var features: [SessionFeature: FeatureSetting]
    /// Past this moment the document does not open (unless the host allows it).
    public var expiryDate: Date?

    /// Settings that allow everything; dark mode, full screen and secure printing available but off.
    public init(expiryDate: Date? = nil) {
        features = Dictionary(uniqueKeysWithValues: SessionFeature.allCases.map { ($0, FeatureSetting()) })
        features[.darkMode]?.enabled = false
        features[.fullScreen]?.enabled = false
        features[.securePrinting]?.enabled = false
        self.expiryDate = expiryDate
    }

    /// The setting of `feature`.
    public subscript(feature: SessionFeature) -> FeatureSetting {
        get { features[feature] ?? FeatureSetting() }
        set { features[feature] = newValue }
    }

    /// True when `feature` may be used now: available, and enabled unless it is a mode.
    public func permits(_ feature: SessionFeature) -> Bool {
        let setting = self[feature]
        switch feature {
        case .fullScreen, .darkMode, .securePrinting: return setting.available
        default: return setting.available && setting.enabled
        }
    }

    /// Throws `notPermitted` unless these settings permit `feature` (``permits(_:)``) and
    /// `pdfPermissions` grant the PDF permission it needs (``SessionFeature/pdfPermission``),
    /// naming the setting or the permission that refuses it.
    public func check(_ feature: SessionFeature, pdfPermissions: DocumentPermissions) throws {
        guard permits(feature) else {
            throw RendererError(.notPermitted, "\(feature.rawValue) is not permitted by this document's settings (setting \(feature.rawValue))")
        }
        if let needed = feature.pdfPermission, !pdfPermissions.isSuperset(of: needed) {
            throw RendererError(
                .notPermitted,
                "\(feature.rawValue) is not permitted by the PDF's own permissions (permission \(needed.names.joined(separator: ", "))); the owner password lifts them")
        }
    }

    /// Makes every feature available and enabled.
    public mutating func enableAll() {
        for feature in SessionFeature.allCases { features[feature] = FeatureSetting(available: true, enabled: true) }
    }

    /// Makes every feature unavailable and disabled.
    public mutating func disableAll() {
        for feature in SessionFeature.allCases { features[feature] = FeatureSetting(available: false, enabled: false) }
    }
}

extension DocumentSettings: Codable {
    private typealias Key = DynamicCodingKey

    private enum FeatureKey: String, CodingKey {
        case available, enabled
    }

    public init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: Key.self)
        for key in container.allKeys {
            if key.stringValue == Key.expiryDate.stringValue {
                let text = try container.decode(String.self, forKey: key)
                guard let date = try? Date(text, strategy: .iso8601) else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\"\(text)\" is not an ISO 8601 date such as 2027-01-01T00:00:00Z")
                }
                expiryDate = date
                continue
            }
            guard let feature = SessionFeature(rawValue: key.stringValue) else {
                let known = (SessionFeature.allCases.map(\.rawValue) + ["expiryDate"]).joined(separator: ", ")
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "unknown setting \"\(key.stringValue)\"; the settings are \(known)")
            }
            if let both = try? container.decode(Bool.self, forKey: key) {
                self[feature] = FeatureSetting(available: both, enabled: both)
                continue
            }
            let setting = try container.nestedContainer(keyedBy: Key.self, forKey: key)
            var value = FeatureSetting()
            for inner in setting.allKeys {
                switch FeatureKey(rawValue: inner.stringValue) {
                case .available: value.available = try setting.decode(Bool.self, forKey: inner)
                case .enabled: value.enabled = try setting.decode(Bool.self, forKey: inner)
                case nil:
                    throw DecodingError.dataCorruptedError(
                        forKey: inner, in: setting, debugDescription: "unknown field \"\(inner.stringValue)\" of \(feature.rawValue); a setting has available and enabled")
                }
            }
            self[feature] = value
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for feature in SessionFeature.allCases {
            var setting = container.nestedContainer(keyedBy: FeatureKey.self, forKey: Key(stringValue: feature.rawValue))
            try setting.encode(self[feature].available, forKey: .available)
            try setting.encode(self[feature].enabled, forKey: .enabled)
        }
        if let expiryDate {
            try container.encode(expiryDate.formatted(.iso8601), forKey: .expiryDate)
        }
    }

    /// Settings from JSON, as the type's documentation shows; `invalidArgument`, naming the
    /// key, for an unknown key or a value of the wrong type.
    public static func fromJSON(_ data: Data) throws -> DocumentSettings {
        do {
            return try JSONDecoder().decode(DocumentSettings.self, from: data)
        } catch let error as DecodingError {
            throw RendererError(.invalidArgument, "the settings are not valid: \(error.summary)")
        } catch {
            throw RendererError(.invalidArgument, "the settings are not JSON: \(error.reason)")
        }
    }
}

extension DynamicCodingKey {
    /// The settings' expiry date.
    fileprivate static let expiryDate = DynamicCodingKey(stringValue: "expiryDate")
}
