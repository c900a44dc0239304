import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import RendererProvider

/// Form values in XFDF (ISO 19444-1): `<fields>` of nested `<field name="…">` elements,
/// each terminal one holding a `<value>` for each of its values.
extension FormValues {
    /// The values as an XFDF document. Fields nest by their partial names, as the form's
    /// field tree does; an entry with no values is written as `Off` for a button and as an
    /// empty `<value/>` otherwise, so that importing it clears the field. `fileName`, when
    /// given, is written as the form the values belong to.
    public func xfdfData(fileName: String? = nil) -> Data {
        let fields = XMLElement(name: "fields")
        for entry in entries {
            var parent = fields
            for partial in entry.name.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
                let existing = (parent.children ?? []).compactMap { $0 as? XMLElement }.first {
                    $0.localName == "field" && $0.xfdfAttribute("name") == partial
                }
                if let existing {
                    parent = existing
                } else {
                    let field = XMLElement(name: "field")
                    field.addAttribute(XMLNode.attribute(withName: "name", stringValue: partial) as! XMLNode)
                    parent.addChild(field)
                    parent = field
                }
            }
            let values = entry.values.isEmpty ? [entry.isButtonState ? "Off" : ""] : entry.values
            for value in values { parent.addChild(XMLElement(name: "value", stringValue: value)) }
        }
        return XFDF.document(holding: fields, fileName: fileName)
    }

    /// The values of an XFDF document's `<fields>`: every `<field>` that holds `<value>`
    /// elements, named by joining the `name`s of the fields around it. An empty value is no
    /// value. Throws `invalidArgument` when the data is not XFDF, a field has no name, or
    /// fields nest more deeply than a form's field tree can.
    public init(xfdf data: Data) throws {
        let root = try XFDF.root(of: data)
        var entries: [Entry] = []
        func walk(_ element: XMLElement, prefix: String, depth: Int) throws {
            guard depth < 64 else { throw RendererError(.invalidArgument, "the XFDF's fields nest deeper than 64 levels") }
            for field in (element.children ?? []).compactMap({ $0 as? XMLElement }) where field.localName == "field" {
                guard let partial = field.xfdfAttribute("name") else {
                    throw RendererError(.invalidArgument, "an XFDF <field> has no name")
                }
                let name = prefix.isEmpty ? partial : prefix + "." + partial
                let values = (field.children ?? []).compactMap { $0 as? XMLElement }.filter { $0.localName == "value" }
                if !values.isEmpty {
                    entries.append(Entry(name: name, values: values.compactMap(\.stringValue).filter { !$0.isEmpty }))
                }
                try walk(field, prefix: name, depth: depth + 1)
            }
        }
        for fields in (root.children ?? []).compactMap({ $0 as? XMLElement }) where fields.localName == "fields" {
            try walk(fields, prefix: "", depth: 0)
        }
        self.init(entries)
    }
}
