import Foundation
import RendererProvider
import Testing
import TestSupport

/// Form filling through a session: the host is told which fields changed, and of nothing
/// when a fill is refused.
@Suite struct SessionFormTests {
    @Test(arguments: Fixtures.backendIDs)
    func changedFieldsAreTold(backend: String) throws {
        let recorder = SessionRecorder()
        let (session, copy) = try SessionSettingsTests.open("forms.pdf", backend: backend, delegate: recorder)
        defer { copy.remove() }
        let changed = try session.fillForm(["name": ["Ada Lovelace"], "size": ["L"], "colors": ["green"]])
        #expect(changed.map(\.name) == ["size", "colors"], "name held that value already")
        #expect(recorder.calls.last == "formChanged size,colors")
        let count = recorder.calls.count
        #expect(throws: RendererError.self) { try session.fillForm(["size": ["XXL"]]) }
        #expect(recorder.calls.count == count, "a refused fill tells nothing")
        #expect(try session.resetForm(fields: ["size"]).map(\.name) == ["size"])
        #expect(recorder.calls.last == "formChanged size")
        let values = try session.formValues()
        #expect(values["colors"]?.values == ["green"] && values["size"]?.values == ["Off"], "size has no default")
        _ = try session.save()
        session.close()
        let reopened = try Fixtures.registry.open(.file(copy.path), renderer: .id(backend))
        #expect(try reopened.formValues().dictionary == values.dictionary)
    }
}
