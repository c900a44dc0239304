import Foundation
import RendererProvider
import RendererProviderMetadata
import Testing
import TestSupport

/// Every setting refused and allowed on both engines, combined with the PDF's own
/// permissions; the expiry date on an injected clock; dark mode checked pixel by pixel.
@Suite("Session settings and permissions, on every backend")
struct SessionSettingsTests {
    static let note = Annotation(kind: .square, pageIndex: 0, rect: PageRect(x: 72, y: 72, width: 100, height: 50))

    static func open(
        _ fixture: String, backend: String, settings: DocumentSettings = DocumentSettings(), password: String? = nil,
        readOnly: Bool = false, clock: @escaping @Sendable () -> Date = { Date() }, delegate: SessionRecorder? = nil
    ) throws -> (ReadingSession, WorkingCopy) {
        let copy = try WorkingCopy(fixture)
        let session = ReadingSession(
            file: FileState(internalPath: copy.path, isReadOnly: readOnly), registry: Fixtures.registry,
            configuration: SessionConfiguration(password: password, renderer: .id(backend), settings: settings, clock: clock), delegate: delegate)
        try session.open()
        return (session, copy)
    }

    /// Runs each feature's operation with the feature allowed (it succeeds) and then with
    /// the feature unavailable, then available but disabled (each refused, naming it).
    @Test(arguments: Fixtures.backendIDs)
    func everySettingIsEnforced(backend: String) throws {
        let output = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let operations: [(SessionFeature, (ReadingSession) throws -> Void)] = [
            (.annotations, { _ = try $0.addAnnotation(Self.note) }),
            (.save, { _ = try $0.save() }),
            (.saveTo, { _ = try $0.save(to: output.appendingPathComponent("copy.pdf").path) }),
            (.printing, { try $0.exportPage(at: 0, options: RenderOptions(dpi: 10), as: .png, to: output.appendingPathComponent("page.png").path) }),
            (.redaction, { _ = try $0.markRedaction(Self.note.rect, onPageAt: 0) }),
            (.editing, { try $0.setMetadata(DocumentMetadata(title: "Edited in a session")) }), (.formFilling, { try $0.fillForm([:]) }),
            (.signing, { try $0.check(.signing) }), (.fullScreen, { try $0.setEnabled(true, for: .fullScreen) }),
            (.darkMode, { _ = try $0.render(pageAt: 0, options: RenderOptions(dpi: 10, darkMode: true)) }),
            (.securePrinting, { try $0.setEnabled(true, for: .securePrinting) }),
            (.copying, { _ = try $0.withCopyableDocument { try $0.structuredText(pages: [0]) } }),
        ]
        #expect(Set(operations.map(\.0)) == Set(SessionFeature.allCases))
        for (feature, operation) in operations {
            let (allowed, allowedCopy) = try Self.open("colors.pdf", backend: backend)
            if feature == .redaction && backend == "poppler" {
                // Poppler cannot redact: allowed by the settings, the engine still says unsupported.
                #expect((#expect(throws: RendererError.self) { try operation(allowed) })?.code == .unsupported)
            } else {
                try operation(allowed)
            }
            allowed.close()
            allowedCopy.remove()
            for setting in [FeatureSetting(available: false, enabled: false), FeatureSetting(available: false, enabled: true)]
                + ([.fullScreen, .darkMode, .securePrinting].contains(feature) ? [] : [FeatureSetting(available: true, enabled: false)]) {
                var settings = DocumentSettings()
                settings[feature] = setting
                let (refused, refusedCopy) = try Self.open("colors.pdf", backend: backend, settings: settings)
                let error = #expect(throws: RendererError.self, "\(feature) with \(setting)") { try operation(refused) }
                #expect(error?.code == .notPermitted)
                #expect(error?.message.contains("setting \(feature.rawValue)") == true, "\(error?.message ?? "")")
                refused.close()
                refusedCopy.remove()
            }
        }
    }

    @Test(arguments: Fixtures.backendIDs)
    func disableAllRefusesEveryActionAndEnableAllAllowsIt(backend: String) throws {
        var settings = DocumentSettings()
        settings.disableAll()
        let (session, copy) = try Self.open("colors.pdf", backend: backend, settings: settings)
        defer { session.close(); copy.remove() }
        for feature in SessionFeature.allCases {
            #expect((#expect(throws: RendererError.self) { try session.check(feature) })?.code == .notPermitted)
        }
        settings.enableAll()
        #expect(SessionFeature.allCases.allSatisfy(settings.permits))
    }

    /// encrypted.pdf allows only extraction for accessibility to its user: annotating and
    /// printing are refused whatever the settings say; its owner password lifts that, and
    /// not the settings. restricted.pdf forbids printing only.
    @Test(arguments: Fixtures.backendIDs)
    func thePDFsPermissionsAreCombinedWithTheSettings(backend: String) throws {
        let (user, userCopy) = try Self.open("encrypted.pdf", backend: backend, password: "user-secret")
        for feature in [SessionFeature.annotations, .printing, .editing, .formFilling, .copying] {
            let error = #expect(throws: RendererError.self) { try user.check(feature) }
            #expect(error?.code == .notPermitted && error?.message.contains("PDF's own permissions") == true, "\(feature)")
        }
        #expect((#expect(throws: RendererError.self) { try user.addAnnotation(Self.note) })?.code == .notPermitted)
        try user.check(.save)
        user.close()
        userCopy.remove()

        let (owner, ownerCopy) = try Self.open("encrypted.pdf", backend: backend, password: "owner-secret")
        try owner.addAnnotation(Self.note)
        try owner.check(.printing)
        owner.close()
        ownerCopy.remove()

        var settings = DocumentSettings()
        settings[.annotations].available = false
        let (ownerRestricted, restrictedCopy) = try Self.open("encrypted.pdf", backend: backend, settings: settings, password: "owner-secret")
        let error = #expect(throws: RendererError.self) { try ownerRestricted.addAnnotation(Self.note) }
        #expect(error?.message.contains("setting annotations") == true, "the owner password lifts only the PDF's permissions")
        ownerRestricted.close()
        restrictedCopy.remove()

        let (restricted, copy) = try Self.open("restricted.pdf", backend: backend)
        #expect((#expect(throws: RendererError.self) { try restricted.check(.printing) })?.code == .notPermitted)
        try restricted.addAnnotation(Self.note)
        restricted.close()
        copy.remove()
    }

