import Foundation
import Testing

@testable import RendererProvider

@Suite("Engine-independent values")
struct ValueTests {
    @Test func pdfColourArrays() {
        #expect(Color(pdfComponents: [0.25]) == Color(red: 0.25, green: 0.25, blue: 0.25))
        #expect(Color(pdfComponents: [1, 0.5, 0]) == Color(red: 1, green: 0.5, blue: 0))
        #expect(Color(pdfComponents: [0, 1, 1, 0]) == Color(red: 1, green: 0, blue: 0), "CMYK cyan-free, magenta and yellow full: red")
        #expect(Color(pdfComponents: [0, 0, 0, 0.5]) == Color(red: 0.5, green: 0.5, blue: 0.5))
        #expect(Color(pdfComponents: []) == nil)
        #expect(Color(pdfComponents: [1, 0]) == nil)
    }

    @Test func destinationsAreWrittenAsAPersonWouldWriteThem() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func json(_ destination: Destination) throws -> String { String(decoding: try encoder.encode(destination), as: UTF8.self) }
        #expect(try json(.uri("https://example.org/a")) == #"{"kind":"uri","uri":"https://example.org/a"}"#)
        #expect(try json(.page(index: 2, point: nil)) == #"{"index":2,"kind":"page"}"#)
        let full = Destination.page(
            index: 4, point: PagePoint(x: 72, y: 40.5), view: DestinationView(fit: .xyz, left: 72, top: 40.5, zoom: 1.5))
        #expect(try json(full) == #"{"index":4,"kind":"page","point":{"x":72,"y":40.5},"view":{"fit":"XYZ","left":72,"top":40.5,"zoom":1.5}}"#)
        #expect(try JSONDecoder().decode(Destination.self, from: try encoder.encode(full)) == full)
        for refused in [#"{"kind":"file","uri":"a"}"#, #"{"uri":{"_0":"a"}}"#, #"{"kind":"page"}"#, #"{"kind":"uri","uri":7}"#] {
            #expect(throws: DecodingError.self, "\(refused)") { try JSONDecoder().decode(Destination.self, from: Data(refused.utf8)) }
        }
    }

    @Test func errorsDescribeThemselvesToFoundation() {
        let error: any Error = RendererError(.damaged, "the file is cut short", rendererID: "mupdf", engineMessage: "no xref")
        #expect(error.localizedDescription == "mupdf: the file is cut short (engine: no xref)")
    }

    @Test func pixelRectRoundsLikeTheEngines() {
        let letter = PageRect(x: 0, y: 0, width: 612, height: 792)
        #expect(PixelRect(covering: letter, scale: 150.0 / 72) == PixelRect(x: 0, y: 0, width: 1275, height: 1650))
        #expect(PixelRect(covering: PageRect(x: 0.5, y: 0, width: 10, height: 10), scale: 1) == PixelRect(x: 0, y: 0, width: 11, height: 10))
        #expect(PixelRect(covering: letter, scale: 1e300) == nil)
    }

    @Test func permissionBits() {
        // /P -3392 (qpdf: only extraction for accessibility) and -4 (everything).
        #expect(DocumentPermissions(pdfPermissionBits: -3392) == [.extractForAccessibility])
        #expect(DocumentPermissions(pdfPermissionBits: -4) == .all)
        #expect(DocumentPermissions(pdfPermissionBits: -4).names.count == 8)
    }

    @Test func netpbmEncoding() throws {
        let rgb = Bitmap(width: 2, height: 1, stride: 8, format: .rgb, bytes: [1, 2, 3, 4, 5, 6, 0, 0])
        #expect(try rgb.pnmData() == Data("P6\n2 1\n255\n".utf8) + Data([1, 2, 3, 4, 5, 6]))
        let gray = Bitmap(width: 1, height: 2, stride: 1, format: .gray, bytes: [7, 8])
        #expect(try gray.pnmData() == Data("P5\n1 2\n255\n".utf8) + Data([7, 8]))
        let rgba = Bitmap(width: 1, height: 1, stride: 4, format: .rgba, bytes: [9, 8, 7, 6])
        #expect(rgba.pamData() == Data("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8) + Data([9, 8, 7, 6]))
        #expect((#expect(throws: RendererError.self) { try rgba.pnmData() })?.code == .invalidArgument)
    }

    @Test func sniffing() throws {
        #expect(try DocumentSource.memory(Data("%PDF-1.7\n".utf8)).sniffContentType() == .pdf)
        #expect(try DocumentSource.memory(Data("\n\n%PDF-1.4".utf8)).sniffContentType() == .pdf)
        // The marker is looked for in the first 1,024 bytes: ending at the last of them, or
        // cut short by their end, or as short as the input.
        let padding = Data(repeating: 0x20, count: 1019)
        #expect(try DocumentSource.memory(padding + Data("%PDF-1.4".utf8)).sniffContentType() == .pdf)
        #expect((#expect(throws: RendererError.self) { try DocumentSource.memory(padding + Data(" %PDF-1.4".utf8)).sniffContentType() })?.code == .unsupportedFormat)
        #expect(try DocumentSource.memory(Data("%PDF-".utf8)).sniffContentType() == .pdf)
        #expect((#expect(throws: RendererError.self) { try DocumentSource.memory(Data("%PDF".utf8)).sniffContentType() })?.code == .unsupportedFormat)
        #expect(try DocumentSource.memory(Data("<?xml version=\"1.0\"?>\n<FictionBook xmlns=\"http://www.gribuser.ru/xml/fictionbook/2.0\">".utf8)).sniffContentType() == .fb2)
        #expect((#expect(throws: RendererError.self) { try DocumentSource.memory(Data("<?xml version=\"1.0\"?>\n<FictionBoo".utf8)).sniffContentType() })?.code == .unsupportedFormat)
        #expect((#expect(throws: RendererError.self) { try DocumentSource.memory(Data("GIF89a".utf8)).sniffContentType() })?.code == .unsupportedFormat)
        #expect((#expect(throws: RendererError.self) { try DocumentSource.memory(Data()).sniffContentType() })?.code == .unsupportedFormat)
        #expect((#expect(throws: RendererError.self) { try DocumentSource.file("/no/such/file.pdf").sniffContentType() })?.code == .fileNotFound)
        #expect((#expect(throws: RendererError.self) { try DocumentSource.file("/tmp").sniffContentType() })?.code == .ioFailure)
    }
}
