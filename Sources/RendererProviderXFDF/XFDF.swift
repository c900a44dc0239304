import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import SafeXML
import RendererProvider

/// Annotations in XFDF (ISO 19444-1), the XML form of PDF annotations that other viewers
/// import and export. XFDF holds coordinates in PDF user space; the conversion to and from
/// page space happens here, with each page's `PageSpace`.
///
/// Every creatable kind is written as its XFDF element (`text`, `freetext`, `highlight`,
/// `underline`, `strikeout`, `squiggly`, `ink`, `square`, `circle`, `line`, `polygon`,
/// `polyline`, `stamp`); read-only kinds are left out, because no viewer could recreate them.
public enum XFDF {
    /// The XFDF namespace.
    public static let namespace = "http://ns.adobe.com/xfdf/"

    /// An XFDF document holding `annotations`. `pageSpace` gives each page's space;
    /// `fileName`, when given, is written as the document the annotations belong to.
    public static func data(
        for annotations: [Annotation], fileName: String? = nil, pageSpace: (Int) throws -> PageSpace
    ) throws -> Data {
        let annots = XMLElement(name: "annots")
        for annotation in annotations where annotation.kind.isCreatable {
            annots.addChild(try XFDFElement.element(for: annotation, space: pageSpace(annotation.pageIndex)))
        }
        return document(holding: annots, fileName: fileName)
    }

    /// An XFDF document holding `section` (`<annots>` or `<fields>`) and, when `fileName` is
    /// given, the document it belongs to (`<f href>`).
    static func document(holding section: XMLElement, fileName: String?) -> Data {
        let root = XMLElement(name: "xfdf")
        root.addNamespace(XMLNode.namespace(withName: "", stringValue: namespace) as! XMLNode)
        root.addAttribute(XMLNode.attribute(withName: "xml:space", stringValue: "preserve") as! XMLNode)
        root.addChild(section)
        if let fileName {
            let file = XMLElement(name: "f")
            file.addAttribute(XMLNode.attribute(withName: "href", stringValue: fileName) as! XMLNode)
            root.addChild(file)
        }
        let document = XMLDocument(rootElement: root)
        document.version = "1.0"
        document.characterEncoding = "UTF-8"
        return document.xmlData(options: [.nodePrettyPrint])
    }

    /// The annotations in an XFDF document, with what could not be read. Throws
    /// `invalidArgument` when the data is not XFDF.
    public static func annotations(from data: Data, pageSpace: (Int) throws -> PageSpace) throws -> XFDFContents {
        let root = try root(of: data)
        var contents = XFDFContents()
        let annots = (root.children ?? []).compactMap { $0 as? XMLElement }.filter { $0.localName == "annots" }
        for element in annots.flatMap({ $0.children ?? [] }).compactMap({ $0 as? XMLElement }) {
            do {
                contents.annotations.append(try XFDFElement.annotation(from: element, pageSpace: pageSpace))
            } catch let error as RendererError {
                contents.skipped.append("<\(element.localName ?? "?")>: \(error.message)")
            }
        }
        return contents
    }
}

extension XFDF {
    /// The `<xfdf>` root of `data`; throws `invalidArgument` when the data is not
    /// well-formed XML, declares a document type or entities (``SafeXML``), or its root is
    /// not `<xfdf>`.
    static func root(of data: Data) throws -> XMLElement {
        let document = try SafeXML.document(from: data, what: "the XFDF")
        guard let root = document.rootElement(), root.localName == "xfdf" else {
            throw RendererError(.invalidArgument, "the XML is not XFDF: its root element is not <xfdf>")
        }
        return root
    }

    /// The XFDF command in `data`, as realtime annotation servers exchange them:
    /// `<xfdf><add>…</add><modify>…</modify><delete><id>…</id></delete></xfdf>`, where `add`
    /// and `modify` hold annotation elements as `<annots>` does and `delete` holds the
    /// identities (`name`s) of the annotations to delete. Throws `invalidArgument` when the
    /// data is not XFDF; elements that cannot be read are reported as skipped.
    public static func command(from data: Data, pageSpace: (Int) throws -> PageSpace) throws -> XFDFCommand {
        let root = try root(of: data)
        var command = XFDFCommand()
        for section in (root.children ?? []).compactMap({ $0 as? XMLElement }) {
            let elements = (section.children ?? []).compactMap { $0 as? XMLElement }
            switch section.localName {
            case "add", "modify":
                for element in elements {
                    do {
                        let annotation = try XFDFElement.annotation(from: element, pageSpace: pageSpace)
                        if section.localName == "add" { command.added.append(annotation) } else { command.modified.append(annotation) }
                    } catch let error as RendererError {
                        command.skipped.append("<\(element.localName ?? "?")>: \(error.message)")
                    }
                }
            case "delete":
                for element in elements where element.localName == "id" {
                    if let id = element.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines), !id.isEmpty { command.deleted.append(id) }
                }
            default:
                command.skipped.append("<\(section.localName ?? "?")>: not an XFDF command (add, modify or delete)")
            }
        }
        return command
    }
}

/// What an XFDF command asks for.
public struct XFDFCommand: Sendable {
    /// The annotations to add.
    public var added: [Annotation] = []
    /// The annotations to modify, by identity.
    public var modified: [Annotation] = []
    /// The identities of the annotations to delete.
    public var deleted: [String] = []
    /// A line for each element that was left out, saying why.
    public var skipped: [String] = []

    /// Whether the command asks for nothing.
    public var isEmpty: Bool { added.isEmpty && modified.isEmpty && deleted.isEmpty }
}

/// What an XFDF document held.
public struct XFDFContents: Sendable {
    /// The annotations read, in document order.
    public var annotations: [Annotation] = []
    /// A line for each element that was left out, saying why.
    public var skipped: [String] = []
}

extension XFDF {
    /// Reads the annotations of `data` for a document of `pageCount` pages and imports them
    /// with `importer`, reporting unreadable elements as skipped first.
    static func importing(
        _ data: Data, pageCount: Int, pageSpace: (Int) throws -> PageSpace, into importer: ([Annotation]) throws -> AnnotationImport
    ) throws -> AnnotationImport {
        let contents = try annotations(from: data) { index in
            guard (0..<pageCount).contains(index) else {
                throw RendererError(.invalidArgument, "page \(index) is not in the document, which has \(pageCount) pages (XFDF counts from 0)")
            }
            return try pageSpace(index)
        }
        var result = try importer(contents.annotations)
        result.skipped.insert(contentsOf: contents.skipped, at: 0)
        return result
    }
}

extension XMLElement {
    /// The value of the attribute `key`, matched by local name: FoundationXML does not find
    /// an XFDF element's attributes by plain name once the default namespace is set.
    func xfdfAttribute(_ key: String) -> String? {
        attributes?.first { ($0.localName ?? $0.name) == key }?.stringValue
    }
}
