import Foundation

extension Double {
    /// The number with at most `places` decimals and no trailing zeros or point, as PDF,
    /// XFDF and pdfinfo write numbers: `12.5`, `3`, never `-0`.
    package func decimalText(places: Int) -> String {
        var text = String(format: "%.\(places)f", self)
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
