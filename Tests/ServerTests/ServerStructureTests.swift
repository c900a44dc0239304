import Foundation
import RendererProvider
import Testing
import TestSupport

/// `GET /api/documents/{id}/structure` on the real server: the same structure as the
/// library's for structure.pdf on each engine, as JSON, Markdown and an HTML download that
/// is never shown as one of the server's pages; copying refused where the PDF or the settings
/// forbid it; and what an unfriendly client gets.
@Suite("Server structure route")
struct ServerStructureTests {
    func harness() throws -> ServerHarness {
        let harness = try ServerHarness()
        try FileManager.default.copyItem(atPath: Fixtures.path("structure.pdf"), toPath: harness.docs + "/structure.pdf")
        try FileManager.default.copyItem(atPath: Fixtures.path("tagged.pdf"), toPath: harness.docs + "/tagged.pdf")
        let pages = Array(repeating: Fixtures.path("structure.pdf"), count: 101).flatMap { [$0, "1-2"] }.dropLast()
        let made = try Tool.runBlocking("qpdf", ["--empty", "--pages"] + pages + ["--", harness.docs + "/long.pdf"])
        #expect(made.status == 0, "\(made.stderr)")
        return harness
    }

    static let route = documentPath("structure.pdf") + "/structure"

    @Test func answersTheLibrarysStructureInEachFormat() async throws {
        let harness = try harness()
        let expected = try Fixtures.open("structure.pdf", backend: "poppler").structuredText()
        try await harness.run { client in
            for renderer in ["mupdf", "poppler"] {
                let json = try await client.get(Self.route + "?renderer=\(renderer)")
                try #require(json.status == .ok, "\(json.status) \(json.errorMessage ?? "")")
                #expect(try JSONDecoder().decode(StructuredText.self, from: json.data) == expected, "\(renderer)")
            }
            let second = try await client.get(Self.route + "?first=2&last=2")
            let page = try JSONDecoder().decode(StructuredText.self, from: second.data)
            #expect(page.pages.map(\.index) == [1] && page.pages.first?.elements.first == .heading(level: 1, text: "Field Notes"), "\(page)")

            let markdown = try await client.get(Self.route + "?format=markdown")
            #expect(markdown.status == .ok && markdown.headers[.contentType] == "text/markdown; charset=utf-8")
            #expect(String(decoding: markdown.data, as: UTF8.self) == expected.markdown)

            let html = try await client.get(Self.route + "?format=html")
            #expect(html.status == .ok && html.headers[.contentType] == "text/html; charset=utf-8")
            #expect(html.headers[.contentSecurityPolicy] == "sandbox" && html.headers[.contentDisposition]?.hasPrefix("attachment") == true)
            #expect(String(decoding: html.data, as: UTF8.self) == expected.html(title: "structure"))
        }
    }

    /// A tagged PDF answers the structure its tree states (tagged.json), each page marked as
    /// the tree's, whichever renderer is asked: Poppler reads the tree when MuPDF, which
    /// reads none, draws. A server of MuPDF alone answers the layout's.
    @Test func answersATaggedDocumentsTree() async throws {
        let harness = try harness()
        let expected = try JSONDecoder().decode(StructuredText.self, from: Data(contentsOf: URL(fileURLWithPath: Fixtures.path("tagged.json"))))
        try await harness.run { client in
            let route = documentPath("tagged.pdf") + "/structure"
            for renderer in ["poppler", "mupdf"] {
                let tree = try await client.get(route + "?renderer=\(renderer)")
                try #require(tree.status == .ok, "\(tree.status) \(tree.errorMessage ?? "")")
                #expect(try JSONDecoder().decode(StructuredText.self, from: tree.data) == expected, "\(renderer)")
            }
        }
        try await harness.run(registry: RendererRegistry(Fixtures.registry.renderers.filter { $0.id == "mupdf" })) { client in
            let layout = try await client.get(documentPath("tagged.pdf") + "/structure?first=2")
            let pages = try JSONDecoder().decode(StructuredText.self, from: layout.data).pages
            #expect(pages.map(\.source) == [.layout] && pages.first?.elements.first == .heading(level: 1, text: "Lending"), "\(pages)")
        }
    }

