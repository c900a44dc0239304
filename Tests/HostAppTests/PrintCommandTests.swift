import Foundation
import RendererProvider
import Testing
import TestSupport

/// `hostapp print` against a real CUPS scheduler on loopback: a job printed and waited for,
/// the settings' and the PDF's refusals (77), and printers that fail (69).
@Suite struct PrintCommandTests {
    func hostapp(_ arguments: [String]) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments)
    }

    @Test func printingWaitsForTheJobAndEachRefusalHasItsExitCode() async throws {
        let cups = try await CUPSServer.start()
        try await cups.addQueue("office", .pdf)
        try await cups.addQueue("raster", .raster)
        let server = ["--server", cups.address]

        let listed = try await hostapp(["print", "--list-printers", "--json"] + server)
        let printers = try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]]
        #expect(printers?.compactMap { $0["name"] as? String }.sorted() == ["office", "raster"], "\(listed.text)")

        let printed = try await hostapp(["print", Fixtures.path("text.pdf"), "--printer", "office", "--pages", "2-N", "--copies", "3", "--duplex", "short", "--wait", "--json"] + server)
        #expect(printed.status == 0, "\(printed.stderr)")
        let lines = printed.text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.first?["pageCount"] as? Int == 2 && lines.last?["state"] as? String == "completed", "\(printed.text)")
        let job = try #require(lines.first?["job"] as? Int)
        let attributes = try await cups.jobAttributes(job)
        #expect(attributes["page-ranges"] == "2-3" && attributes["copies"] == "3" && attributes["sides"] == "two-sided-short-edge", "\(attributes)")

        let raster = try await hostapp(["print", Fixtures.path("mixed-sizes.pdf"), "--printer", "raster", "--gray", "--wait"] + server)
        #expect(raster.status == 0 && raster.text.contains("5 pages as image/pwg-raster") && raster.text.contains("completed"), "\(raster.text) \(raster.stderr)")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("print-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let settings = folder.appendingPathComponent("settings.json").path
        try #"{"printing": false}"#.write(toFile: settings, atomically: true, encoding: .utf8)
        let refused = try await hostapp(["--settings", settings, "print", Fixtures.path("text.pdf"), "--printer", "office"] + server)
        #expect(refused.status == 77 && refused.stderr.contains("printing"), "\(refused.stderr)")
        let forbidden = try await hostapp(["print", Fixtures.path("restricted.pdf"), "--printer", "office"] + server)
        #expect(forbidden.status == 77, "\(forbidden.stderr)")
        let missing = try await hostapp(["print", Fixtures.path("text.pdf"), "--printer", "nowhere"] + server)
        #expect(missing.status == 69 && missing.stderr.contains("no printer named nowhere"), "\(missing.stderr)")
        let notAPage = try await hostapp(["print", Fixtures.path("text.pdf"), "--printer", "office", "--pages", "9"] + server)
        #expect(notAPage.status == 64, "\(notAPage.stderr)")
        // Two jobs went to the printers, and none of the refused ones.
        #expect(try FileManager.default.contentsOfDirectory(atPath: cups.folder + "/spool").filter { $0.hasPrefix("d") }.count == 2)
        cups.stop()
        let gone = try await hostapp(["print", Fixtures.path("text.pdf"), "--printer", "office"] + server)
        #expect(gone.status == 69 && gone.stderr.contains("cannot be reached"), "\(gone.stderr)")
    }
}
