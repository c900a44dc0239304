import Foundation
import RendererProvider

extension PDFObjectEditing {
    /// Lays `request`'s signature into `file` as an incremental update written over this
    /// document's objects (which must be `file`'s, unchanged): the signature dictionary, the
    /// field's `/V` (a new field is a merged field and widget on its page, with `/F` 132:
    /// printed and locked), its appearance when it has lines and an area, the AcroForm's
    /// `/SigFlags` 3 and, for a certification, the catalog's `/Perms /DocMDP`. The signature
    /// value is `signatureCapacity` zero bytes as hexadecimal, and `/ByteRange` is filled in.
    package func prepareSignatureUpdate(_ request: SignatureUpdateRequest, of file: Data) throws -> PreparedSignatureUpdate {
        var update = try IncrementalUpdate(file: file, trailer: try trailer(), backend: backendID)
        let catalogReference = try catalogReference()
        var catalog = try object(catalogReference.number)
        let formReference: PDFReference? = if case .reference(let reference) = catalog["AcroForm"] { reference } else { nil }
        var form = try resolved(catalog["AcroForm"])
        if case .dictionary = form {} else { form = .dictionary([:]) }
        let signature = update.reserve()

        let widget: PDFReference, rect: UserRect, pageIndex: Int?
        switch request.placement {
        case .field(let name):
            let found = try signatureField(named: name, among: try resolved(form["Fields"]).items)
            var field = try object(found.field.number)
            field = field.setting("V", to: .reference(signature))
            update.set(found.field, to: field)
            widget = found.widget
            let widgetObject = found.widget == found.field ? field : try object(found.widget.number)
            rect = Self.rect(of: widgetObject)
            pageIndex = try page(of: found.widget, named: widgetObject["P"])
        case .newField(let name, let index, let area):
            let page = try pageReference(at: index)
            let space = try loadPage(at: index).pageSpace()
            rect = area.map(space.userRect) ?? UserRect(x0: 0, y0: 0, x1: 0, y1: 0)
            widget = update.reserve()
            update.set(widget, to: .dictionary([
                "Type": .name("Annot"), "Subtype": .name("Widget"), "FT": .name("Sig"), "T": .text(name), "V": .reference(signature),
                "Rect": .array([rect.x0, rect.y0, rect.x1, rect.y1].map(PDFObject.number)), "F": .integer(132), "P": .reference(page),
            ]))
            let pageObject = try update.pending(page) ?? object(page.number)
            let annotated = try appending([.reference(widget)], toArrayAt: "Annots", of: pageObject, in: &update)
            if annotated != pageObject { update.set(page, to: annotated) }
            form = try appending([.reference(widget)], toArrayAt: "Fields", of: form, in: &update)
            pageIndex = index
        }

        if !request.appearanceLines.isEmpty, rect.x1 - rect.x0 >= 1, rect.y1 - rect.y0 >= 1, let pageIndex {
            let appearance = SignatureAppearance(
                lines: request.appearanceLines, rect: rect, rotation: try loadPage(at: pageIndex).pageSpace().rotation, font: request.appearanceFont)
            let font = appearance.writeFont(into: &update)
            let stream = update.reserve()
            update.setStream(stream, dictionary: appearance.dictionary(font: font), contents: appearance.contents)
            let current = try update.pending(widget) ?? object(widget.number)
            update.set(widget, to: current.setting("AP", to: .dictionary(["N": .reference(stream)])))
        }

        form = form.setting("SigFlags", to: .integer(3))
        if let formReference {
            update.set(formReference, to: form)
        } else {
            catalog = catalog.setting("AcroForm", to: form)
        }
        if request.certification != nil {
            var perms = try resolved(catalog["Perms"])
            if case .dictionary = perms {} else { perms = .dictionary([:]) }
            catalog = catalog.setting("Perms", to: perms.setting("DocMDP", to: .reference(signature)))
        }
        if formReference == nil || request.certification != nil { update.set(catalogReference, to: catalog) }

        let placeholder = String(repeating: " ", count: 48)
        update.set(signature, body: Data(signatureDictionary(request, byteRangePlaceholder: placeholder).utf8))
        var (data, offsets) = update.written()
        return try Self.fillingRanges(of: &data, signatureBodyAt: offsets[signature]!, placeholder: placeholder, backend: backendID)
    }

    /// The signature dictionary (a `/DocTimeStamp`'s for a document timestamp, without `/M`),
    /// `/ByteRange` a run of spaces and `/Contents` zeros.
    private func signatureDictionary(_ request: SignatureUpdateRequest, byteRangePlaceholder: String) -> String {
        let isTimestamp = request.subFilter == SignatureUpdateRequest.documentTimestamp
        var entries: [String: PDFObject] = [
            "Type": .name(isTimestamp ? "DocTimeStamp" : "Sig"), "Filter": .name("Adobe.PPKLite"), "SubFilter": .name(request.subFilter),
        ]
        if !isTimestamp { entries["M"] = .string(Array(PDFDate.string(from: request.signingTime).utf8)) }
        let texts = [("Name", request.signerName), ("Reason", request.reason), ("Location", request.location), ("ContactInfo", request.contactInfo)]
        for case (let key, let value?) in texts { entries[key] = .text(value) }
        if let permissions = request.certification {
            entries["Reference"] = .array([.dictionary([
                "Type": .name("SigRef"), "TransformMethod": .name("DocMDP"),
                "TransformParams": .dictionary(["Type": .name("TransformParams"), "P": .integer(permissions.rawValue), "V": .name("1.2")]),
            ])])
        }
        var syntax = PDFObject.dictionary(entries).syntax
        syntax.removeLast(2)
        return syntax + " /ByteRange " + byteRangePlaceholder + " /Contents <" + String(repeating: "0", count: request.signatureCapacity * 2) + ">>>"
    }

