#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// The appearance of a visible signature: its lines of text on a pale ground inside a thin
/// frame, as large as fits the widget (at most 12 points), kept upright on a turned page. The
/// text is in Helvetica (WinAnsiEncoding), or in the embedded font the request gives when
/// the lines need characters WinAnsiEncoding does not hold.
package struct SignatureAppearance {
    /// The lines, top to bottom.
    package var lines: [String]
    /// The widget's width and height as the page is shown (turned when the page is).
    package var width: Double
    package var height: Double
    /// The page's `/Rotate`.
    package var rotation: PageRotation
    /// The embedded font; nil for Helvetica.
    package var font: AppearanceFont?

    /// The appearance of `lines` for a widget over `rect` on a page turned by `rotation`,
    /// drawn in `font` (nil: Helvetica).
    package init(lines: [String], rect: UserRect, rotation: PageRotation, font: AppearanceFont? = nil) {
        let (w, h) = (rect.x1 - rect.x0, rect.y1 - rect.y0)
        let turned = rotation == .quarter || rotation == .threeQuarters
        self.lines = lines
        self.width = turned ? h : w
        self.height = turned ? w : h
        self.rotation = rotation
        self.font = font
    }

    /// The font resource's name in the content.
    private var fontKey: String { font == nil ? "Helv" : "Sig" }

    /// Writes the font the content names into `update`: Helvetica, or the embedded font as a
    /// Type 0 font (Identity-H: a two-byte code is a glyph of the program) with its widths,
    /// descriptor, program and a ToUnicode map, so that text extraction reads the lines.
    /// Returns the font's reference.
    package func writeFont(into update: inout IncrementalUpdate) -> PDFReference {
        guard let font else {
            let reference = update.reserve()
            update.set(reference, to: .dictionary([
                "Type": .name("Font"), "Subtype": .name("Type1"), "BaseFont": .name("Helvetica"), "Encoding": .name("WinAnsiEncoding"),
            ]))
            return reference
        }
        return font.embedded.writeType0(
            add: { object in
                let reference = update.reserve()
                update.set(reference, to: object)
                return reference
            },
            addStream: { dictionary, contents in
                let reference = update.reserve()
                update.setStream(reference, dictionary: dictionary, contents: contents)
                return reference
            })
    }

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
            "Resources": .dictionary(["Font": .dictionary([fontKey: .reference(font)])]),
        ]
    }

    /// The content stream.
    package var contents: Data {
        let count = Double(max(lines.count, 1))
        let longest = lines.map(ems).max() ?? 1
        let size = max(2, min(12, (height - 4) / (count * 1.25), (width - 8) / max(longest, 0.55)))
        let number = { (value: Double) in value.decimalText(places: 2) }
        var text = "q 0.94 0.96 1 rg 0 0 \(number(width)) \(number(height)) re f Q\n"
        text += "q 0.2 0.3 0.6 RG 0.75 w 0.5 0.5 \(number(width - 1)) \(number(height - 1)) re S Q\n"
        text += "BT 0 0 0 rg /\(fontKey) \(number(size)) Tf \(number(size * 1.25)) TL 4 \(number(height - 2 - size)) Td\n"
        var bytes = Data(text.utf8)
        for (index, line) in lines.enumerated() {
            if index > 0 { bytes.append(Data("T*\n".utf8)) }
            bytes.append(font.map { Self.glyphString(line, in: $0) } ?? Self.literal(line))
            bytes.append(Data(" Tj\n".utf8))
        }
        bytes.append(Data("ET\n".utf8))
        return bytes
    }

    /// How wide `line` is in ems: its glyphs' advances, or Helvetica's 0.55 em a character.
    private func ems(_ line: String) -> Double {
        guard let font else { return Double(line.count) * 0.55 }
        var thousandths = 0.0
        for scalar in line.unicodeScalars { thousandths += font.glyphs[scalar.value]?.advance ?? 1000 }
        return thousandths / 1000
    }

    /// `text` as a literal string in WinAnsiEncoding (``WinAnsiText``), with `(`, `)` and `\`
    /// escaped and bytes outside printable ASCII in octal.
    private static func literal(_ text: String) -> Data {
        var out = Data("(".utf8)
        for byte in WinAnsiText.bytes(text) {
            switch byte {
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), byte])
            case 0x20...0x7E: out.append(byte)
            default: out.append(Data(String(printf: "\\%03o", byte).utf8))
            }
        }
        out.append(Data(")".utf8))
        return out
    }

    /// `text` as a hexadecimal string of `font`'s glyphs, two bytes each; a character the
    /// font lacks is its missing glyph (0).
    private static func glyphString(_ text: String, in font: AppearanceFont) -> Data {
        Data(EmbeddedFont.codes(text.unicodeScalars.map { font.glyphs[$0.value]?.id ?? 0 }).utf8)
    }
}
