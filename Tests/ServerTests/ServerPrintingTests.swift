import Foundation
import RendererPrinting
import RendererProvider
import Testing
import TestSupport

/// Printing from the viewer through the server, to a real CUPS scheduler on loopback: the
/// printers, a job sent and followed to its end, and what an unfriendly client can send.
@Suite struct ServerPrintingTests {
    static func body(_ object: [String: Any]) throws -> Data { try JSONSerialization.data(withJSONObject: object) }

    @Test func aReaderPrintsFromTheViewerAndFollowsTheJob() async throws {
        let cups = try await CUPSServer.start()
        try await cups.addQueue("office", .pdf)
        let harness = try ServerHarness()
        try await harness.run(configure: { $0.printing = PrintService(server: cups.address) }) { client in
            let printers = try await client.get("/api/printers")
            #expect(((printers.json as? [String: Any])?["printers"] as? [[String: Any]])?.first?["name"] as? String == "office", "\(printers.status)")

            let sent = try await client.send(.post, documentPath("text.pdf") + "/print", body: Self.body(["printer": "office", "pages": [1], "copies": 2]))
            #expect(sent.status == .accepted, "\(sent.status) \(sent.errorMessage ?? "")")
            let job = try #require((sent.json as? [String: Any])?["id"] as? Int)
            #expect((sent.json as? [String: Any])?["documentFormat"] as? String == "application/pdf")
            // Followed as the viewer follows it, until it ends (the server's spool job is quick; a minute at most).
            var state = ""
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, !["completed", "aborted", "canceled"].contains(state) {
                state = ((try await client.get("/api/printers/office/jobs/\(job)").json as? [String: Any])?["state"] as? String) ?? ""
                if state != "completed" { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(state == "completed")
            #expect(try await client.get("/api/printers/elsewhere/jobs/\(job)").status == .notFound, "office's job is not another printer's")
            let attributes = try await cups.jobAttributes(job)
            #expect(attributes["page-ranges"] == "2-2" && attributes["copies"] == "2" && attributes["job-name"] == "text.pdf", "\(attributes)")
            let received = try cups.spooledDocument(job: job)
            #expect(received.starts(with: Data("%PDF-".utf8)))
        }
    }

    @Test func badPrintRequestsAreRefusedAndNothingIsPrinted() async throws {
        let cups = try await CUPSServer.start()
        try await cups.addQueue("office", .pdf)
        let harness = try ServerHarness(extra: ["restricted.pdf"])
        try await harness.run(configure: { $0.printing = PrintService(server: cups.address) }) { client in
            let path = documentPath("text.pdf") + "/print"
            let cases: [(String, Data, Int, String)] = [
                ("no such printer", try Self.body(["printer": "../../etc/passwd"]), 404, "printer-not-found"),
                ("no copies", try Self.body(["printer": "office", "copies": 0]), 422, "invalid-argument"),
                ("a page past the end", try Self.body(["printer": "office", "pages": [99]]), 404, "page-out-of-range"),
                ("a side that is not one", try Self.body(["printer": "office", "sides": "both"]), 400, "bad-request"),
                ("not JSON", Data("<print/>".utf8), 400, "bad-request"),
            ]
            for (name, body, status, code) in cases {
                let answer = try await client.send(.post, path, body: body)
                #expect(answer.status.code == status && answer.errorCode == code, "\(name): \(answer.status) \(answer.errorMessage ?? "")")
                #expect(answer.errorMessage?.contains(harness.folder) != true && answer.errorMessage?.contains(cups.folder) != true, "no path of the server")
            }
            let forbidden = try await client.send(.post, documentPath("restricted.pdf") + "/print", body: Self.body(["printer": "office"]))
            #expect(forbidden.status == .forbidden && forbidden.errorCode == "not-permitted", "\(forbidden.status)")
            let unknownJob = try await client.get("/api/printers/office/jobs/4242")
            #expect(unknownJob.status == .notFound, "\(unknownJob.status)")
            let untokened = try await client.execute(uri: "/api/printers", method: .get, headers: [.authorization: "Bearer wrong"])
            #expect(untokened.status == .unauthorized)
            #expect(try FileManager.default.contentsOfDirectory(atPath: cups.folder + "/spool").filter { $0.hasPrefix("d") }.isEmpty)

            cups.stop()
            let gone = try await client.send(.post, path, body: Self.body(["printer": "office"]))
            #expect(gone.status == .badGateway && gone.errorCode == "printer-unreachable", "\(gone.status)")
            #expect(try await client.get("/api/health").status == .ok, "the server goes on")
        }
        // A server that was not told to print has no printers.
        try await ServerHarness().run { client in
            let printers = try await client.get("/api/printers")
            #expect(printers.status == .notFound && printers.errorCode == "not-found")
            #expect(try await client.send(.post, documentPath("text.pdf") + "/print", body: Self.body([:])).status == .notFound)
        }
    }
}
