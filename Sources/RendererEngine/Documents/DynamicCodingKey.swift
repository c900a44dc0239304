/// A coding key made from any string, for JSON objects whose member names are data (setting
/// names, form field names) rather than fixed properties.
package struct DynamicCodingKey: CodingKey {
    package let stringValue: String
    package var intValue: Int? { nil }
    package init(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}
