import Foundation
import RendererProvider

/// What a document holds besides its pixels and its text, in a form that stays the same from
/// one run to the next: page sizes, metadata, outline, annotations, form fields and fonts.
/// What a PDF writer changes on every run is left out: dates, the file identifier, the
/// random tag of a subset font's name, the annotations' identities. Numbers are rounded to
/// hundredths of a point. An aspect the engine cannot read is nil (and left out of the JSON).
public struct DocumentStructure: Hashable, Sendable, Codable {
    /// A page's size as displayed, its rotation and its label.
    public struct Page: Hashable, Sendable, Codable {
        /// Width and height in points, after the rotation.
        public var width, height: Double
        /// The page's rotation, in degrees clockwise.
        public var rotation: Int
        /// The page's label (its number, unless the document labels pages otherwise).
        public var label: String
    }

    /// The document's descriptive metadata, without its dates.
    public struct Metadata: Hashable, Sendable, Codable {
        /// The PDF version of the header, such as "1.7".
        public var pdfVersion: String
        /// The Info dictionary's entries of those names.
        public var title, author, subject, keywords, creator, producer: String?
        /// Whether the file is encrypted.
        public var encrypted: Bool
    }

    /// An outline item: its title, the page it goes to (0-based) or its URI, and its children.
    public struct OutlineEntry: Hashable, Sendable, Codable {
        /// The item's title.
        public var title: String
        /// The 0-based page it goes to, if it goes to a page.
        public var page: Int?
        /// The URI it opens, if it opens one.
        public var uri: String?
        /// Its children, in order.
        public var children: [OutlineEntry]
    }

    /// An annotation: its kind, page, rectangle, colour and the texts it carries.
    public struct AnnotationEntry: Hashable, Sendable, Codable {
        /// The 0-based page index.
        public var page: Int
        /// The annotation kind's name in the API.
        public var kind: String
        /// Its rectangle: x, y, width, height, in points from the page's top-left.
        public var rect: [Double]
        /// Its colour as `#rrggbb`, if it has one.
        public var color: String?
        /// Its text, author and subject.
        public var contents, author, subject: String?
    }

    /// A form field: its full name, kind and value(s).
    public struct FieldEntry: Hashable, Sendable, Codable {
        /// The field's full name.
        public var name: String
        /// The field kind's name in the API.
        public var kind: String
        /// Its value, or its values for a choice of several.
        public var value: String?
        /// The values of a field that holds several.
        public var values: [String]?
    }

    /// A font the pages use, by PostScript name without a subset tag.
    public struct FontEntry: Hashable, Sendable, Codable, Comparable {
        /// The name without a subset tag, or nil for a font without one.
        public var name: String?
        /// The font kind's name in the API.
        public var kind: String
        /// Whether the file holds its glyphs.
        public var embedded: Bool

        /// By name (a font without one first), then kind, then embedding.
        public static func < (a: FontEntry, b: FontEntry) -> Bool {
            (a.name ?? "", a.kind, a.embedded ? 1 : 0) < (b.name ?? "", b.kind, b.embedded ? 1 : 0)
        }
    }

    /// Every page, in order.
    public var pages: [Page]
    /// The document's metadata.
    public var metadata: Metadata?
    /// The outline's top-level items.
    public var outline: [OutlineEntry]?
    /// Every annotation, page by page, in each page's order.
    public var annotations: [AnnotationEntry]?
    /// Every terminal form field, in the form's order.
    public var fields: [FieldEntry]?
    /// The fonts, sorted by name.
    public var fonts: [FontEntry]?

    /// The structure of `document`, read through its engine. Throws what the engine throws
    /// for a page it cannot read; an aspect the engine does not support is left nil.
    public init(of document: Document) throws {
        pages = try document.pageInfos().map {
            Page(width: Self.rounded($0.size.width), height: Self.rounded($0.size.height), rotation: $0.rotation.rawValue, label: $0.label)
        }
        metadata = try Self.ifSupported {
            let info = try document.info()
            let m = info.metadata
            return Metadata(
                pdfVersion: info.pdfVersion, title: m.title, author: m.author, subject: m.subject, keywords: m.keywords, creator: m.creator,
                producer: m.producer, encrypted: info.isEncrypted)
        }
        outline = try Self.ifSupported { try document.outline().map(Self.entry) }
        annotations = try Self.ifSupported {
            try document.annotations().map { annotation in
                AnnotationEntry(
                    page: annotation.pageIndex, kind: annotation.kind.rawValue,
                    rect: [annotation.rect.origin.x, annotation.rect.origin.y, annotation.rect.size.width, annotation.rect.size.height].map(Self.rounded),
                    color: annotation.color.map(Self.hex), contents: annotation.contents, author: annotation.author, subject: annotation.subject)
            }
        }
        fields = try Self.ifSupported {
            try document.formFields().map { field in
                FieldEntry(name: field.name, kind: field.kind.rawValue, value: field.value, values: field.values.count > 1 ? field.values : nil)
            }
        }
        fonts = try Self.ifSupported {
            Array(Set(try document.fonts().map { font in
                FontEntry(name: font.isSubset ? font.name.map { String($0.dropFirst(7)) } : font.name, kind: font.kind.rawValue, embedded: font.isEmbedded)
            })).sorted()
        }
    }

    /// The structure as JSON text: pretty-printed, keys sorted, ending with a newline, the
    /// same bytes for the same structure.
    public func jsonText() -> String { Self.json(self) }

    /// Each aspect's JSON text as ``jsonText()`` writes it, by its name for people ("page
    /// sizes", "metadata", "outline", "annotations", "form fields", "fonts"), in that order;
    /// an aspect the engine could not read is "null".
    public func sections() -> [(name: String, json: String)] {
        [("page sizes", Self.json(pages)), ("metadata", Self.json(metadata)), ("outline", Self.json(outline)),
         ("annotations", Self.json(annotations)), ("form fields", Self.json(fields)), ("fonts", Self.json(fonts))]
    }

    private static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding values of plain strings, numbers, arrays and nil cannot fail.
        return String(decoding: try! encoder.encode(value), as: UTF8.self) + "\n"
    }

    private static func entry(_ item: OutlineItem) -> OutlineEntry {
        var entry = OutlineEntry(title: item.title, children: item.children.map(entry))
        switch item.destination {
        case .page(let index, _, _): entry.page = index
        case .uri(let uri): entry.uri = uri
        case nil: break
        }
        return entry
    }

    private static func ifSupported<T>(_ read: () throws -> T) throws -> T? {
        do {
            return try read()
        } catch let error as RendererError where error.code == .unsupported {
            return nil
        }
    }

    private static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    private static func hex(_ color: Color) -> String {
        func byte(_ value: Double) -> String {
            let text = String(Int((min(1, max(0, value)) * 255).rounded()), radix: 16)
            return text.count == 1 ? "0" + text : text
        }
        return "#" + byte(color.red) + byte(color.green) + byte(color.blue)
    }
}
