import Foundation
import HTTPTypes
import RendererProvider
import RendererServer
import RendererSignatures
import Testing
import TestSupport

/// `POST .../signatures`: the token's holder signs with the identity the server was given,
/// never one the request names; what a stranger sends is refused with the file untouched;
/// concurrent signers each get their signature, every one valid for pdfsig and pyHanko.
@Suite struct ServerSigningTests {
    static let visible = #"{"page": 0, "rect": {"origin": {"x": 72, "y": 72}, "size": {"width": 200, "height": 50}}, "visible": true, "reason": "Approved"}"#

    static func configure(_ identities: SigningIdentities) throws -> @Sendable (inout ServerConfiguration) -> Void {
        let identity = try SigningIdentity(pkcs12File: identities.path("signer.p12"), password: SigningIdentities.password)
        let anchors = TrustAnchors(pem: try Data(contentsOf: URL(fileURLWithPath: identities.path("ca.pem"))))
        return { configuration in
            configuration.signingIdentity = identity
            configuration.trustAnchors = anchors
        }
    }

    @Test func theServersIdentitySignsAndEveryWitnessAgrees() async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let harness = try ServerHarness(extra: ["signed.pdf"])
        let original = try Data(contentsOf: URL(fileURLWithPath: harness.docs + "/text.pdf"))
        try await harness.run(configure: try Self.configure(identities)) { client in
            let info = try await client.get(documentPath("text.pdf")).json as? [String: Any]
            #expect((info?["allows"] as? [String: Any])?["signing"] as? Bool == true)
            let signed = try await client.send(.post, documentPath("text.pdf") + "/signatures", body: Data(Self.visible.utf8))
            #expect(signed.status == .created, "\(String(decoding: signed.data, as: UTF8.self))")
            let verdicts = try #require(signed.json as? [[String: Any]])
            #expect(verdicts.map { $0["field"] as? String } == ["Signature1"] && verdicts.map { $0["verdict"] as? String } == ["valid"])
            // An existing unsigned field, invisible; the fixture's own signature stays intact.
            let field = try await client.send(.post, documentPath("signed.pdf") + "/signatures", body: Data(#"{"field": "Review.Witness"}"#.utf8))
            let fieldVerdicts = try #require(field.json as? [[String: Any]])
            #expect(field.status == .created && fieldVerdicts.map { $0["verdict"] as? String } == ["unknown", "valid"], "\(fieldVerdicts)")
        }
        let path = harness.docs + "/text.pdf"
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(original.count) == original)
        let pdfsig = try await Tool.run("pdfsig", [path]).text
        #expect(pdfsig.contains("Signer Certificate Common Name: Ada Signer") && pdfsig.contains("Signature is Valid"), "\(pdfsig)")
        #expect(try await identities.pyHanko(path).map { $0.valid && $0.trusted && $0.coverage == "ENTIRE_FILE" } == [true])
        #expect(try await Tool.run("pdftotext", [path, "-"]).text.contains("Digitally signed by Ada Signer"))
    }

    /// A collaborator signs with the identity the server names for the token's user, and only
    /// with a token that grants `sign`; a user without an identity, a token without the grant,
    /// no token and the server's own token are refused, and nothing in the body picks another
    /// identity.
    @Test func aCollaboratorSignsWithTheIdentityTheServerNamesForThem() async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let harness = try ServerHarness()
        let keys = CollaborationServerTests.Keys()
        var collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        collaboration.signingIdentities = ["ada": try SigningIdentity(pkcs12File: identities.path("signer.p12"), password: SigningIdentities.password)]
        let anchors = TrustAnchors(pem: try Data(contentsOf: URL(fileURLWithPath: identities.path("ca.pem"))))
        let configured = collaboration
        let path = CollaborationServerTests.layerPath("docs/text.pdf", "review") + "/signatures"
        let signing = ["read-document", "write", "sign"]
        let tokens = (
            ada: try await keys.token("ada", document: "docs/text.pdf", permissions: signing),
            noGrant: try await keys.token("ada", document: "docs/text.pdf"),
            bob: try await keys.token("bob", document: "docs/text.pdf", permissions: signing))
        let original = try Data(contentsOf: URL(fileURLWithPath: harness.docs + "/text.pdf"))
        try await harness.run(configure: { $0.collaboration = configured; $0.trustAnchors = anchors }) { client in
            let body = Data(#"{"page": 0, "identity": "bob", "pkcs12": "AAAA"}"#.utf8)
            func post(_ token: String?) async throws -> ServerResponse {
                var headers: HTTPFields = [.contentType: "application/json"]
                if let token { headers[.authorization] = "Bearer \(token)" }
                return try await client.execute(uri: path, method: .post, headers: headers, body: body)
            }
            #expect(try await post(tokens.noGrant).status == .forbidden)
            #expect(try await post(tokens.bob).status == .forbidden)
            #expect(try await post(nil).status == .unauthorized)
            #expect(try await post(ServerHarness.token).status == .unauthorized)
            let signed = try await post(tokens.ada)
            let verdicts = try #require(signed.json as? [[String: Any]])
            #expect(signed.status == .created && verdicts.map { $0["verdict"] as? String } == ["valid"], "\(String(decoding: signed.data, as: UTF8.self))")
            #expect((verdicts.first?["signer"] as? String)?.contains("CN=Ada Signer") == true)
        }
        let path2 = harness.docs + "/text.pdf"
        #expect(try Data(contentsOf: URL(fileURLWithPath: path2)).prefix(original.count) == original)
        #expect(try await identities.pyHanko(path2).map { $0.valid && $0.trusted } == [true])
    }

