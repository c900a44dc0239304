import Foundation
import RendererOCR
import RendererProvider
import RendererServer
import Testing
import TestSupport

/// The server reading scans: with text recognition configured (`serve --ocr`), the text and
/// search routes, which the viewer's text layer, find and selection read, give a scanned
/// page's words where its picture shows them (``ScannedPages``, whose source has them in the
/// same places); without it, they give none. A server that reads scans when asked reads a
/// document's on a reader's request (`POST .../recognition`), with its progress, and stops
/// when asked.
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

    /// The reading's status as the recognition routes answer it.
    static func reading(_ answer: ServerResponse) -> (state: String, done: Int, count: Int, recognized: Int, available: Bool) {
        let status = answer.json as? [String: Any] ?? [:]
        return (status["state"] as? String ?? "", status["pagesDone"] as? Int ?? -1, status["pageCount"] as? Int ?? -1,
                status["pagesRecognized"] as? Int ?? -1, status["available"] as? Bool ?? false)
    }

    /// Asks for the reading's status until it no longer runs, checking that its progress
    /// only grows; a bound on the number of questions ends a hang, it times nothing.
    static func finished(_ client: ServerClient, _ document: String) async throws -> (state: String, done: Int, count: Int, recognized: Int, available: Bool) {
        var last = -1
        for _ in 0..<6_000 {
            let status = reading(try await client.get(documentPath(document) + "/recognition"))
            #expect(status.done >= last, "progress went back from \(last) to \(status.done)")
            last = status.done
            if status.state != "running" { return status }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the reading never ended")
        return reading(try await client.get(documentPath(document) + "/recognition"))
    }

    /// A server that reads scans only when asked (`serve` without `--ocr`, where Tesseract
    /// is): a scan has no words until a reader asks; five readers asking at once start one
    /// reading (one 202, four 200); its progress grows to every page, and then the text and
    /// search routes give the scan's words.
    @Test func aScanIsReadWhenAReaderAsks() async throws {
        let harness = try harness()
        let recognizer = try TesseractRecognizer()
        try await harness.run(configure: { $0.textRecognitionOnRequest = TextRecognition(recognizer: recognizer) }) { client in
            #expect((try await client.get("/api/health").json as? [String: Any])?["textRecognition"] as? String == "onRequest")
            let idle = Self.reading(try await client.get(documentPath("scan.pdf") + "/recognition"))
            #expect(idle.state == "idle" && idle.available && idle.count == 2 && idle.done == 0, "\(idle)")
            #expect(try await Self.words(client, page: 0).isEmpty, "a scan read before anyone asked")
            let answers = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<5 {
                    group.addTask { Int(try await client.send(.post, documentPath("scan.pdf") + "/recognition", body: Data()).status.code) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.sorted() == [200, 200, 200, 200, 202], "\(answers)")
            let done = try await Self.finished(client, "scan.pdf")
            #expect(done.state == "done" && done.done == 2 && done.recognized == 2, "\(done)")
            #expect(try await Self.words(client, page: 0).contains { $0.text == "Preface" })
            let found = try await client.get(documentPath("scan.pdf") + "/search?q=Venables")
            let hits = String(decoding: found.data, as: UTF8.self).split(separator: "\n")
                .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.filter { $0["quads"] != nil }
            #expect(hits.count == 2, "\(hits)")
            // Asked again when done: answered as it stands, nothing read twice.
            let again = try await client.send(.post, documentPath("scan.pdf") + "/recognition", body: Data())
            #expect(again.status == .ok && Self.reading(again).state == "done")
        }
    }

    /// A reading of 40 scanned pages stopped at once stops after the page it reads (its
    /// progress short of the end) and starts again when asked.
    @Test func aReadingIsStoppedAndStartedAgain() async throws {
        let harness = try harness()
        let pages = Array(repeating: ScannedPages.path, count: 20).flatMap { [$0, "1-2"] }
        let made = try await Tool.run("qpdf", ["--empty", "--pages"] + pages + ["--", harness.docs + "/long-scan.pdf"])
        try #require(made.status == 0, "\(made.stderr)")
        let recognizer = try TesseractRecognizer()
        try await harness.run(configure: { $0.textRecognitionOnRequest = TextRecognition(recognizer: recognizer) }) { client in
            let path = documentPath("long-scan.pdf") + "/recognition"
            #expect(try await client.send(.post, path, body: Data()).status == .accepted)
            let stopped = try await client.execute(uri: path, method: .delete, headers: ServerHarness.authorization)
            #expect(stopped.status == .ok && Self.reading(stopped).state == "cancelled", "\(stopped.json)")
            let after = try await Self.finished(client, "long-scan.pdf")
            #expect(after.state == "cancelled" && after.done < 40 && after.count == 40, "\(after)")
            let restarted = try await client.send(.post, path, body: Data())
            #expect(restarted.status == .accepted && Self.reading(restarted).state == "running", "\(restarted.json)")
            _ = try await client.execute(uri: path, method: .delete, headers: ServerHarness.authorization)
        }
    }

    /// A reading belongs to the file's version: replacing the file while it runs ends it, and
    /// the new file starts with none (its two pages counted, none read).
    @Test func aChangeOfTheFileEndsTheReading() async throws {
        let harness = try harness()
        let pages = Array(repeating: ScannedPages.path, count: 20).flatMap { [$0, "1-2"] }
        let made = try await Tool.run("qpdf", ["--empty", "--pages"] + pages + ["--", harness.docs + "/changing.pdf"])
        try #require(made.status == 0, "\(made.stderr)")
        let recognizer = try TesseractRecognizer()
        try await harness.run(configure: { $0.textRecognitionOnRequest = TextRecognition(recognizer: recognizer) }) { client in
            let path = documentPath("changing.pdf") + "/recognition"
            #expect(try await client.send(.post, path, body: Data()).status == .accepted)
            let replacement = harness.docs + "/replacement.pdf"
            try FileManager.default.copyItem(atPath: ScannedPages.path, toPath: replacement)
            #expect(rename(replacement, harness.docs + "/changing.pdf") == 0)
            let status = Self.reading(try await client.get(path))
            #expect(status.state == "idle" && status.count == 2 && status.recognized == 0, "\(status)")
        }
    }

    /// What an unfriendly or mistaken client gets: a server that reads no scans says so (422
    /// `unsupported`, its status `available: false`), a request without the token 401, a
    /// document it does not serve 404, a stop with nothing running the idle status; no
    /// answer names the server's folder.
    @Test func aServerThatReadsNoScansSaysSo() async throws {
        let harness = try harness()
        try await harness.run { client in
            #expect((try await client.get("/api/health").json as? [String: Any])?["textRecognition"] as? String == "none")
            let path = documentPath("scan.pdf") + "/recognition"
            let status = Self.reading(try await client.get(path))
            #expect(status.state == "idle" && !status.available, "\(status)")
            let refused = try await client.send(.post, path, body: Data())
            #expect(refused.status.code == 422 && refused.errorCode == "unsupported", "\(refused.status) \(refused.json)")
            let anonymous = try await client.execute(uri: path, method: .post)
            #expect(anonymous.status == .unauthorized)
            let unknown = try await client.send(.post, documentPath("nothing.pdf") + "/recognition", body: Data())
            #expect(unknown.status == .notFound)
            let stopped = try await client.execute(uri: path, method: .delete, headers: ServerHarness.authorization)
            #expect(stopped.status == .ok && Self.reading(stopped).state == "idle")
            for answer in [refused, unknown] { #expect(!(answer.errorMessage ?? "").contains(harness.docs)) }
        }
    }
}
