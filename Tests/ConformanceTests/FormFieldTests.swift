import Foundation
import RendererProvider
import Testing
import TestSupport

/// Form fields listed through each backend, against qpdf's JSON and pypdf.
@Suite("Form fields, on every backend")
struct FormFieldTests {
    /// What qpdf says of each field: its type, flags, value (without qpdf's `u:` prefix for
    /// text) and the pages of its widgets, by fully qualified name.
    struct QpdfField: Equatable {
        var type: String
        var flags: Int
        var value: [String]
        var pages: [Int]
    }

    static func qpdf(_ path: String) async throws -> [String: QpdfField] {
        let result = try await Tool.run("qpdf", ["--json", "--json-key=acroform", path])
        let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        let fields = (json?["acroform"] as? [String: Any])?["fields"] as? [[String: Any]] ?? []
        func text(_ value: Any?) -> [String] {
            if let list = value as? [Any] { return list.flatMap(text) }
            guard let string = value as? String else { return [] }
            return [string.hasPrefix("u:") ? String(string.dropFirst(2)) : string.hasPrefix("/") ? String(string.dropFirst()) : string]
        }
        var found: [String: QpdfField] = [:]
        for field in fields {
            let name = field["fullname"] as? String ?? ""
            let page = (field["pageposfrom1"] as? Int ?? 0) - 1
            if found[name] == nil {
                found[name] = QpdfField(
                    type: String((field["fieldtype"] as? String ?? "").dropFirst()), flags: field["fieldflags"] as? Int ?? 0,
                    value: text(field["value"]), pages: [])
            }
            found[name]?.pages.append(page)
        }
        return found
    }

    /// The options of each choice field as pypdf reads `/Opt`: value and label.
    static func pypdfOptions(_ path: String) async throws -> [String: [[String]]] {
        let script = """
            import json, sys, pypdf
            fields = pypdf.PdfReader(sys.argv[1]).get_fields() or {}
            print(json.dumps({name: [[str(o[0]), str(o[1])] if isinstance(o, list) else [str(o), str(o)] for o in field["/Opt"]]
                              for name, field in fields.items() if "/Opt" in field}))
            """
        let result = try await Tool.run("python3", ["-c", script, path])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode([String: [[String]]].self, from: result.stdout)
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func everyKindIsReadAsQpdfAndPypdfReadIt(backend: String) async throws {
        let path = Fixtures.path("forms.pdf")
        let fields = try Fixtures.open("forms.pdf", backend: backend).formFields()
        let witness = try await Self.qpdf(path)
        #expect(Set(fields.map(\.name)) == Set(witness.keys))
        for field in fields {
            let expected = try #require(witness[field.name], "\(field.name)")
            let type = ["text": "Tx", "checkbox": "Btn", "radio": "Btn", "pushButton": "Btn", "listBox": "Ch", "comboBox": "Ch", "signature": "Sig"][field.kind.rawValue]
            #expect(type == expected.type && field.flags.rawValue == expected.flags, "\(field.name)")
            #expect(field.values == expected.value, "\(field.name)")
            #expect(field.widgets.map { $0.pageIndex ?? -1 } == expected.pages, "\(field.name)")
        }
        let options = try await Self.pypdfOptions(path)
        for field in fields where !field.options.isEmpty {
            #expect(field.options.map { [$0.value, $0.label] } == options[field.name], "\(field.name)")
        }

        let byName = Dictionary(uniqueKeysWithValues: fields.map { ($0.name, $0) })
        #expect(fields.map(\.kind) == [.text, .text, .text, .text, .text, .text, .checkbox, .radio, .pushButton, .listBox, .comboBox])
        #expect(byName["name"]?.defaultValue == "Nobody" && byName["name"]?.maxLength == 40 && byName["address"]?.maxLength == nil)
        #expect(byName["name"]?.widgets.first?.rect == PageRect(x: 72, y: 72, width: 228, height: 20))
        #expect(byName["id"]?.flags == [.readOnly, .required] && byName["secret"]?.flags == .password && byName["address"]?.flags == .multiline)
        #expect(byName["size"]?.widgets.map(\.onState) == ["S", "M", "L"] && byName["size"]?.value == "M")
        #expect(byName["colors"]?.values == ["red", "b"] && byName["colors"]?.flags == .multiSelect)
        #expect(byName["country"]?.options == [FormField.Option(value: "fr", label: "France"), FormField.Option(value: "de", label: "Germany")])
    }

    /// Signature fields are fields too, without a value; a loop ends the walk; no form, none.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func signaturesLoopsAndNoForm(backend: String) throws {
        let signed = try Fixtures.open("signed.pdf", backend: backend).formFields()
        #expect(signed.map(\.name) == ["Approval", "Review.Witness"] && signed.allSatisfy { $0.kind == .signature && $0.value == nil })
        let loop = try Fixtures.open("field-loop.pdf", backend: backend).formFields()
        #expect(loop.map(\.name) == ["Loop.Inner.Leaf"] && loop.first?.widgets.first?.pageIndex == 0)
        #expect(try Fixtures.open("text.pdf", backend: backend).formFields() == [])
    }
}
