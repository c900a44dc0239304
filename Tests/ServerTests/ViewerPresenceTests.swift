import Foundation
@testable import RendererServer
import Testing
import TestSupport

/// A server that ends with its viewer (`hostapp view`) counts the tabs open from what the
/// pages tell it, which a browser sends on connections of their own: a tab's opened and
/// closed pair by the name it gives, whichever arrives first, each counted once; a name
/// that is not plain is refused before it is counted.
@Suite("Viewer tabs told open and gone")
struct ViewerPresenceTests {
    @Test func aTabIsOpenOnceItsOpenedHasComeAndItsClosedHasNot() async {
        let presence = ViewerPresence(linger: .seconds(1))
        #expect(await !presence.isOpen)
        // A reload: the old page's closed overtook its own opened.
        await presence.closed("old")
        await presence.opened("old")
        #expect(await !presence.isOpen, "an opened after its closed is not counted")
        await presence.opened("new")
        await presence.opened("new")
        #expect(await presence.isOpen)
        await presence.closed("new")
        #expect(await !presence.isOpen, "told twice, counted once")
        await presence.opened("new")
        #expect(await !presence.isOpen, "a late copy of an opened does not reopen the tab")
        // Tabs without a name are counted as told, never below none.
        await presence.closed(nil)
        await presence.opened(nil)
        #expect(await presence.isOpen)
        await presence.closed(nil)
        #expect(await !presence.isOpen)
        // The names of gone tabs kept are bounded: the oldest are forgotten first.
        for i in 0...ViewerPresence.closedNamesKept { await presence.closed("tab-\(i)") }
        await presence.opened("tab-1")
        #expect(await !presence.isOpen)
        await presence.opened("tab-0")
        #expect(await presence.isOpen, "the oldest name went to make room")
    }

    /// On every server, whether it ends with its viewer or not.
    @Test(arguments: [true, false])
    func aTabsNameIsPlainOrRefused(endsWithViewer: Bool) async throws {
        let harness = try ServerHarness()
        try await harness.run(configure: { $0.endsWithViewer = endsWithViewer }) { client in
            for name in ["", "a b", "0.5", "%2E%2E%2F", "é", String(repeating: "a", count: 65), "a;b"] {
                for what in ["opened", "closed"] {
                    let answer = try await client.execute(uri: "/api/viewer/\(what)?tab=\(name)", method: .post, headers: ServerHarness.authorization)
                    #expect(answer.status == .badRequest && answer.errorCode == "bad-request", "\(what) \(name): \(answer.status)")
                    #expect(answer.errorMessage == "tab must be 1 to 64 letters, digits and hyphens", "\(String(describing: answer.errorMessage))")
                }
            }
            for uri in ["/api/viewer/opened?tab=" + String(repeating: "0f", count: 32), "/api/viewer/closed?tab=a-1", "/api/viewer/opened"] {
                let answer = try await client.execute(uri: uri, method: .post, headers: ServerHarness.authorization)
                #expect(answer.status == .noContent, "\(uri): \(answer.status)")
            }
        }
    }
}
