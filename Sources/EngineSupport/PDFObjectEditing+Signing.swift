#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

extension PDFObjectEditing {
    /// Lays `request`'s signature into `file` as an incremental update written over this
    /// document's objects (which must be `file`'s, unchanged): the signature dictionary, the
    /// field's `/V` (a new field is a merged field and widget on its page, with `/F` 132:
    /// printed and locked), its appearance when it has lines and an area, the AcroForm's
    /// `/SigFlags` 3 and, for a certification, the catalog's `/Perms /DocMDP`. The signature
    /// value is `signatureCapacity` zero bytes as hexadecimal, and `/ByteRange` is filled in.
    package func prepareSignatureUpdate(_ request: SignatureUpdateRequest, of file: Data) throws -> PreparedSignatureUpdate {
        var update = try IncrementalUpdate(file: file, trailer: try trailer(), rendererID: rendererID)
        let catalogReference = try catalogReference()
        var catalog = try object(catalogReference.number)
        let formReference: PDFReference? = if case .reference(let reference) = catalog["AcroForm"] { reference } else { nil }
        var form = try resolved(catalog["AcroForm"])
        if case .dictionary = form {} else { form = .dictionary([:]) }
        let signature = update.reserve()

        let widget: PDFReference, rect: UserRect, pageIndex: Int?
        switch request.placement {
        case .field(let name):
            let found = try signatureField(named: name)
            update.set(found.field, to: try object(found.field.number).setting("V", to: .reference(signature)))
            (widget, rect, pageIndex) = (found.widget.reference ?? found.field, found.widget.rect, found.widget.pageIndex)
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
        return try Self.fillingRanges(of: &data, signatureBodyAt: offsets[signature]!, placeholder: placeholder, rendererID: rendererID)
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
    private static func fillingRanges(of data: inout Data, signatureBodyAt body: Int, placeholder: String, rendererID: String) throws -> PreparedSignatureUpdate {
        let marker = Data((" /ByteRange " + placeholder + " /Contents <").utf8)
        guard let found = data[body...].firstRange(of: marker), let close = data[found.upperBound...].firstIndex(of: UInt8(ascii: ">")) else {
            throw RendererError(.engineFailure, "the signature dictionary was not written as laid out", rendererID: rendererID)
        }
        let start = found.upperBound - 1, end = close + 1
        let ranges = [SignatureField.ByteRange(offset: 0, length: start), SignatureField.ByteRange(offset: end, length: data.count - end)]
        let written = "[0 \(start) \(end) \(data.count - end)]"
        let field = found.lowerBound + " /ByteRange ".utf8.count
        data.replaceSubrange(field..<(field + placeholder.utf8.count), with: Data(written.rightPadded(to: placeholder.utf8.count).utf8))
        return PreparedSignatureUpdate(data: data, byteRanges: ranges)
    }

    /// The terminal signature field whose fully qualified name is `name` (an object of its
    /// own), and its widget (the field itself when they are merged, else its first kid).
    private func signatureField(named name: String) throws -> (field: PDFReference, widget: TerminalField.Widget) {
        guard let field = try terminalFields().first(where: { $0.name == name && $0.type == "Sig" }), let reference = field.reference,
            let widget = field.widgets.first
        else { throw RendererError(.invalidArgument, "the form has no signature field \(name)", rendererID: rendererID) }
        return (reference, widget)
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
}
