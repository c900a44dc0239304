import Foundation
import RendererCollaboration
import RendererProvider
import Testing
import TestSupport

/// The formats fuzz target starts from well-formed collaboration messages: the seeds
/// Tests/Fuzz/make-format-seeds.py writes decode as the messages they stand for.
@Suite struct MessageSeedTests {
    @Test func theSeedsAreWellFormedMessages() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = Fixtures.root.appendingPathComponent("Tests/Fuzz/make-format-seeds.py").path
        #expect(try await Tool.run("python3", [script, folder.path]).status == 0)
        func seed(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }
        let decoder = JSONDecoder()
        let push = try decoder.decode(LayerPush.self, from: seed("push.json"))
        #expect(push.changes.map(\.action) == [.add, .modify, .delete])
        #expect(push.changes.first?.annotation?.inkPaths.first?.count == 2)
        let answer = try decoder.decode(PushResult.self, from: seed("answer.json"))
        #expect(answer.results.map(\.status) == [.applied, .rejected] && answer.results.last?.current?.revision == 3)
        let changes = try decoder.decode(LayerChanges.self, from: seed("changes.json"))
        #expect(changes.added.count == 1 && changes.deleted == ["n2"])
        #expect(try decoder.decode(LayerSnapshot.self, from: seed("snapshot.json")).annotations.first?.annotation.id == "n1")
    }
}
