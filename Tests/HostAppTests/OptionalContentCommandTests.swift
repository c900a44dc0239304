import Foundation
import Testing
import TestSupport

/// Optional content on the command line: `hostapp info` lists the groups (as layers),
/// `hostapp render --optional-content-off / --optional-content-on` draws with them hidden and
/// shown, by name, on both engines; the former names (`--layers-off`, `--layers-on`, `layers`
/// and `layerConfigurations` in the JSON) still work in this release.
@Suite("hostapp and optional content")
struct OptionalContentCommandTests {
    static let file = Fixtures.path("layers.pdf")

    @Test(arguments: Fixtures.backendIDs)
    func infoListsTheGroups(backend: String) async throws {
        let text = try await Tool.run(HostAppTests.executable, ["--renderer", backend, "info", Self.file])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.text.contains("Layers:       4, configurations \"Default view\", \"Everything\""), "\(text.text)")
        #expect(text.text.contains("hidden  Blue") && text.text.contains("shown   L\u{e9}gende"), "\(text.text)")
        let json = try await Tool.run(HostAppTests.executable, ["--renderer", backend, "info", "--json", Self.file])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any])
        let groups = try #require(report["optionalContentGroups"] as? [[String: Any]])
        #expect(groups.compactMap { $0["name"] as? String } == ["Red", "Blue", "L\u{e9}gende", "Orange (not in Order)"])
        #expect(groups.compactMap { $0["isVisibleByDefault"] as? Bool } == [true, false, true, true])
        #expect((report["optionalContentConfigurations"] as? [[String: Any]])?.count == 2)
        // The former names, written beside for this release.
        #expect((report["layers"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == groups.compactMap { $0["name"] as? String })
        #expect((report["layerConfigurations"] as? [[String: Any]])?.count == 2)
        let plain = try await Tool.run(HostAppTests.executable, ["--renderer", backend, "info", Fixtures.path("text.pdf")])
        #expect(!plain.text.contains("Layers:"))
    }

    /// --optional-content-off Red --optional-content-on Blue: the red rectangle gone, the blue
    /// one drawn (pixels at 36 dpi, as OptionalContentTests places them), and the same through
    /// the former names; a name no group has is a usage error naming those there are, and
    /// nothing is written.
    @Test(arguments: Fixtures.backendIDs)
    func renderShowsAndHidesGroupsByName(backend: String) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("page.pam").path
        let run = try await Tool.run(HostAppTests.executable, [
            "--renderer", backend, "render", Self.file, "-r", "36", "--optional-content-off", "Red", "--optional-content-on", "Blue", "-o", output,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let page = try Netpbm(Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(page.color(x: 86, y: 71) == [255, 255, 255], "Red hidden")
        #expect(page.color(x: 86, y: 171) == [0, 0, 255], "Blue shown")
        #expect(page.color(x: 210, y: 71) != [255, 255, 255], "Légende as by default")
        let former = folder.appendingPathComponent("former.pam").path
        let formerRun = try await Tool.run(HostAppTests.executable, [
            "--renderer", backend, "render", Self.file, "-r", "36", "--layers-off", "Red", "--layers-on", "Blue", "-o", former,
        ])
        #expect(formerRun.status == 0, "\(formerRun.stderr)")
        #expect(try Netpbm(Data(contentsOf: URL(fileURLWithPath: former))) == page, "the former names draw the same")

        let unknown = try await Tool.run(
            HostAppTests.executable, ["--renderer", backend, "render", Self.file, "--optional-content-off", "Green", "-o", output + ".2"])
        #expect(
            unknown.status == 64 && unknown.stderr.contains("no optional-content group is named \"Green\"") && unknown.stderr.contains("\"Blue\""),
            "\(unknown.stderr)")
        let both = try await Tool.run(
            HostAppTests.executable, ["render", Self.file, "--optional-content-off", "Red", "--optional-content-on", "Red", "-o", output + ".3"])
        #expect(both.status == 64 && both.stderr.contains("both"), "\(both.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output + ".2") && !FileManager.default.fileExists(atPath: output + ".3"))
    }
}
