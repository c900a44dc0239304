import Foundation
import HTTPTypes
import RendererProvider
import RendererServer
import Testing
import TestSupport

/// Writers racing on the real server: every annotation answered 201 is in the file
/// afterwards, whatever else happens at the same time (another client's edits, readers of it
/// and of other files that evict it from the open ones, a command-line editor of the same
/// file), and a request that fails validation saves nothing.
@Suite struct ServerWriterTests {
    static func note(_ text: String, x: Int) -> Data {
        Data(#"{"kind": "Text", "pageIndex": 0, "contents": "\#(text)", "rect": {"origin": {"x": \#(x), "y": 20}, "size": {"width": 16, "height": 16}}}"#.utf8)
    }

    @Test(arguments: ["mupdf", "poppler"])
    func everyAcknowledgedEditIsInTheFile(engine: String) async throws {
        let harness = try ServerHarness()
        let file = harness.docs + "/text.pdf"
        // Two files open at most: readers of other files evict the one being written meanwhile.
        let acknowledged = try await harness.run(configure: { $0.renderer = .id(engine); $0.openFileLimit = 2 }) { client -> Set<String> in
            try await withThrowingTaskGroup(of: String?.self) { group in
                // Two viewers posting 25 notes each, at once.
                for writer in 0..<2 {
                    group.addTask {
                        var mine: [String] = []
                        for index in 0..<25 {
                            let name = "w\(writer)-\(index)"
                            let answer = try await client.send(.post, documentPath("text.pdf") + "/annotations", body: Self.note(name, x: 10 + index * 20))
                            if answer.status == .created { mine.append(name) } else { #expect(answer.status.code < 500, "\(answer.status) \(answer.errorMessage ?? "")") }
                        }
                        return mine.joined(separator: ",")
                    }
                }
                // Readers of the same file, and of three others, meanwhile.
                group.addTask {
                    for page in 0..<20 {
                        let answer = try await client.get(documentPath("text.pdf") + "/pages/\(page % 3)/image?dpi=36")
                        #expect(answer.status == .ok, "\(answer.status) \(answer.errorMessage ?? "")")
                        _ = try await client.get(documentPath("text.pdf") + "/annotations")
                        let other = ["long.pdf", "labels.pdf", "search.pdf"][page % 3]
                        #expect(try await client.get(documentPath(other) + "/bookmarks").status == .ok)
                    }
                    return nil
                }
                // A command-line editor of the same file, through the same write lock.
                group.addTask {
                    let added = try? await Tool.run(IsolatedServerTests.hostapp, [
                        "--renderer", engine, "annotations", "add", file, "--page", "2", "--kind", "text", "--rect", "50,50,16,16", "--contents", "cli",
                    ])
                    let status = added?.status ?? -1
                    #expect(status == 0)
                    return status == 0 ? "cli" : nil
                }
                var all = Set<String>()
                for try await names in group { names?.split(separator: ",").forEach { all.insert(String($0)) } }
                return all
            }
        }
        #expect(acknowledged.count == 51)
        // What the file holds, read by both engines.
        for reader in ["mupdf", "poppler"] {
            let kept = Set(try await Fixtures.registry.open(.file(file), renderer: .id(reader)).annotations().compactMap(\.contents))
            #expect(acknowledged.isSubset(of: kept), "\(reader) misses \(acknowledged.subtracting(kept).sorted())")
        }
        #expect(try await Tool.run("qpdf", ["--check", file]).status == 0)
    }

    @Test func anAnnotationPastTheLimitsIsRefusedBeforeAnythingIsSaved() async throws {
        let harness = try ServerHarness()
        let file = harness.docs + "/text.pdf"
        let original = try Data(contentsOf: URL(fileURLWithPath: file))
        try await harness.run { client in
            let far = Data(#"{"kind": "Square", "pageIndex": 0, "rect": {"origin": {"x": 1e300, "y": 0}, "size": {"width": 10, "height": 10}}}"#.utf8)
            let points = (0..<120_000).map { #"{"x": \#($0 % 500), "y": 10}"# }.joined(separator: ",")
            let ink = Data(#"{"kind": "Ink", "pageIndex": 0, "rect": {"origin": {"x": 0, "y": 0}, "size": {"width": 500, "height": 20}}, "inkPaths": [[\#(points)]]}"#.utf8)
            let long = Self.note(String(repeating: "x", count: 70_000), x: 10)
            for body in [far, ink, long] {
                let answer = try await client.send(.post, documentPath("text.pdf") + "/annotations", body: body)
                #expect(answer.status == .unprocessableContent && answer.errorCode == "invalid-argument", "\(answer.status) \(answer.errorMessage ?? "")")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == original)
    }
}