    /// The prepared file: `/ByteRange` written over its placeholder in the signature
    /// dictionary whose body starts at `body`, around the `/Contents` string after it.
    private static func fillingRanges(of data: inout Data, signatureBodyAt body: Int, placeholder: String, backend: String) throws -> PreparedSignatureUpdate {
        let marker = Data((" /ByteRange " + placeholder + " /Contents <").utf8)
        guard let found = data[body...].firstRange(of: marker), let close = data[found.upperBound...].firstIndex(of: UInt8(ascii: ">")) else {
            throw RendererError(.engineFailure, "the signature dictionary was not written as laid out", backend: backend)
        }
        let start = found.upperBound - 1, end = close + 1
        let ranges = [SignatureField.ByteRange(offset: 0, length: start), SignatureField.ByteRange(offset: end, length: data.count - end)]
        let written = "[0 \(start) \(end) \(data.count - end)]"
        let field = found.lowerBound + " /ByteRange ".utf8.count
        data.replaceSubrange(field..<(field + placeholder.utf8.count), with: Data(written.padding(toLength: placeholder.utf8.count, withPad: " ", startingAt: 0).utf8))
        return PreparedSignatureUpdate(data: data, byteRanges: ranges)
    }

    /// The terminal signature field whose fully qualified name is `name`, and its widget (the
    /// field itself when they are merged, else its first kid). Each node is visited once.
    private func signatureField(named name: String, among roots: [PDFObject]) throws -> (field: PDFReference, widget: PDFReference) {
        var visited: Set<Int> = []
        var pending: [(node: PDFObject, prefix: String?, type: PDFObject?)] = roots.reversed().map { ($0, nil, nil) }
        while let (node, prefix, inherited) = pending.popLast() {
            guard case .reference(let reference) = node, visited.insert(reference.number).inserted, visited.count < 100_000 else { continue }
            let dictionary = try object(reference.number)
            let partial = dictionary["T"].flatMap { if case .string(let bytes) = $0 { PDFTextString.decode(bytes) } else { nil } }
            let qualified = [prefix, partial].compactMap { $0 }.joined(separator: ".")
            let type = dictionary["FT"] ?? inherited
            let kids = try resolved(dictionary["Kids"]).items
            let fieldKids = try kids.filter { try resolved($0)["T"] != nil }
            if qualified == name, fieldKids.isEmpty, type == .name("Sig") {
                if case .reference(let first)? = kids.first { return (reference, first) }
                return (reference, reference)
            }
            pending += fieldKids.reversed().map { ($0, qualified.isEmpty ? nil : qualified, type) }
        }
        throw RendererError(.invalidArgument, "the form has no signature field \(name)", backend: backendID)
    }

    /// The index of the page that shows `widget`: its `/P`, else the page whose `/Annots`
    /// lists it; nil when no page does.
    private func page(of widget: PDFReference, named given: PDFObject?) throws -> Int? {
        var listing: Int?
        for index in 0..<pageCount {
            let page = try pageReference(at: index)
            if case .reference(page)? = given { return index }
            if listing == nil, try resolved(try object(page.number)["Annots"]).items.contains(.reference(widget)) { listing = index }
        }
        return listing
    }

    /// `dictionary` with `items` appended to its array at `key`, or, when that entry is a
    /// reference, `dictionary` as it is and the array's own object written with `items`.
    func appending(_ items: [PDFObject], toArrayAt key: String, of dictionary: PDFObject, in update: inout IncrementalUpdate) throws -> PDFObject {
        if case .reference(let array)? = dictionary[key] {
            update.set(array, to: .array((try update.pending(array) ?? resolved(dictionary[key])).items + items))
            return dictionary
        }
        return dictionary.setting(key, to: .array((dictionary[key]?.items ?? []) + items))
    }

    /// A widget's `/Rect`, its corners put in order; empty when it has none.
    private static func rect(of widget: PDFObject) -> UserRect {
        let numbers = widget["Rect"]?.items.compactMap(\.number) ?? []
        guard numbers.count == 4 else { return UserRect(x0: 0, y0: 0, x1: 0, y1: 0) }
        return UserRect(x0: min(numbers[0], numbers[2]), y0: min(numbers[1], numbers[3]), x1: max(numbers[0], numbers[2]), y1: max(numbers[1], numbers[3]))
    }
}