    @Test func refusesWhatIsNoRequestForIt() async throws {
        let harness = try harness()
        try await harness.run { client in
            let cases: [(query: String, status: Int, message: String)] = [
                ("?format=yaml", 400, "format must be"), ("?format=%FF", 400, "percent-encoded"),
                ("?first=0", 400, "page numbers from 1"), ("?first=2&last=1", 422, "no later than last"),
                ("?first=-5", 400, "page numbers from 1"), ("?last=0", 400, "page numbers from 1"), ("?first=abc", 400, "whole number"),
                ("?last=1307", 404, "has 2 pages"), ("?first=3", 404, "has 2 pages"),
                ("?last=99999999999999999999", 400, "whole number"), ("?renderer=../../etc", 400, "unknown renderer"),
            ]
            for (query, status, message) in cases {
                let answer = try await client.get(Self.route + query)
                #expect(Int(answer.status.code) == status && (answer.errorMessage ?? "").contains(message), "\(query): \(answer.status) \(answer.errorMessage ?? "")")
                #expect(!(answer.errorMessage ?? "").contains(harness.docs), "\(query) names the server's folder")
            }
            // More pages than a request reads: a 201-page copy of the document.
            let long = try await client.get(documentPath("long.pdf") + "/structure?first=1&last=201")
            #expect(long.status == .unprocessableContent && (long.errorMessage ?? "").contains("at most 200 pages"), "\(long.status) \(long.errorMessage ?? "")")
            let anonymous = try await client.execute(uri: Self.route, method: .get)
            #expect(anonymous.status == .unauthorized)
            let outside = try await client.get(documentPath("../structure.pdf") + "/structure")
            #expect([400, 404].contains(Int(outside.status.code)), "\(outside.status)")
        }
    }

    /// Copying the text out needs the PDF's copy permission and the `copying` setting: a PDF
    /// that forbids copying (qpdf's `--extract=n`) gets 403 for Markdown and HTML, and
    /// `allows` says so, while the structure as JSON and the text layer (what a screen reader
    /// reads) and search still answer; settings that forbid copying refuse any PDF's.
    @Test func copyingNeedsThePermissionAndTheSetting() async throws {
        let harness = try harness()
        let locked = harness.docs + "/locked.pdf"
        #expect(try Tool.runBlocking("qpdf", ["--encrypt", "", "owner-secret", "256", "--extract=n", "--", Fixtures.path("structure.pdf"), locked]).status == 0)
        try await harness.run { client in
            for format in ["markdown", "html"] {
                let answer = try await client.get(documentPath("locked.pdf") + "/structure?format=\(format)")
                #expect(answer.status == .forbidden && answer.errorCode == "not-permitted" && (answer.errorMessage ?? "").contains("permission copy"), "\(format): \(answer.status)")
            }
            // JSON is what the viewer gives screen readers.
            let json = try #require(try await client.get(documentPath("locked.pdf") + "/structure?format=json").json as? [String: Any])
            #expect(((json["pages"] as? [[String: Any]])?.first?["elements"] as? [Any])?.isEmpty == false)
            let details = try #require(try await client.get(documentPath("locked.pdf")).json as? [String: Any])
            let allows = try #require(details["allows"] as? [String: Bool])
            #expect(allows["copying"] == false && allows["printing"] == true, "\(allows)")
            let open = try #require(try await client.get(documentPath("structure.pdf")).json as? [String: Any])
            #expect((open["allows"] as? [String: Bool])?["copying"] == true)
            let layer = try #require(try await client.get(documentPath("locked.pdf") + "/pages/0/text").json as? [String: Any])
            #expect(((layer["lines"] as? [Any]) ?? []).count > 3, "the text layer stays")
            let search = try await client.get(documentPath("locked.pdf") + "/search?q=the")
            #expect(search.status == .ok && !search.data.isEmpty)
        }
        var settings = DocumentSettings()
        settings[.copying] = FeatureSetting(available: false, enabled: false)
        try await harness.run(configure: { $0.settings = settings }) { client in
            let refused = try await client.get(Self.route + "?format=markdown")
            #expect(refused.status == .forbidden && (refused.errorMessage ?? "").contains("setting copying"), "\(refused.status)")
        }
    }
}
