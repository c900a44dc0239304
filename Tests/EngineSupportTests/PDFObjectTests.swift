import CAnnotationRecord
import Foundation
import Testing

@testable import EngineSupport

/// PDF objects as the object primitives write and read them: syntax any PDF parser reads
/// back, whatever a title or a name holds, and tokens built back into objects.
@Suite("PDF objects")
struct PDFObjectTests {
    @Test func syntaxEscapesWhatAStrangerWrites() {
        #expect(PDFObject.name("A b/c#(d)").syntax == "/A#20b#2Fc#23#28d#29")
        #expect(PDFObject.text(") /Evil <<").syntax == "<29202F4576696C203C3C>")
        #expect(PDFObject.text("é").syntax == "<FEFF00E9>")
        #expect(PDFObject.text("☃\u{1F600}").syntax == "<FEFF2603D83DDE00>")
        #expect(PDFObject.number(72).syntax == "72")
        #expect(PDFObject.number(0.1 + 0.2).syntax == "0.3")
        #expect(PDFObject.number(-1e-9).syntax == "0")
        #expect(PDFObject.real(.nan).syntax == "0")
        #expect(PDFObject.real(1e20).syntax == "100000000000000000000")
        let dictionary = PDFObject.dictionary(["Z": .null, "A": .array([.bool(true), .reference(PDFReference(number: 5, generation: 0))])])
        #expect(dictionary.syntax == "<</A [true 5 0 R] /Z null>>")
    }

    /// Tokens as the C layers hand them over, nested dictionaries and arrays included.
    @Test func tokensAreBuiltIntoOneObject() {
        let tokens: [(pdf_token_kind, Double, Int32, String)] = [
            (PDF_TOKEN_DICT_BEGIN, 0, 0, ""), (PDF_TOKEN_KEY, 0, 0, "Kids"), (PDF_TOKEN_ARRAY_BEGIN, 0, 0, ""),
            (PDF_TOKEN_REFERENCE, 7, 1, ""), (PDF_TOKEN_DICT_BEGIN, 0, 0, ""), (PDF_TOKEN_KEY, 0, 0, "N"), (PDF_TOKEN_INTEGER, 3, 0, ""),
            (PDF_TOKEN_DICT_END, 0, 0, ""), (PDF_TOKEN_ARRAY_END, 0, 0, ""), (PDF_TOKEN_KEY, 0, 0, "T"), (PDF_TOKEN_STRING, 0, 0, "hi"),
            (PDF_TOKEN_KEY, 0, 0, "Type"), (PDF_TOKEN_NAME, 0, 0, "Pages"), (PDF_TOKEN_DICT_END, 0, 0, ""),
        ]
        let object = PDFObjectBuilder.read { each, user in
            for (kind, number, generation, text) in tokens {
                text.withCString { each(user, kind, number, generation, $0, text.utf8.count) }
            }
        }
        #expect(object == .dictionary([
            "Kids": .array([.reference(PDFReference(number: 7, generation: 1)), .dictionary(["N": .integer(3)])]),
            "T": .string(Array("hi".utf8)), "Type": .name("Pages"),
        ]))
        // Tokens that leave a container open make no object.
        #expect(PDFObjectBuilder.read { each, user in each(user, PDF_TOKEN_ARRAY_BEGIN, 0, 0, nil, 0) } == .null)
    }
}
