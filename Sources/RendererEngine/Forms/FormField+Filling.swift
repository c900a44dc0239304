extension FormField {
    /// True for the kinds that take a value: text, checkbox, radio, list and combo box.
    public var isFillable: Bool {
        switch kind {
        case .text, .checkbox, .radio, .listBox, .comboBox: true
        case .pushButton, .signature, .unknown: false
        }
    }

    /// `values` as this field takes them, or the error that says why it does not.
    ///
    /// - A text field takes one text (none clears it), no longer than `maxLength`
    ///   characters, with no line break unless it is multiline.
    /// - A checkbox or radio button takes `Off` or one of its widgets' on states (none is `Off`).
    /// - A list or combo box takes export values of its options, or their labels (returned as
    ///   the export values, in the options' order); several only when it is multi-select;
    ///   an editable combo box also takes one value of its own. None clears it.
    ///
    /// Throws `notPermitted` for a read-only field and `invalidArgument` for any other value
    /// the field does not take, or a field that takes no value.
    public func checkedValues(_ values: [String]) throws -> [String] {
        guard isFillable else { throw RendererError(.invalidArgument, "the field \(name) is a \(kind.rawValue) field and takes no value") }
        guard !flags.contains(.readOnly) else { throw RendererError(.notPermitted, "the field \(name) is read-only") }
        let several = kind == .listBox || kind == .comboBox ? flags.contains(.multiSelect) : false
        guard values.count <= 1 || several else { throw RendererError(.invalidArgument, "the field \(name) takes one value, not \(values.count)") }
        switch kind {
        case .text:
            let text = values.first ?? ""
            if let maxLength, text.unicodeScalars.count > maxLength {
                throw RendererError(.invalidArgument, "the field \(name) takes at most \(maxLength) characters; the value has \(text.unicodeScalars.count)")
            }
            if !flags.contains(.multiline), text.contains(where: \.isNewline) {
                throw RendererError(.invalidArgument, "the field \(name) is one line; the value has a line break")
            }
            return [text]
        case .checkbox, .radio:
            let state = values.first ?? "Off"
            let states = widgets.compactMap(\.onState)
            guard state == "Off" || states.contains(state) else {
                throw RendererError(.invalidArgument, "the field \(name) takes Off or \(states.joined(separator: ", ")), not \(state)")
            }
            return [state]
        default:
            var chosen: [Int] = []
            for value in values {
                if let index = options.firstIndex(where: { $0.value == value }) ?? options.firstIndex(where: { $0.label == value }) {
                    if !chosen.contains(index) { chosen.append(index) }
                } else if kind == .comboBox, flags.contains(.editable), values.count == 1 {
                    return [value]
                } else {
                    throw RendererError(
                        .invalidArgument, "the field \(name) takes one of \(options.map(\.value).joined(separator: ", ")), not \(value)")
                }
            }
            return chosen.sorted().map { options[$0].value }
        }
    }

    /// The values a reset gives the field: its default value, or none.
    package var resetValues: [String] {
        guard let defaultValue else { return [] }
        return kind == .listBox || kind == .comboBox ? defaultValue.split(separator: "\n").map(String.init) : [defaultValue]
    }

    /// Whether the field holds `values` (as ``checkedValues(_:)`` returns them) already: the
    /// same values, or no value where they are empty or `Off`.
    package func holds(_ values: [String]) -> Bool {
        values == self.values || (self.values.isEmpty && values.allSatisfy { $0.isEmpty || $0 == "Off" })
    }
}
