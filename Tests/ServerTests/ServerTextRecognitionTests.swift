import Foundation
import RendererOCR
import RendererProvider
import RendererServer
import Testing
import TestSupport

/// The server reading scans: with text recognition configured (`serve --ocr`), the text and
/// search routes, which the viewer's text layer, find and selection read, give a scanned
/// page's words where its picture shows them (``ScannedPages``, whose source has them in the
/// same places); without it, they give none.
@Suite("Server text recognition")
struct ServerTextRecognitionTests {
    func harness() throws -> ServerHarness {
        let harness = try ServerHarness()
        try FileManager.default.copyItem(atPath: ScannedPages.path, toPath: harness.docs + "/scan.pdf")
        return harness
    }

    /// The words of the text route's answer for page `index`.
    static func words(_ client: ServerClient, page index: Int) async throws -> [(text: String, x: Double, y: Double)] {
        let answer = try await client.get(documentPath("scan.pdf") + "/pages/\(index)/text")
        #expect(answer.status == .ok, "\(answer.status) \(answer.errorMessage ?? "")")
        let lines = (answer.json as? [String: Any])?["lines"] as? [[String: Any]] ?? []
        return lines.flatMap { ($0["words"] as? [[String: Any]]) ?? [] }.map { word in
            let origin = (word["bounds"] as! [String: Any])["origin"] as! [String: Double]
            return (word["text"] as! String, origin["x"]!, origin["y"]!)
        }
    }

    @Test func aScannedPageIsReadAndSearchedWhereItsPictureShowsItsText() async throws {
        let harness = try harness()
        try await harness.run { client in
            let words = try await Self.words(client, page: 0)
            #expect(words.isEmpty, "a scan has text without recognition")
        }
        let recognizer = try TesseractRecognizer()
        try await harness.run(configure: { $0.textRecognition = TextRecognition(recognizer: recognizer) }) { client in
            // Eight readers ask for the first page at once: one answer for all.
            let answers = try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<8 { group.addTask { try await Self.words(client, page: 0).map(\.text) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(answers.map { $0.joined(separator: " ") }).count == 1)
            let words = try await Self.words(client, page: 0)
            let preface = try #require(words.first { $0.text == "Preface" })
            #expect(abs(preface.x - 90) < 1.5 && abs(preface.y - 95.9) < 1.5, "Preface at \(preface.x),\(preface.y)")
            let found = try await client.get(documentPath("scan.pdf") + "/search?q=Venables")
            // One hit per line (NDJSON), then the end's summary.
            let lines = String(decoding: found.data, as: UTF8.self).split(separator: "\n")
            let hits = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.filter { $0["quads"] != nil }
            #expect(hits.count == 2 && hits.allSatisfy { $0["pageIndex"] as? Int == 0 }, "\(hits)")
        }
    }
}
