import Foundation
import Testing

/// `Package.swift` declares macOS, whose Foundation is whole: a module of the project may
/// import Foundation's subset (`FoundationEssentials`, lighter to load on Linux) only where
/// the platform has it, under `#if canImport(FoundationEssentials)` with Foundation as the
/// other branch.
@Suite struct PortabilityTests {
    @Test func everyFoundationSubsetImportIsGuarded() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" } ?? []
        #expect(files.count > 100)
        var unguarded: [String] = []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where line.hasSuffix("import FoundationEssentials") {
                let guarded = index > 0 && lines[index - 1] == "#if canImport(FoundationEssentials)"
                    && index + 2 < lines.count && lines[index + 1] == "#else" && lines[index + 2] == "import Foundation"
                if !guarded { unguarded.append("\(file.lastPathComponent):\(index + 1)") }
            }
        }
        #expect(unguarded.isEmpty, "unguarded: \(unguarded)")
    }
}
