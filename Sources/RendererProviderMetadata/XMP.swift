import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import SafeXML
import RendererProvider

/// XMP packets (ISO 16684-1), the XML form of a document's metadata that PDF keeps in the
/// catalog's `/Metadata` stream beside the Info dictionary. This reads and writes the eight
/// facts of `DocumentMetadata` in their standard properties (`dc:title`, `dc:creator`,
/// `dc:description`, `pdf:Keywords`, `xmp:CreatorTool`, `pdf:Producer`, `xmp:CreateDate`,
/// `xmp:ModifyDate`) and leaves every other property of a packet as it was.
public enum XMP {
    /// The facts `packet` holds, as elements or as attributes of any `rdf:Description`; a
    /// fact it lacks, or whose date cannot be read, is nil. Throws `damaged` when the packet
    /// is not well-formed XML.
    public static func metadata(in packet: Data) throws -> DocumentMetadata {
        var metadata = DocumentMetadata()
        let descriptions = descriptions(in: try document(from: packet))
        for property in XMPProperty.all {
            for description in descriptions {
                if let node = propertyNodes(of: description).first(where: { property.names($0) }), let text = property.text(of: node),
                    property.store(text, in: &metadata)
                {
                    break
                }
            }
        }
        return metadata
    }

    /// `packet` with the eight facts set to `metadata`'s (a nil or empty fact removed) and
    /// every other property kept; a new packet when `packet` is nil. Their old forms, as
    /// elements or attributes in any `rdf:Description`, are removed, and the facts written
    /// in one new `rdf:Description`. Throws `damaged` when `packet` is not well-formed XML or
    /// has no `rdf:RDF` element.
    public static func packet(updating packet: Data?, to metadata: DocumentMetadata) throws -> Data {
        let document: XMLDocument
        let rdf: XMLElement
        if let packet {
            document = try Self.document(from: packet)
            guard let found = elements(in: document, where: { $0.localName == "RDF" && isRDF($0) }).first else {
                throw RendererError(.damaged, "the document's XMP packet has no rdf:RDF element")
            }
            rdf = found
            for description in descriptions(in: document) {
                remove(XMPProperty.all, from: description)
            }
        } else {
            (document, rdf) = newPacket()
        }
        let description = XMLElement(name: "rdf:Description")
        description.addNamespace(XMLNode.namespace(withName: "rdf", stringValue: XMPProperty.rdf) as! XMLNode)
        description.addAttribute(XMLNode.attribute(withName: "rdf:about", stringValue: "") as! XMLNode)
        for property in XMPProperty.all {
            guard let value = property.value(metadata), !value.isEmpty else { continue }
            if description.namespace(forPrefix: property.prefix) == nil {
                description.addNamespace(XMLNode.namespace(withName: property.prefix, stringValue: property.namespace) as! XMLNode)
            }
            description.addChild(property.element(holding: value))
        }
        if description.childCount > 0 { rdf.addChild(description) }
        var text = document.xmlString
        // The packet starts with its xpacket header, not an XML declaration.
        if text.hasPrefix("<?xml"), let end = text.range(of: "?>") {
            text = String(text[end.upperBound...].drop(while: \.isNewline))
        }
        return Data(text.utf8)
    }

    /// The packet as a document; `damaged` unless it is well-formed XML, `invalidArgument`
    /// when it declares a document type or entities (``SafeXML``: they could name files).
    private static func document(from packet: Data) throws -> XMLDocument {
        try SafeXML.document(
            from: packet, what: "the document's XMP packet", malformed: .damaged, options: [.nodePreserveWhitespace])
    }

    /// A packet with an empty `rdf:RDF`, between the xpacket header and trailer.
    private static func newPacket() -> (XMLDocument, XMLElement) {
        let meta = XMLElement(name: "x:xmpmeta")
        meta.addNamespace(XMLNode.namespace(withName: "x", stringValue: "adobe:ns:meta/") as! XMLNode)
        let rdf = XMLElement(name: "rdf:RDF")
        rdf.addNamespace(XMLNode.namespace(withName: "rdf", stringValue: XMPProperty.rdf) as! XMLNode)
        meta.addChild(rdf)
        let document = XMLDocument(rootElement: meta)
        document.characterEncoding = "UTF-8"
        // The header's id is the constant XMP gives every packet.
        let header = XMLNode.processingInstruction(withName: "xpacket", stringValue: "begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"") as! XMLNode
        document.insertChild(header, at: 0)
        document.addChild(XMLNode.processingInstruction(withName: "xpacket", stringValue: "end=\"w\"") as! XMLNode)
        return (document, rdf)
    }

    /// Removes `properties` from `description`, as attributes and as elements; a
    /// description left with nothing but its `rdf:about` (and white space) goes too.
    private static func remove(_ properties: [XMPProperty], from description: XMLElement) {
        for node in propertyNodes(of: description) where properties.contains(where: { $0.names(node) }) {
            node.detach()
        }
        let attributes = (description.attributes ?? []).compactMap(\.name).filter { $0 != "rdf:about" }
        let content = (description.children ?? []).contains {
            $0 is XMLElement || !($0.stringValue ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
        if !content && attributes.isEmpty { description.detach() }
    }

    /// What may hold a property in `description`: its attributes and child elements.
    private static func propertyNodes(of description: XMLElement) -> [XMLNode] {
        (description.attributes ?? []) + (description.children ?? []).filter { $0 is XMLElement }
    }

    private static func descriptions(in document: XMLDocument) -> [XMLElement] {
        elements(in: document, where: { $0.localName == "Description" && isRDF($0) })
    }

    private static func isRDF(_ element: XMLElement) -> Bool {
        element.uri == XMPProperty.rdf
    }

    /// Every element of `document`, depth first, that satisfies `condition`.
    private static func elements(in document: XMLDocument, where condition: (XMLElement) -> Bool) -> [XMLElement] {
        var found: [XMLElement] = []
        var pending: [XMLNode] = document.rootElement().map { [$0] } ?? []
        while let node = pending.popLast() {
            guard let element = node as? XMLElement else { continue }
            if condition(element) { found.append(element) }
            pending.append(contentsOf: (element.children ?? []).reversed())
        }
        return found
    }
}
