import Foundation
import Testing

@testable import RendererProvider

/// Form values read from and written to FDF and JSON, without an engine.
@Suite("Form values in FDF and JSON")
struct FormValuesTests {
    /// An FDF as other tools write it: a field tree split across indirect objects, literal
    /// strings with escapes, octal codes and a line continuation, a UTF-16 hexadecimal
    /// string, a PDFDocEncoding byte, a button state with a `#20` escape, a list of choices,
    /// an empty value, a cross-reference table and a stream to skip.
    static let handWritten = """
        %FDF-1.2
        %\u{E2}\u{E3}\u{CF}\u{D3}
        1 0 obj
        << /FDF << /Fields [ 2 0 R << /T (plain) /V (a \\(b\\) c\\\\d\\101\\12e\\
        f) >> << /T (nochange) >> ] /F (form.pdf) >> >>
        endobj
        2 0 obj
        << /T (person) /Kids [ 3 0 R << /T (check) /V /Yes#20Please >> << /T (list) /V [(red) <FEFF00E9>] >> << /T (empty) /V () >> ] >>
        endobj
        3 0 obj
        << /T <FEFF006E0061006D0065> /V (\\223rst \\200) >>
        endobj
        4 0 obj
        << /Length 5 >>
        stream
        ) ] >>
        endstream
        endobj
        xref
        0 5
        0000000000 65535 f
        trailer
        << /Root 1 0 R /Size 5 >>
        %%EOF
        """

    /// A field tree 80 levels deep, each level an indirect object.
    static let deepFieldTree =
        "%FDF-1.2\n1 0 obj << /FDF << /Fields [ 2 0 R ] >> >> endobj\n"
        + (2...80).map { "\($0) 0 obj << /T (a) /Kids [ \($0 + 1) 0 R ] >> endobj\n" }.joined() + "trailer << /Root 1 0 R >>"

    static func fdf(_ text: String) -> Data { Data(text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }) }

    @Test func anFDFAsOtherToolsWriteItIsRead() throws {
        let values = try FormValues(fdf: Self.fdf(Self.handWritten))
        #expect(values.entries.map(\.name) == ["person.name", "person.check", "person.list", "person.empty", "plain"])
        #expect(values["plain"]?.values == ["a (b) c\\dA\nef"])
        #expect(values["person.name"]?.values == ["\u{FB01}rst \u{2022}"], "PDFDocEncoding 0x93 and 0x80")
        #expect(values["person.check"] == FormValues.Entry(name: "person.check", values: ["Yes Please"], isButtonState: true))
        #expect(values["person.list"]?.values == ["red", "é"])
        #expect(values["person.empty"]?.values == [], "an empty string is no value")
        #expect(values["nochange"] == nil, "a field with no /V sets nothing")
    }

    @Test func whatIsWrittenReadsBackTheSame() throws {
        let written = FormValues([
            .init(name: "name", values: ["Émilie (née) \\ back\nslash"]),
            .init(name: "person.first", values: ["Grace"]),
            .init(name: "person.last", values: []),
            .init(name: "person.address.city", values: ["Paris"]),
            .init(name: "subscribe", values: ["On (yes)/#"], isButtonState: true),
            .init(name: "off", values: [], isButtonState: true),
            .init(name: "colors", values: ["red", "b"]),
        ])
        let data = written.fdfData(fileName: "form.pdf")
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("%FDF-1.2\n"))
        #expect(text.contains("/T (person) /Kids ["), "partial names nest")
        #expect(text.contains("/V /On#20#28yes#29#2F#23"), "a button state is a name")
        let read = try FormValues(fdf: data)
        var expected = written
        expected["off"] = .init(name: "off", values: ["Off"], isButtonState: true)
        #expect(read.dictionary == expected.dictionary)
        #expect(read.entries.filter(\.isButtonState).map(\.name) == ["subscribe", "off"])
    }

    @Test(arguments: [
        ("no FDF dictionary", "%FDF-1.2\n1 0 obj << /Type /Catalog >> endobj trailer << /Root 1 0 R >>"),
        ("no trailer", "%FDF-1.2\n1 0 obj << /FDF << /Fields [] >> >> endobj"),
        ("a string not closed", "%FDF-1.2\n1 0 obj << /FDF << /Fields [ << /T (a) /V (open >> ] >> >> endobj trailer << /Root 1 0 R >>"),
        ("a bad hexadecimal string", "%FDF-1.2\n1 0 obj << /FDF << /Fields [ << /T <zz> >> ] >> >> endobj trailer << /Root 1 0 R >>"),
        ("a key not a name", "%FDF-1.2\n1 0 obj << (T) (a) >> endobj trailer << /Root 1 0 R >>"),
        ("a field with no name", "%FDF-1.2\n1 0 obj << /FDF << /Fields [ << /V (a) >> ] >> >> endobj trailer << /Root 1 0 R >>"),
        ("a value of another type", "%FDF-1.2\n1 0 obj << /FDF << /Fields [ << /T (a) /V 12 >> ] >> >> endobj trailer << /Root 1 0 R >>"),
        ("fields not an array", "%FDF-1.2\n1 0 obj << /FDF << /Fields (x) >> >> endobj trailer << /Root 1 0 R >>"),
        ("a field loop", "%FDF-1.2\n1 0 obj << /FDF << /Fields [ 2 0 R ] >> >> endobj 2 0 obj << /T (a) /Kids [ 2 0 R ] >> endobj trailer << /Root 1 0 R >>"),
        ("nesting too deep", "%FDF-1.2\n1 0 obj " + String(repeating: "[", count: 10_000) + " endobj"),
        ("a field tree too deep", Self.deepFieldTree),
        ("not PDF syntax", "%FDF-1.2\n1 0 obj << /FDF ) >> endobj"),
        ("empty", ""),
    ])
    func damagedFDFIsRefusedWithAReason(_ name: String, _ text: String) {
        do {
            _ = try FormValues(fdf: Self.fdf(text))
            Issue.record("\(name) was read")
        } catch let error as RendererError {
            #expect(error.code == .invalidArgument, "\(name)")
            #expect(error.message.contains("FDF"), "\(name): \(error.message)")
        } catch {
            Issue.record("\(name): \(error)")
        }
    }

    @Test func jsonHoldsAStringAnArrayOrNullPerField() throws {
        let values = FormValues([
            .init(name: "name", values: ["Ada"]), .init(name: "colors", values: ["red", "b"]), .init(name: "notes", values: []),
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(values), as: UTF8.self)
        #expect(json == #"{"colors":["red","b"],"name":"Ada","notes":null}"#)
        #expect(try JSONDecoder().decode(FormValues.self, from: Data(json.utf8)).dictionary == values.dictionary)
        for bad in [#"{"name": 3}"#, #"{"name": [1]}"#, #"["name"]"#, #"{"name": {"a": "b"}}"#] {
            #expect(throws: DecodingError.self, "\(bad)") { try JSONDecoder().decode(FormValues.self, from: Data(bad.utf8)) }
        }
    }

    @Test func aLaterEntryReplacesAnEarlierOneInPlace() {
        var values = FormValues([.init(name: "a", values: ["1"]), .init(name: "b", values: ["2"]), .init(name: "a", values: ["3"])])
        #expect(values.entries.map(\.name) == ["a", "b"] && values["a"]?.values == ["3"])
        values["a"] = nil
        #expect(values.entries.map(\.name) == ["b"])
    }
}