    @Test(arguments: Fixtures.backendIDs)
    func anExpiredDocumentOpensOnlyWhenTheHostAllowsIt(backend: String) throws {
        let expiry = Date(timeIntervalSince1970: 1_900_000_000)
        let settings = DocumentSettings(expiryDate: expiry)
        let (before, beforeCopy) = try Self.open("text.pdf", backend: backend, settings: settings, clock: { expiry.addingTimeInterval(-1) })
        before.close()
        beforeCopy.remove()

        let recorder = SessionRecorder()
        let error = #expect(throws: RendererError.self) {
            _ = try Self.open("text.pdf", backend: backend, settings: settings, clock: { expiry }, delegate: recorder)
        }
        #expect(error?.code == .expired)
        #expect(recorder.calls == ["shouldOpenExpired", "loadFailed expired"])

        let allowing = SessionRecorder()
        allowing.allowExpiredDocuments()
        let (late, lateCopy) = try Self.open("text.pdf", backend: backend, settings: settings, clock: { expiry.addingTimeInterval(86_400) }, delegate: allowing)
        #expect(allowing.calls == ["shouldOpenExpired", "firstPageLoaded 0", "documentShown 0"])
        late.close()
        lateCopy.remove()
    }

    /// Dark mode inverts lightness and keeps hue: each channel becomes c + 255 - max - min
    /// of the normal render's pixel, so white paper turns black and pure red stays red.
    @Test(arguments: Fixtures.backendIDs)
    func darkModeInvertsLightnessAndKeepsHue(backend: String) throws {
        var settings = DocumentSettings()
        settings[.darkMode] = FeatureSetting(available: true, enabled: false)
        let (session, copy) = try Self.open("colors.pdf", backend: backend, settings: settings)
        defer { session.close(); copy.remove() }
        let normal = try session.render(pageAt: 0, options: RenderOptions(dpi: 36))
        try session.setEnabled(true, for: .darkMode)
        let dark = try session.render(pageAt: 0, options: RenderOptions(dpi: 36))
        #expect((dark.width, dark.height) == (normal.width, normal.height))
        var mismatches = 0
        for i in stride(from: 0, to: normal.bytes.count, by: 3) {
            let (r, g, b) = (Int(normal.bytes[i]), Int(normal.bytes[i + 1]), Int(normal.bytes[i + 2]))
            let shift = 255 - max(r, g, b) - min(r, g, b)
            if [r + shift, g + shift, b + shift] != [Int(dark.bytes[i]), Int(dark.bytes[i + 1]), Int(dark.bytes[i + 2])] { mismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(dark.pixel(x: 1, y: 1) == [0, 0, 0], "white paper turns black")
        let red = PagePoint(x: 144, y: 144), black = PagePoint(x: 144, y: 360)
        #expect(dark.pixel(x: Int(red.x / 2), y: Int(red.y / 2)) == [255, 0, 0], "pure red keeps its hue and lightness")
        #expect(dark.pixel(x: Int(black.x / 2), y: Int(black.y / 2)) == [255, 255, 255], "black turns white")
        let gray = try session.render(pageAt: 0, options: RenderOptions(dpi: 36, pixelFormat: .gray, darkMode: false))
        let grayNormal = try Fixtures.registry.open(.file(copy.path), renderer: .id(backend)).render(pageAt: 0, options: RenderOptions(dpi: 36, pixelFormat: .gray))
        #expect(gray.bytes == grayNormal.bytes.map { 255 - $0 }, "the session's dark mode is on, so gray pages are inverted too")
    }

    @Test func settingsFilesAreReadStrictly() throws {
        let settings = try DocumentSettings.fromJSON(Data(#"{"save": false, "darkMode": {"enabled": true}, "expiryDate": "2027-01-01T00:00:00Z"}"#.utf8))
        #expect(settings[.save] == FeatureSetting(available: false, enabled: false))
        #expect(settings[.darkMode] == FeatureSetting(available: true, enabled: true))
        #expect(settings.expiryDate == Date(timeIntervalSince1970: 1_798_761_600))
        #expect(try DocumentSettings.fromJSON(JSONEncoder().encode(settings)) == settings)
        let bad = [
            (#"{"sav": true}"#, "unknown setting \"sav\""),
            (#"{"save": "yes"}"#, "save"),
            (#"{"save": {"available": 1, "colour": true}}"#, "save"),
            (#"{"expiryDate": "tomorrow"}"#, "expiryDate"),
            (#"[1, 2]"#, "not valid"),
            ("not json", "not"),
        ]
        for (json, mention) in bad {
            let error = #expect(throws: RendererError.self, "\(json)") { try DocumentSettings.fromJSON(Data(json.utf8)) }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message.contains(mention) == true, "\(json): \(error?.message ?? "")")
        }
    }
}
