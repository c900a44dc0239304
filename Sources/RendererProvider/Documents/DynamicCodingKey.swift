/// A coding key made from any string, for JSON objects whose member names are data (setting
/// names, form field names) rather than fixed properties.
struct DynamicCodingKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
