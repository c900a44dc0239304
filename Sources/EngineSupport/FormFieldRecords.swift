import CAnnotationRecord
import RendererProvider

extension FormField {
    /// The fields both engines' C layers read, their widgets' rectangles taken from user
    /// space to page space through `pageSpace` (called once a page).
    package static func fields(
        from records: UnsafeBufferPointer<form_field_record>, pageSpace: (Int) throws -> PageSpace
    ) throws -> [FormField] {
        var spaces: [Int: PageSpace] = [:]
        func space(_ page: Int) throws -> PageSpace {
            if let known = spaces[page] { return known }
            let found = try pageSpace(page)
            spaces[page] = found
            return found
        }
        let strings = { (array: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, count: Int32) in
            (0..<Int(count)).map { index in array.flatMap { String(optionalCString: $0[index]) } }
        }
        return try records.map { record in
            let type = withUnsafeBytes(of: record.type) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let kind = kind(type: type, flags: Int(record.flags))
            let options = zip(strings(record.option_values, record.option_count), strings(record.option_labels, record.option_count)).map {
                Option(value: $0 ?? "", label: $1 ?? "")
            }
            let states = strings(record.widget_states, record.widget_count)
            let widgets = try (0..<Int(record.widget_count)).map { index -> Widget in
                let page = Int(record.widget_pages[index])
                guard page >= 0 else { return Widget(pageIndex: nil, rect: nil, onState: states[index]) }
                let corners = (0..<4).map { record.widget_rects[4 * index + $0] }
                let space = try space(page)
                let points = [space.point(x: corners[0], y: corners[1]), space.point(x: corners[2], y: corners[3])]
                let rect = PageRect.enclosing(points.map { PageRect(origin: $0, size: PageSize(width: 0, height: 0)) })
                return Widget(pageIndex: page, rect: rect, onState: states[index])
            }
            let value = String(optionalCString: record.value)
            // A choice field with nothing chosen holds an empty /V, as both engines write it.
            let values = kind == .listBox || kind == .comboBox ? value.map { $0.split(separator: "\n").map(String.init) } : nil
            return FormField(
                name: String(optionalCString: record.name) ?? "", kind: kind, value: values.map { $0.first } ?? value, values: values, defaultValue: String(optionalCString: record.default_value),
                options: options, flags: Flags(rawValue: Int(record.flags)), maxLength: record.max_length >= 0 ? Int(record.max_length) : nil,
                widgets: widgets)
        }
    }
}
