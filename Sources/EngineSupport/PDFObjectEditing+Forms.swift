import RendererEngine

extension PDFObjectReading {
    /// What the catalog says of XFA: whether the AcroForm has an `/XFA` entry, and whether
    /// `/NeedsRendering` is true; none when the catalog cannot be read.
    package func catalogXFAFacts() -> XFAFacts {
        guard let catalog = try? object(try catalogReference().number) else { return [] }
        var facts: XFAFacts = []
        if let xfa = try? resolved(try resolved(catalog["AcroForm"])["XFA"]), xfa != .null { facts.insert(.hasXFA) }
        if (try? resolved(catalog["NeedsRendering"])) == .bool(true) { facts.insert(.needsRendering) }
        return facts
    }
}

extension PDFObjectEditing {
    /// The form's terminal fields (``terminalFields()``) as the API gives them, each widget's
    /// rectangle in its page's space.
    package func listFormFields() throws -> [FormField] {
        var spaces: [Int: PageSpace] = [:]
        return try terminalFields().map { field in
            let widgets = try field.widgets.map { widget -> FormField.Widget in
                let onState = field.type == "Btn" ? try onState(of: widget.dictionary) : nil
                guard let page = widget.pageIndex else { return FormField.Widget(pageIndex: nil, rect: nil, onState: onState) }
                let space = try spaces[page] ?? loadPage(at: page).pageSpace()
                spaces[page] = space
                return FormField.Widget(pageIndex: page, rect: space.rect(widget.rect), onState: onState)
            }
            let kind = FormField.kind(type: field.type ?? "", flags: field.flags)
            // A signature's value is its signature dictionary, which listSignatureFields reads.
            let value = if case .dictionary = field.value { String?.none } else { TerminalField.text(of: field.value) }
            // A choice field with nothing chosen holds an empty /V, as both engines write it.
            let values = kind == .listBox || kind == .comboBox ? value.map { $0.split(separator: "\n").map(String.init) } : nil
            return FormField(
                name: field.name, kind: kind, value: values.map { $0.first } ?? value, values: values, defaultValue: TerminalField.text(of: field.defaultValue),
                options: try options(of: field.dictionary), flags: FormField.Flags(rawValue: field.flags), maxLength: field.maxLength, widgets: widgets)
        }
    }

    /// The form's signature fields (`/FT /Sig`), with whether each covers the whole file,
    /// marked with the certification they carry.
    package func listSignatureFields() throws -> [SignatureField] {
        let fileLength = try fileLength()
        let fields = try terminalFields().filter { $0.type == "Sig" }.map { field in
            let signature = field.value ?? .null
            let lock = try fieldLock(of: field.dictionary)
            guard case .dictionary = signature else {
                return SignatureField(name: field.name, pageIndex: field.widgets.first?.pageIndex, isSigned: false, lock: lock)
            }
            let text = { (key: String) in TerminalField.text(of: try self.resolved(signature[key])) }
            let numbers = try resolved(signature["ByteRange"]).items.map { (try? resolved($0))?.wholeNumber ?? 0 }
            let ranges = stride(from: 0, to: numbers.count - 1, by: 2).map { SignatureField.ByteRange(offset: numbers[$0], length: numbers[$0 + 1]) }
            return SignatureField(
                name: field.name, pageIndex: field.widgets.first?.pageIndex, isSigned: true, signerName: try text("Name"),
                signingTime: try text("M").flatMap(PDFDate.parse), reason: try text("Reason"), location: try text("Location"), subFilter: try text("SubFilter"),
                byteRanges: ranges, coversWholeFile: SignatureField.rangesCoverWholeFile(ranges, fileSize: fileLength), lock: lock)
        }
        return markingCertification(fields)
    }

    /// The terminal field form filling writes: the first named `name`; `invalidArgument`
    /// when none is.
    package func terminalField(named name: String) throws -> TerminalField {
        guard let field = try terminalFields().first(where: { $0.name == name }) else {
            throw RendererError(.invalidArgument, "the form has no field named \(name)", rendererID: rendererID)
        }
        return field
    }

    /// Sets the button `field` (a checkbox or radio group) to `state`, `Off` for none, as
    /// both engines write it: `/V` the state's name, and each widget's `/AS` that state when
    /// its normal appearance has it, else `Off`. (Poppler's own button setter is not used: it
    /// fails on a radio group whose buttons it holds as fields of their own.)
    package func setButton(_ field: TerminalField, to state: String) throws {
        guard let reference = field.reference else {
            throw RendererError(.unsupported, "the field \(field.name) is written inside another object", rendererID: rendererID)
        }
        try setEntry("V", of: reference, to: .name(state))
        for widget in field.widgets {
            guard let widgetReference = widget.reference else { continue }
            // The field's own widget is read again, for the /V just written.
            let normal = try resolved(try resolved(try object(widgetReference.number)["AP"])["N"])
            let hasState = if case .dictionary(let states) = normal { states[state] != nil } else { false }
            try setEntry("AS", of: widgetReference, to: .name(hasState ? state : "Off"))
        }
    }

    /// The fields a signature field's `/Lock` locks; nil without one, or with an action it
    /// does not know.
    private func fieldLock(of field: PDFObject) throws -> FieldLock? {
        let lock = try resolved(field["Lock"])
        let names = try resolved(lock["Fields"]).items.compactMap { TerminalField.text(of: try resolved($0)) }
        switch lock["Action"] {
        case .name("All")?: return .all
        case .name("Include")?: return .only(names)
        case .name("Exclude")?: return .allBut(names)
        default: return nil
        }
    }

    /// A choice field's `/Opt`: each option's export value and the label shown (the same
    /// when the option is one string).
    private func options(of field: PDFObject) throws -> [FormField.Option] {
        try resolved(field["Opt"]).items.map { item in
            let option = try resolved(item)
            guard case .array(let pair) = option else {
                let text = TerminalField.text(of: option) ?? ""
                return FormField.Option(value: text, label: text)
            }
            let parts = try pair.prefix(2).map { TerminalField.text(of: try resolved($0)) ?? "" }
            return FormField.Option(value: parts.first ?? "", label: parts.count > 1 ? parts[1] : "")
        }
    }

    /// The name of a button widget's "on" appearance state: the key of its `/AP /N` other
    /// than `Off` (the first in name order); nil when `/N` is one appearance (a stream, whose
    /// dictionary has the `/Length` every stream has) or has no other state.
    private func onState(of widget: PDFObject) throws -> String? {
        let normal = try resolved(try resolved(widget["AP"])["N"])
        guard case .dictionary(let states) = normal, states["Length"] == nil else { return nil }
        return states.keys.filter { $0 != "Off" }.min()
    }
}
