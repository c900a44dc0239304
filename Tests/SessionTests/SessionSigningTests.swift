import Foundation
import RendererProvider
import RendererSignatures
import Testing
import TestSupport

/// Signing through a session: the signing setting rules it, the signed file is saved over
/// the session's own (with a save's events, then `signed`), the document goes on from the
/// signed file, and pdfsig and pyHanko find the signature valid.
@Suite struct SessionSigningTests {
    @Test(arguments: Fixtures.backendIDs)
    func aSessionSignsItsFileAndTellsTheHost(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let identity = try SigningIdentity(pkcs12File: identities.path("signer.p12"), password: SigningIdentities.password)
        let recorder = SessionRecorder()
        let (session, copy) = try SessionSettingsTests.open("forms.pdf", backend: backend, delegate: recorder)
        defer { copy.remove() }
        try session.addLink(Link(area: PageRect(x: 72, y: 300, width: 100, height: 20), destination: .uri("https://example.org/")), pageAt: 0)
        #expect(session.canUndo)
        // Unsaved changes are refused: the file is what is signed.
        #expect { try session.sign(with: identity) } throws: { ($0 as? RendererError)?.code == .invalidArgument }
        _ = try session.save()

        let result = try session.sign(with: identity, options: SigningOptions(placement: .newField(name: "Reader", pageIndex: 0, area: PageRect(x: 72, y: 72, width: 200, height: 50)), isVisible: true))
        #expect(result == .saved(path: copy.path))
        #expect(Array(recorder.calls.suffix(3)) == ["willSave", "saved", "signed Reader Ada Signer"])
        #expect(!session.canUndo)
        #expect(try session.signatureFields().map(\.name) == ["Reader"])
        session.close()

        let pdfsig = try await Tool.run("pdfsig", [copy.path]).text
        #expect(pdfsig.contains("Signature Field Name: Reader") && pdfsig.contains("Signature is Valid"), "\(pdfsig)")
        let pyHanko = try await identities.pyHanko(copy.path)
        #expect(pyHanko.map { $0.valid && $0.trusted && $0.coverage == "ENTIRE_FILE" } == [true], "\(pyHanko)")
        // The link added before signing is in the signed revision.
        let links = try await Fixtures.registry.open(.file(copy.path), renderer: .id(backend)).links(pageAt: 0)
        #expect(links.contains { $0.destination == .uri("https://example.org/") })
    }

    /// Where the settings make signing unavailable or switch it off, signing is refused with
    /// the file as it was; a read-only file state refuses it too.
    @Test func theSigningSettingAndReadOnlyFilesRefuseIt() async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let identity = try SigningIdentity(pkcs12File: identities.path("signer.p12"), password: SigningIdentities.password)
        for setting in [FeatureSetting(available: false, enabled: false), FeatureSetting(available: true, enabled: false)] {
            var settings = DocumentSettings()
            settings[.signing] = setting
            let (session, copy) = try SessionSettingsTests.open("forms.pdf", backend: "mupdf", settings: settings)
            defer { copy.remove() }
            let before = try Data(contentsOf: URL(fileURLWithPath: copy.path))
            #expect { try session.sign(with: identity) } throws: { ($0 as? RendererError)?.code == .notPermitted }
            #expect(try Data(contentsOf: URL(fileURLWithPath: copy.path)) == before)
            session.close()
        }
        let (readOnly, copy) = try SessionSettingsTests.open("forms.pdf", backend: "poppler", readOnly: true)
        defer { copy.remove() }
        #expect { try readOnly.sign(with: identity) } throws: { ($0 as? RendererError)?.code == .notPermitted }
        readOnly.close()
    }
}
