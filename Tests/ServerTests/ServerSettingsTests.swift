import Foundation
import HTTPTypes
import RendererProvider
import Testing

/// The server's document settings and each PDF's permissions rule printing and downloads:
/// the document's details say what is allowed, and the server refuses the rest itself.
/// restricted.pdf forbids printing (it opens without a password); encrypted.pdf, opened
/// with its user password, forbids printing too, and its owner password lifts that, for as
/// long as no reader with the user password alone is reading it.
@Suite struct ServerSettingsTests {
    static func allows(_ answer: ServerResponse) -> [String: Bool]? {
        (answer.json as? [String: Any])?["allows"] as? [String: Bool]
    }

    @Test func settingsThatForbidPrintingAndSavingAreEnforcedByTheServer() async throws {
        let harness = try ServerHarness()
        var settings = DocumentSettings()
        settings[.printing] = FeatureSetting(available: false, enabled: false)
        settings[.saveTo] = FeatureSetting(available: false, enabled: false)
        settings[.darkMode] = FeatureSetting(available: false, enabled: false)
        settings[.fullScreen] = FeatureSetting(available: false, enabled: false)
        try await harness.run(configure: { $0.settings = settings }) { client in
            let document = documentPath("text.pdf")
            let details = try await client.get(document)
            #expect(Self.allows(details) == ["printing": false, "download": false, "copying": true, "formFilling": true, "signing": false, "fullScreen": false, "darkMode": false], "\(details.status)")
            let dark = try await client.get(document + "/pages/0/image?dpi=30&dark=true")
            #expect(dark.status == .forbidden && dark.errorCode == "not-permitted", "\(dark.status)")
            let screen = try await client.get(document + "/pages/0/image?dpi=30")
            #expect(screen.status == .ok, "reading stays allowed")
            let print = try await client.get(document + "/pages/0/image?dpi=30&purpose=print")
            #expect(print.status == .forbidden && print.errorCode == "not-permitted", "\(print.status)")
            let file = try await client.get(document + "/file")
            #expect(file.status == .forbidden && file.errorCode == "not-permitted", "\(file.status)")
            #expect(!String(decoding: file.data, as: UTF8.self).contains("%PDF"))
            let ranged = try await client.get(document + "/file", headers: [.range: "bytes=0-99"])
            #expect(ranged.status == .forbidden)
            let unknown = try await client.get(document + "/pages/0/image?dpi=30&purpose=fax")
            #expect(unknown.status == .badRequest)
        }
    }

    @Test func aPDFsOwnPermissionsRulePrintingAndTheOwnerPasswordLiftsThem() async throws {
        let harness = try ServerHarness(extra: ["restricted.pdf", "encrypted.pdf"])
        try await harness.run { client in
            let restricted = documentPath("restricted.pdf")
            #expect(Self.allows(try await client.get(restricted)) == ["printing": false, "download": true, "copying": true, "formFilling": true, "signing": false, "fullScreen": true, "darkMode": true])
            let print = try await client.get(restricted + "/pages/0/image?dpi=30&purpose=print")
            #expect(print.status == .forbidden && print.errorCode == "not-permitted", "\(print.status)")
            #expect(try await client.get(restricted + "/file").status == .ok)
            #expect(Self.allows(try await client.get(documentPath("text.pdf"))) == ["printing": true, "download": true, "copying": true, "formFilling": true, "signing": false, "fullScreen": true, "darkMode": true])
            #expect(try await client.get(documentPath("text.pdf") + "/pages/0/image?dpi=30&purpose=print").status == .ok)

            let body = try JSONSerialization.data(withJSONObject: ["password": "user-secret"])
            let key = try #require((try await client.send(.post, documentPath("encrypted.pdf") + "/unlock", body: body).json as? [String: Any])?["key"] as? String)
            let keyed: HTTPFields = [HTTPField.Name("Document-Key")!: key]
            let encrypted = Self.allows(try await client.get(documentPath("encrypted.pdf"), headers: keyed))
            #expect(encrypted?["printing"] == false && encrypted?["formFilling"] == false && encrypted?["copying"] == false, "\(String(describing: encrypted))")
        }
        // Another server, whose first reader gave the owner password: printing is allowed.
        // Then a reader with the user password comes: the owner's unlock lends that reader
        // nothing, and the documents every reader shares permit what the user's password does.
        try await ServerHarness(extra: ["encrypted.pdf"]).run { client in
            let document = documentPath("encrypted.pdf")
            func key(_ password: String) async throws -> HTTPFields {
                let body = try JSONSerialization.data(withJSONObject: ["password": password])
                let key = try #require((try await client.send(.post, document + "/unlock", body: body).json as? [String: Any])?["key"] as? String)
                return [HTTPField.Name("Document-Key")!: key]
            }
            let owner = try await key("owner-secret")
            #expect(Self.allows(try await client.get(document, headers: owner))?["printing"] == true)
            let print = try await client.get(document + "/pages/0/image?dpi=30&purpose=print", headers: owner)
            #expect(print.status == .ok, "\(print.status) \(print.errorMessage ?? "")")
            let reader = try await key("user-secret")
            for keyed in [reader, owner] {
                #expect(Self.allows(try await client.get(document, headers: keyed))?["printing"] == false)
                let refused = try await client.get(document + "/pages/0/image?dpi=30&purpose=print", headers: keyed)
                #expect(refused.status == .forbidden && refused.errorCode == "not-permitted", "\(refused.status)")
            }
            let note = #"{"kind":"text","pageIndex":0,"rect":{"origin":{"x":10,"y":10},"size":{"width":20,"height":20}},"contents":"x"}"#
            var headers = ServerHarness.authorization + reader
            headers[.contentType] = "application/json"
            let annotated = try await client.execute(uri: document + "/annotations", method: .post, headers: headers, body: Data(note.utf8))
            #expect(annotated.status == .forbidden, "the user password does not permit annotating: \(annotated.status)")
        }
    }
}
