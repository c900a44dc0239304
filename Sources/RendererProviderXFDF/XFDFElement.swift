import EngineSupport
import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import RendererProvider

/// One annotation as one XFDF element, both ways.
enum XFDFElement {
    // MARK: Writing

    static func element(for annotation: Annotation, space: PageSpace) throws -> XMLElement {
        let element = XMLElement(name: annotation.kind.rawValue.lowercased())
        func set(_ name: String, _ value: String?) {
            if let value { element.addAttribute(XMLNode.attribute(withName: name, stringValue: value) as! XMLNode) }
        }
        func point(_ p: PagePoint) -> String {
            let user = space.userPoint(p)
            return "\(number(user.x)),\(number(user.y))"
        }
        let rect = space.userRect(annotation.rect)
        set("page", String(annotation.pageIndex))
        set("rect", [rect.x0, rect.y0, rect.x1, rect.y1].map(number).joined(separator: ","))
        set("name", annotation.id.isEmpty ? nil : annotation.id)
        set("color", annotation.color?.hexString)
        set("interior-color", annotation.interiorColor?.hexString)
        set("opacity", annotation.opacity == 1 ? nil : number(annotation.opacity))
        set("width", annotation.borderWidth.map(number))
        set("date", annotation.modificationDate.map(PDFDate.string(from:)))
        set("creationdate", annotation.creationDate.map(PDFDate.string(from:)))
        set("title", annotation.author)
        set("subject", annotation.subject)
        set("flags", annotation.flags.xfdfValue)
        set("icon", annotation.iconName)
        set("inreplyto", annotation.inReplyTo)
        set("state", annotation.reviewState?.rawValue)
        set("statemodel", annotation.reviewState?.model)
        if let style = annotation.textStyle {
            set("defaultappearance", defaultAppearance(style))
            set("justification", ["left", "centered", "right"][style.alignment.quadding])
        }
        let geometry = annotation.kind.traits.geometry
        if geometry == .quads {
            set("coords", annotation.quads.flatMap { [$0.upperLeft, $0.upperRight, $0.lowerLeft, $0.lowerRight] }.map(point).joined(separator: ","))
        }
        if geometry == .line, annotation.points.count == 2 {
            set("start", point(annotation.points[0]))
            set("end", point(annotation.points[1]))
        }
        if let contents = annotation.contents {
            element.addChild(XMLElement(name: "contents", stringValue: contents))
        }
        if case .vertices = geometry {
            element.addChild(XMLElement(name: "vertices", stringValue: annotation.points.map(point).joined(separator: ";")))
        }
        if geometry == .inkPaths {
            let list = XMLElement(name: "inklist")
            for path in annotation.inkPaths {
                list.addChild(XMLElement(name: "gesture", stringValue: path.map(point).joined(separator: ";")))
            }
            element.addChild(list)
        }
        return element
    }

    /// A free text's default appearance string, as `/DA` holds it: `/Helv 12 Tf 0 0 0 rg`.
    private static func defaultAppearance(_ style: TextStyle) -> String {
        "/\(style.fontFamily.resourceName) \(number(style.fontSize)) Tf \([style.color.red, style.color.green, style.color.blue].map(number).joined(separator: " ")) rg"
    }

    /// The style a default appearance string and an XFDF justification give; nil without a font.
    private static func textStyle(defaultAppearance: String, justification: String?) -> TextStyle? {
        var style = TextStyle(defaultAppearance: defaultAppearance)
        style?.alignment = ["centered": .center, "right": .right][justification ?? ""] ?? .left
        return style
    }

    /// A number as XFDF writes it: up to 4 decimals, no trailing zeros.
    private static func number(_ value: Double) -> String {
        value.decimalText(places: 4)
    }

    // MARK: Reading

