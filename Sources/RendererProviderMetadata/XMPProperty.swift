import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import RendererProvider

/// One of the eight facts as an XMP property: its namespace, name and the RDF form its
/// value takes, as XMP Part 1 and the PDF mapping of ISO 32000-1 (14.3.2) give them.
struct XMPProperty: Sendable {
    /// How the value is written.
    enum Form {
        /// Plain text, or a date in ISO 8601.
        case simple
        /// A language alternative (`rdf:Alt`), written with the default language only.
        case alternative
        /// An ordered list (`rdf:Seq`), written with one item.
        case sequence
    }

    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    /// The namespaces the properties use, by the prefixes written.
    static let namespaces = [
        ("dc", "http://purl.org/dc/elements/1.1/"), ("pdf", "http://ns.adobe.com/pdf/1.3/"), ("xmp", "http://ns.adobe.com/xap/1.0/"),
    ]

    /// The fact a property holds.
    enum Fact {
        case title, author, subject, keywords, creator, producer, creationDate, modificationDate
    }

    let prefix: String
    let name: String
    let form: Form
    let fact: Fact

    var namespace: String { Self.namespaces.first { $0.0 == prefix }!.1 }

    /// The eight properties, in the order they are written.
    static let all: [XMPProperty] = [
        XMPProperty(prefix: "dc", name: "title", form: .alternative, fact: .title),
        XMPProperty(prefix: "dc", name: "creator", form: .sequence, fact: .author),
        XMPProperty(prefix: "dc", name: "description", form: .alternative, fact: .subject),
        XMPProperty(prefix: "pdf", name: "Keywords", form: .simple, fact: .keywords),
        XMPProperty(prefix: "xmp", name: "CreatorTool", form: .simple, fact: .creator),
        XMPProperty(prefix: "pdf", name: "Producer", form: .simple, fact: .producer),
        XMPProperty(prefix: "xmp", name: "CreateDate", form: .simple, fact: .creationDate),
        XMPProperty(prefix: "xmp", name: "ModifyDate", form: .simple, fact: .modificationDate),
    ]

    /// The fact in `metadata` as this property's text, dates in ISO 8601.
    func value(_ metadata: DocumentMetadata) -> String? {
        switch fact {
        case .title: metadata.title
        case .author: metadata.author
        case .subject: metadata.subject
        case .keywords: metadata.keywords
        case .creator: metadata.creator
        case .producer: metadata.producer
        case .creationDate: metadata.creationDate.map(XMPDate.string(from:))
        case .modificationDate: metadata.modificationDate.map(XMPDate.string(from:))
        }
    }

    /// Stores `text`, read from a packet, into `metadata`; false when it is a date that
    /// cannot be read.
    func store(_ text: String, in metadata: inout DocumentMetadata) -> Bool {
        switch fact {
        case .title: metadata.title = text
        case .author: metadata.author = text
        case .subject: metadata.subject = text
        case .keywords: metadata.keywords = text
        case .creator: metadata.creator = text
        case .producer: metadata.producer = text
        case .creationDate, .modificationDate:
            guard let date = XMPDate.parse(text) else { return false }
            if fact == .creationDate { metadata.creationDate = date } else { metadata.modificationDate = date }
        }
        return true
    }

    /// True when `node` (an element, or an attribute of a description) is this property.
    func names(_ node: XMLNode) -> Bool {
        node.localName == name && node.uri == namespace
    }

    /// The property's value in `node`: the text of a simple property, or of the item of an
    /// `rdf:Alt` (the default language's, else the first) or `rdf:Seq`/`rdf:Bag` (all, joined
    /// by "; ").
    func text(of node: XMLNode) -> String? {
        guard let element = node as? XMLElement else { return node.stringValue }
        let container = element.children?.compactMap { $0 as? XMLElement }.first { ["Alt", "Seq", "Bag"].contains($0.localName ?? "") }
        guard let container else { return element.stringValue }
        let items = container.children?.compactMap { $0 as? XMLElement }.filter { $0.localName == "li" } ?? []
        if container.localName == "Alt" {
            let preferred = items.first { $0.attribute(forName: "xml:lang")?.stringValue == "x-default" } ?? items.first
            return preferred?.stringValue
        }
        let texts = items.compactMap(\.stringValue)
        return texts.isEmpty ? nil : texts.joined(separator: "; ")
    }

    /// The property holding `text`, as an element of the form XMP gives it.
    func element(holding text: String) -> XMLElement {
        let property = XMLElement(name: "\(prefix):\(name)")
        switch form {
        case .simple:
            property.stringValue = text
        case .alternative, .sequence:
            let container = XMLElement(name: form == .alternative ? "rdf:Alt" : "rdf:Seq")
            let item = XMLElement(name: "rdf:li", stringValue: text)
            if form == .alternative { item.addAttribute(XMLNode.attribute(withName: "xml:lang", stringValue: "x-default") as! XMLNode) }
            container.addChild(item)
            property.addChild(container)
        }
        return property
    }
}
