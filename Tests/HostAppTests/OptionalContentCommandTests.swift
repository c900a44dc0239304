import Foundation
import Testing
import TestSupport

/// Layers on the command line: `hostapp info` lists them, `hostapp render --layers-off /
/// --layers-on` draws with them hidden and shown, by name, on both engines.
@Suite("hostapp and optional content")
struct LayerCommandTests {
    static let file = Fixtures.path("layers.pdf")

    @Test(arguments: Fixtures.backendIDs)
    func infoListsTheLayers(backend: String) async throws {
        let text = try await Tool.run(HostAppTests.executable, ["--renderer", backend, "info", Self.file])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.text.contains("Layers:       4, configurations \"Default view\", \"Everything\""), "\(text.text)")
        #expect(text.text.contains("hidden  Blue") && text.text.contains("shown   L\u{e9}gende"), "\(text.text)")
        let json = try await Tool.run(HostAppTests.executable, ["--renderer", backend, "info", "--json", Self.file])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any])
        let layers = try #require(report["layers"] as? [[String: Any]])
        #expect(layers.compactMap { $0["name"] as? String } == ["Red", "Blue", "L\u{e9}gende", "Orange (not in Order)"])
        #expect(layers.compactMap { $0["isVisibleByDefault"] as? Bool } == [true, false, true, true])
        #expect((report["layerConfigurations"] as? [[String: Any]])?.count == 2)
        let plain = try await Tool.run(HostAppTests.executable, ["--renderer", backend, "info", Fixtures.path("text.pdf")])
        #expect(!plain.text.contains("Layers:"))
    }

    /// --layers-off Red --layers-on Blue: the red rectangle gone, the blue one drawn (pixels at
    /// 36 dpi, as LayerTests places them); a name no layer has is a usage error naming those
    /// there are, and nothing is written.
    @Test(arguments: Fixtures.backendIDs)
    func renderShowsAndHidesLayersByName(backend: String) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("page.pam").path
        let run = try await Tool.run(HostAppTests.executable, [
            "--renderer", backend, "render", Self.file, "-r", "36", "--layers-off", "Red", "--layers-on", "Blue", "-o", output,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let page = try Netpbm(Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(page.color(x: 86, y: 71) == [255, 255, 255], "Red hidden")
        #expect(page.color(x: 86, y: 171) == [0, 0, 255], "Blue shown")
        #expect(page.color(x: 210, y: 71) != [255, 255, 255], "Légende as by default")

        let unknown = try await Tool.run(HostAppTests.executable, ["--renderer", backend, "render", Self.file, "--layers-off", "Green", "-o", output + ".2"])
        #expect(unknown.status == 64 && unknown.stderr.contains("no layer is named \"Green\"") && unknown.stderr.contains("\"Blue\""), "\(unknown.stderr)")
        let both = try await Tool.run(HostAppTests.executable, ["render", Self.file, "--layers-off", "Red", "--layers-on", "Red", "-o", output + ".3"])
        #expect(both.status == 64 && both.stderr.contains("both"), "\(both.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output + ".2") && !FileManager.default.fileExists(atPath: output + ".3"))
    }
}