    static func annotation(from element: XMLElement, pageSpace: (Int) throws -> PageSpace) throws -> Annotation {
        let name = element.localName ?? ""
        guard let kind = AnnotationKind.creatable.first(where: { $0.rawValue.lowercased() == name }) else {
            throw RendererError(.invalidArgument, "not an annotation kind the API can create")
        }
        func attribute(_ key: String) -> String? { element.xfdfAttribute(key) }
        func fail(_ message: String) -> RendererError { RendererError(.invalidArgument, message) }
        guard let pageText = attribute("page"), let pageIndex = Int(pageText), pageIndex >= 0 else {
            throw fail("missing or invalid page attribute")
        }
        let space = try pageSpace(pageIndex)
        func numbers(_ text: String) throws -> [Double] {
            let parts = text.split(whereSeparator: { $0 == "," || $0 == ";" || $0.isWhitespace })
            return try parts.map { part in
                guard let value = Double(part), value.isFinite else { throw fail("\"\(part)\" is not a number") }
                return value
            }
        }
        func points(_ text: String) throws -> [PagePoint] {
            let values = try numbers(text)
            guard values.count % 2 == 0 else { throw fail("an odd count of coordinates in \"\(text)\"") }
            return stride(from: 0, to: values.count, by: 2).map { space.point(x: values[$0], y: values[$0 + 1]) }
        }
        guard let rectText = attribute("rect"), case let r = try numbers(rectText), r.count == 4 else {
            throw fail("missing or invalid rect attribute")
        }
        var annotation = Annotation(
            id: attribute("name") ?? "", kind: kind, pageIndex: pageIndex,
            rect: space.rect(UserRect(x0: min(r[0], r[2]), y0: min(r[1], r[3]), x1: max(r[0], r[2]), y1: max(r[1], r[3]))))
        annotation.color = try attribute("color").map { try color($0) }
        annotation.interiorColor = try attribute("interior-color").map { try color($0) }
        if let opacity = attribute("opacity") {
            guard let value = Double(opacity) else { throw fail("opacity \"\(opacity)\" is not a number") }
            annotation.opacity = value
        }
        if let width = attribute("width") {
            guard let value = Double(width) else { throw fail("width \"\(width)\" is not a number") }
            annotation.borderWidth = value
        }
        annotation.modificationDate = attribute("date").flatMap(PDFDate.parse)
        annotation.creationDate = attribute("creationdate").flatMap(PDFDate.parse)
        annotation.author = attribute("title")
        annotation.subject = attribute("subject")
        if let flags = attribute("flags") {
            guard let value = AnnotationFlags(xfdfValue: flags) else { throw fail("flags \"\(flags)\" name an unknown flag") }
            annotation.flags = value
        } else {
            annotation.flags = []
        }
        annotation.iconName = attribute("icon")
        annotation.inReplyTo = attribute("inreplyto")
        if kind.traits.hasTextStyle, let appearance = attribute("defaultappearance") {
            annotation.textStyle = textStyle(defaultAppearance: appearance, justification: attribute("justification"))
        }
        if let state = attribute("state") {
            guard let value = ReviewState(pdfName: state, model: attribute("statemodel")) else {
                throw fail("state \"\(state)\" is not a review state of its model")
            }
            annotation.reviewState = value
        }
        let geometry = kind.traits.geometry
        if geometry == .quads {
            let corners = try points(attribute("coords") ?? "")
            guard !corners.isEmpty, corners.count % 4 == 0 else { throw fail("coords must hold 8 numbers for each quad") }
            annotation.quads = stride(from: 0, to: corners.count, by: 4).map {
                Quad(upperLeft: corners[$0], upperRight: corners[$0 + 1], lowerLeft: corners[$0 + 2], lowerRight: corners[$0 + 3])
            }
        }
        if geometry == .line {
            guard let start = attribute("start"), let end = attribute("end") else { throw fail("a line needs start and end attributes") }
            annotation.points = try points(start) + points(end)
        }
        let children = (element.children ?? []).compactMap { $0 as? XMLElement }
        annotation.contents = children.first { $0.localName == "contents" }?.stringValue
        if case .vertices = geometry {
            annotation.points = try points(children.first { $0.localName == "vertices" }?.stringValue ?? "")
        }
        if geometry == .inkPaths {
            let gestures = children.first { $0.localName == "inklist" }.map { ($0.children ?? []).compactMap { $0 as? XMLElement } } ?? []
            annotation.inkPaths = try gestures.filter { $0.localName == "gesture" }.map { try points($0.stringValue ?? "") }
        }
        return annotation
    }

    private static func color(_ text: String) throws -> Color {
        guard let color = Color(hex: text) else { throw RendererError(.invalidArgument, "colour \"\(text)\" is not #RRGGBB") }
        return color
    }
}
