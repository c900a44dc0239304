import Foundation
import RendererProvider

/// The appearance of a visible signature: its lines of text in Helvetica on a pale ground
/// inside a thin frame, as large as fits the widget (at most 12 points), kept upright on a
/// turned page.
package struct SignatureAppearance {
    /// The lines, top to bottom.
    package var lines: [String]
    /// The widget's width and height as the page is shown (turned when the page is).
    package var width: Double
    package var height: Double
    /// The page's `/Rotate`.
    package var rotation: PageRotation

    /// The appearance of `lines` for a widget over `rect` on a page turned by `rotation`.
    package init(lines: [String], rect: UserRect, rotation: PageRotation) {
        let (w, h) = (rect.x1 - rect.x0, rect.y1 - rect.y0)
        let turned = rotation == .quarter || rotation == .threeQuarters
        self.lines = lines
        self.width = turned ? h : w
        self.height = turned ? w : h
        self.rotation = rotation
    }

    /// The font resource the content names `/Helv`.
    package static let font: PDFObject = .dictionary([
        "Type": .name("Font"), "Subtype": .name("Type1"), "BaseFont": .name("Helvetica"), "Encoding": .name("WinAnsiEncoding"),
    ])

    /// The form XObject's dictionary, its font at `font`; the matrix turns the upright
    /// drawing back by the page's rotation, so that the page's turn shows it upright.
    package func dictionary(font: PDFReference) -> [String: PDFObject] {
        let matrix: [Double] =
            switch rotation {
            case .none: [1, 0, 0, 1, 0, 0]
            case .quarter: [0, 1, -1, 0, height, 0]
            case .half: [-1, 0, 0, -1, width, height]
            case .threeQuarters: [0, -1, 1, 0, 0, width]
            }
        return [
            "Type": .name("XObject"), "Subtype": .name("Form"),
            "BBox": .array([0, 0, width, height].map(PDFObject.number)),
            "Matrix": .array(matrix.map(PDFObject.number)),
            "Resources": .dictionary(["Font": .dictionary(["Helv": .reference(font)])]),
        ]
    }

    /// The content stream.
    package var contents: Data {
        let count = Double(max(lines.count, 1))
        let longest = Double(lines.map(\.count).max() ?? 1)
        let size = max(2, min(12, (height - 4) / (count * 1.25), (width - 8) / (max(longest, 1) * 0.55)))
        let number = { (value: Double) in value.decimalText(places: 2) }
        var text = "q 0.94 0.96 1 rg 0 0 \(number(width)) \(number(height)) re f Q\n"
        text += "q 0.2 0.3 0.6 RG 0.75 w 0.5 0.5 \(number(width - 1)) \(number(height - 1)) re S Q\n"
        text += "BT 0 0 0 rg /Helv \(number(size)) Tf \(number(size * 1.25)) TL 4 \(number(height - 2 - size)) Td\n"
        var bytes = Data(text.utf8)
        for (index, line) in lines.enumerated() {
            if index > 0 { bytes.append(Data("T*\n".utf8)) }
            bytes.append(Self.literal(line))
            bytes.append(Data(" Tj\n".utf8))
        }
        bytes.append(Data("ET\n".utf8))
        return bytes
    }

    /// `text` as a literal string in WinAnsiEncoding: Latin-1 characters as they are (with
    /// `(`, `)` and `\` escaped, others outside printable ASCII in octal), anything else `?`.
    private static func literal(_ text: String) -> Data {
        var out = Data("(".utf8)
        for scalar in text.unicodeScalars {
            let byte: UInt8 = scalar.value < 0x100 && (scalar.value >= 0xA0 || (0x20...0x7E).contains(scalar.value)) ? UInt8(scalar.value) : UInt8(ascii: "?")
            switch byte {
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), byte])
            case 0x20...0x7E: out.append(byte)
            default: out.append(Data(String(format: "\\%03o", byte).utf8))
            }
        }
        out.append(Data(")".utf8))
        return out
    }
}