    /// Several signers at once on one file: each is acknowledged, each signature is in the
    /// file and valid, and only the last covers the whole file.
    @Test func concurrentSignaturesAreEachKept() async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let harness = try ServerHarness()
        let statuses = try await harness.run(configure: try Self.configure(identities)) { client in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask { Int(try await client.send(.post, documentPath("text.pdf") + "/signatures", body: Data(#"{"page": 1}"#.utf8)).status.code) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(statuses == [201, 201, 201, 201])
        let path = harness.docs + "/text.pdf"
        let pyHanko = try await identities.pyHanko(path)
        #expect(Set(pyHanko.map(\.field)) == ["Signature1", "Signature2", "Signature3", "Signature4"])
        #expect(pyHanko.allSatisfy { $0.valid && $0.trusted }, "\(pyHanko)")
        #expect(pyHanko.map(\.coverage) == ["ENTIRE_REVISION", "ENTIRE_REVISION", "ENTIRE_REVISION", "ENTIRE_FILE"])
        #expect(try await Tool.run("pdfsig", [path]).text.components(separatedBy: "Signature is Valid").count == 5)
    }

    /// What an unfriendly client sends: no field or two, a field that is not there, a page
    /// past the end, an unknown certification, text that is too long, not JSON; and servers
    /// that may not sign (no identity, read-only, signing switched off). Each is refused with
    /// a JSON error that names no server path, and the file stays as it was.
    @Test func refusedRequestsChangeNothing() async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let harness = try ServerHarness()
        let path = harness.docs + "/text.pdf"
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let bodies: [(String, Int)] = [
            ("{}", 400), (#"{"field": "A", "page": 0}"#, 400), (#"{"field": "Nowhere"}"#, 422), (#"{"page": 99}"#, 404),
            (#"{"page": 0, "certify": "everything"}"#, 400), (#"{"page": 0, "reason": "\#(String(repeating: "x", count: 1001))"}"#, 400),
            (#"{"page": 0, "visible": true}"#, 422), ("not json", 400), (#"{"page": "one"}"#, 400),
        ]
        let folder = harness.folder
        try await harness.run(configure: try Self.configure(identities)) { client in
            for (body, status) in bodies {
                let answer = try await client.send(.post, documentPath("text.pdf") + "/signatures", body: Data(body.utf8))
                #expect(Int(answer.status.code) == status && answer.errorCode != nil, "\(body.prefix(60)): \(answer.status)")
                #expect(!String(decoding: answer.data, as: UTF8.self).contains(folder))
            }
        }
        try await harness.run { client in
            let answer = try await client.send(.post, documentPath("text.pdf") + "/signatures", body: Data(#"{"page": 0}"#.utf8))
            #expect(answer.status == .forbidden)
            let info = try await client.get(documentPath("text.pdf")).json as? [String: Any]
            #expect((info?["allows"] as? [String: Any])?["signing"] as? Bool == false)
        }
        let configure = try Self.configure(identities)
        try await harness.run(configure: { configure(&$0); $0.allowsEditing = false }) { client in
            let answer = try await client.send(.post, documentPath("text.pdf") + "/signatures", body: Data(#"{"page": 0}"#.utf8))
            #expect(answer.status == .forbidden)
        }
        var settings = DocumentSettings()
        settings[.signing] = FeatureSetting(available: true, enabled: false)
        try await harness.run(configure: { [settings] in configure(&$0); $0.settings = settings }) { client in
            let answer = try await client.send(.post, documentPath("text.pdf") + "/signatures", body: Data(#"{"page": 0}"#.utf8))
            #expect(answer.status == .forbidden)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    }
}
