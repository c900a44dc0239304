import Foundation
import Testing
import TestSupport

/// `hostapp forms`, run as a user runs it: values exported as JSON, FDF and XFDF and read by
/// independent parsers (qpdf for FDF and the filled PDFs, Python's XML parser for XFDF),
/// filled back on the other engine, reset and flattened.
@Suite("hostapp forms")
struct FormCommandTests {
    /// The values forms.pdf (make-fixtures.sh) holds in each field that takes one.
    static let fixtureValues: [String: [String]] = [
        "name": ["Ada Lovelace"], "address": [], "secret": [], "id": ["42"], "person.first": ["Grace"], "person.last": ["Hopper"],
        "subscribe": ["Yes"], "size": ["M"], "colors": ["red", "b"], "country": ["de"],
    ]

    static func other(than backend: String) -> String { backend == "mupdf" ? "poppler" : "mupdf" }

    func hostapp(_ arguments: [String]) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments)
    }

    /// A PDF string, name or array of them as qpdf's JSON writes it, as plain values.
    static func qpdfValues(_ value: Any?) -> [String] {
        if let list = value as? [Any] { return list.flatMap(qpdfValues) }
        guard let text = value as? String else { return [] }
        let plain = text.hasPrefix("u:") ? String(text.dropFirst(2)) : text.hasPrefix("/") ? String(text.dropFirst()) : text
        return plain.isEmpty ? [] : [plain]
    }

    /// The values of a PDF's form fields as qpdf reads them.
    static func qpdfFieldValues(_ path: String) async throws -> [String: [String]] {
        let json = try await JSONSerialization.jsonObject(with: Tool.run("qpdf", ["--json", "--json-key=acroform", path]).stdout) as? [String: Any]
        let fields = (json?["acroform"] as? [String: Any])?["fields"] as? [[String: Any]] ?? []
        return Dictionary(fields.map { ($0["fullname"] as? String ?? "", qpdfValues($0["value"])) }, uniquingKeysWith: { a, _ in a })
    }

    /// The values of an FDF file as qpdf parses its objects: the `/Fields` tree walked from
    /// the trailer's root, partial names joined by dots.
    static func qpdfFDFValues(_ path: String) async throws -> [String: [String]] {
        let json = try await JSONSerialization.jsonObject(with: Tool.run("qpdf", ["--json", "--json-key=qpdf", path]).stdout) as? [String: Any]
        let objects = try #require((json?["qpdf"] as? [Any])?.last as? [String: Any])
        let trailer = (objects["trailer"] as? [String: Any])?["value"] as? [String: Any]
        let root = try #require(trailer?["/Root"] as? String)
        let catalog = (objects["obj:" + root] as? [String: Any])?["value"] as? [String: Any]
        let fields = (catalog?["/FDF"] as? [String: Any])?["/Fields"] as? [[String: Any]] ?? []
        var found: [String: [String]] = [:]
        func walk(_ fields: [[String: Any]], prefix: String) {
            for field in fields {
                let name = prefix + qpdfValues(field["/T"]).joined()
                if field["/V"] != nil { found[name] = qpdfValues(field["/V"]) }
                walk(field["/Kids"] as? [[String: Any]] ?? [], prefix: name + ".")
            }
        }
        walk(fields, prefix: "")
        return found
    }

    /// The values of an XFDF file as Python's XML parser reads its `<fields>`.
    static func pythonXFDFValues(_ path: String) async throws -> [String: [String]] {
        let script = """
            import json, sys, xml.etree.ElementTree as ET
            ns = '{http://ns.adobe.com/xfdf/}'
            found = {}
            def walk(element, prefix):
                for field in element.findall(ns + 'field'):
                    name = prefix + field.get('name')
                    values = [v.text or '' for v in field.findall(ns + 'value')]
                    if values: found[name] = [v for v in values if v]
                    walk(field, name + '.')
            walk(ET.parse(sys.argv[1]).getroot().find(ns + 'fields'), '')
            print(json.dumps(found))
            """
        let result = try await Tool.run("python3", ["-c", script, path])
        return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: [String]])
    }

    @Test(arguments: ["mupdf", "poppler"])
    func exportedValuesAreWhatIndependentParsersRead(backend: String) async throws {
        let directory = try Tool.temporaryDirectory()
        let form = Fixtures.path("forms.pdf")
        #expect(try await Self.qpdfFieldValues(form).filter { Self.fixtureValues[$0.key] != nil } == Self.fixtureValues, "the fixture, read by qpdf")
        for format in ["json", "fdf", "xfdf"] {
            let path = directory.appendingPathComponent("values.\(format)").path
            let result = try await hostapp(["--renderer", backend, "forms", "export", form, "--format", format, "-o", path])
            #expect(result.status == 0, "\(result.stderr)")
            let read: [String: [String]]
            switch format {
            case "json":
                let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
                read = json.mapValues { ($0 as? [String]) ?? ($0 as? String).map { [$0] } ?? [] }
            case "fdf": read = try await Self.qpdfFDFValues(path)
            default: read = try await Self.pythonXFDFValues(path)
            }
            #expect(read == Self.fixtureValues, "\(format)")
        }
    }

    @Test(arguments: ["mupdf", "poppler"])
    func valuesInEachFormatFillAFreshCopyOnTheOtherEngine(backend: String) async throws {
        let directory = try Tool.temporaryDirectory()
        let filled = directory.appendingPathComponent("filled.pdf").path
        let set = ["name=Émilie (née) \\ Curie", "address=1 Rue\nParis", "subscribe=Off", "size=L", "colors=green", "colors=blue", "country=France"]
        let fill = try await hostapp(["--renderer", backend, "forms", "fill", Fixtures.path("forms.pdf"), "-o", filled] + set.flatMap { ["--set", $0] })
        #expect(fill.status == 0, "\(fill.stderr)")
        #expect(fill.text.hasPrefix("changed 6 fields"), "\(fill.text)")
        var expected = Self.fixtureValues
        expected.merge(["name": ["Émilie (née) \\ Curie"], "address": ["1 Rue\nParis"], "subscribe": ["Off"], "size": ["L"], "colors": ["green", "b"], "country": ["fr"]]) { $1 }
        #expect(try await Self.qpdfFieldValues(filled).filter { expected[$0.key] != nil } == expected)
        for format in ["json", "fdf", "xfdf"] {
            let values = directory.appendingPathComponent("values.\(format)").path
            #expect(try await hostapp(["--renderer", backend, "forms", "export", filled, "--format", format, "-o", values]).status == 0)
            let copy = directory.appendingPathComponent("copy-\(format).pdf").path
            let refill = try await hostapp(["--renderer", Self.other(than: backend), "forms", "fill", Fixtures.path("forms.pdf"), "--values", values, "-o", copy])
            #expect(refill.status == 0, "\(format): \(refill.stderr)")
            #expect(try await Self.qpdfFieldValues(copy).filter { expected[$0.key] != nil } == expected, "\(format)")
            #expect(try await Tool.run("qpdf", ["--check", copy]).status == 0, "\(format)")
        }
    }

    @Test(arguments: ["mupdf", "poppler"])
    func badValuesChangeNothing(backend: String) async throws {
        let directory = try Tool.temporaryDirectory()
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("forms.pdf"))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let files = [
            "bad.json": #"{"name": 3}"#, "unknown.json": #"{"nothing": "x"}"#, "readonly.json": #"{"id": "7"}"#,
            "cut.fdf": "%FDF-1.2\n1 0 obj << /FDF << /Fields [ << /T (name) /V (cut", "noname.xfdf": #"<xfdf xmlns="http://ns.adobe.com/xfdf/"><fields><field><value>x</value></field></fields></xfdf>"#,
            "choice.xfdf": #"<xfdf xmlns="http://ns.adobe.com/xfdf/"><fields><field name="size"><value>XXL</value></field></fields></xfdf>"#,
            "notxml.xfdf": "<xfdf><fields>", "other.txt": "name=x",
        ]
        for (name, text) in files {
            let values = directory.appendingPathComponent(name).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: values))
            let result = try await hostapp(["--renderer", backend, "forms", "fill", path, "--values", values])
            #expect(result.status != 0 && result.stderr.contains("error"), "\(name): \(result.stderr)")
        }
        let long = try await hostapp(["--renderer", backend, "forms", "fill", path, "--set", "name=" + String(repeating: "x", count: 41)])
        #expect(long.status != 0, "past /MaxLen")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file is untouched")
    }

    @Test(arguments: ["mupdf", "poppler"])
    func resetAndFlatten(backend: String) async throws {
        let directory = try Tool.temporaryDirectory()
        let reset = directory.appendingPathComponent("reset.pdf").path
        let result = try await hostapp(["--renderer", backend, "forms", "reset", Fixtures.path("forms.pdf"), "--field", "name", "--field", "colors", "-o", reset])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.text.hasPrefix("reset 2 fields"), "\(result.text)")
        let values = try await Self.qpdfFieldValues(reset)
        #expect(values["name"] == ["Nobody"] && values["colors"] == [] && values["size"] == ["M"], "\(values)")

        let flat = directory.appendingPathComponent("flat.pdf").path
        let filled = directory.appendingPathComponent("filled.pdf").path
        #expect(try await hostapp(["--renderer", backend, "forms", "fill", Fixtures.path("forms.pdf"), "--set", "name=Flat Value", "-o", filled]).status == 0)
        let flatten = try await hostapp(["--renderer", backend, "forms", "flatten", filled, "-o", flat])
        #expect(flatten.status == 0, "\(flatten.stderr)")
        #expect(try await Self.qpdfFieldValues(flat).isEmpty)
        #expect(try await Tool.run("pdftotext", [flat, "-"]).text.contains("Flat Value"))
        #expect(try await hostapp(["--renderer", "poppler", "forms", "list", flat]).text.contains("(no form fields)"))
    }
}
