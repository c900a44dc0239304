import Foundation
import RendererCollaboration
import RendererProvider
import Testing
import TestSupport

/// Collaboration tokens: signed and checked here, and against independent witnesses
/// (`openssl` makes the RSA key, Python's `cryptography` signs and verifies JWTs by the
/// standard), so that tokens from an application's own backend verify here and ours there.
@Suite struct TokenTests {
    static let witness = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("jwt_witness.py").path
    static let descriptor = try! DocumentDescriptor(documentID: "manual-2026", layer: "review")

    /// A scratch folder for keys, removed with the value.
    final class Keys {
        let folder = try! Tool.temporaryDirectory()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        func write(_ text: String, _ name: String) throws -> String {
            try text.write(toFile: path(name), atomically: true, encoding: .utf8)
            return path(name)
        }
        deinit { try? FileManager.default.removeItem(at: folder) }
    }

    static func claims(user: String = "alice", permissions: [String] = ["read-document", "write"], expires: TimeInterval = 86_400) -> CollaborationClaims {
        CollaborationClaims(user: user, descriptor: descriptor, group: "editors", permissions: permissions, expires: Date().addingTimeInterval(expires))
    }

    @Test func es256TokensRoundTripAndVerifyByTheStandard() async throws {
        let keys = Keys()
        let privatePEM = CollaborationTokens.makePrivateKeyPEM()
        let publicPEM = try CollaborationTokens.publicKeyPEM(ofPrivateKey: privatePEM)
        let issuer = try await CollaborationTokens(pem: privatePEM)
        let verifier = try await CollaborationTokens(pem: publicPEM)
        #expect(issuer.canSign && !verifier.canSign && verifier.algorithm == "ES256")

        let token = try await issuer.issue(Self.claims())
        let claims = try await verifier.verify(token, for: Self.descriptor)
        #expect(claims.userID == "alice" && claims.group == "editors" && claims.permissions == ["read-document", "write"])
        #expect(claims.collaborationPermissions.canAnnotate && !claims.collaborationPermissions.canEditAll)

        // Python's cryptography verifies our token, and signs one that we verify.
        let checked = try await Tool.run("python3", [Self.witness, "verify", try keys.write(publicPEM, "public.pem"), token])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect((try JSONSerialization.jsonObject(with: checked.stdout) as? [String: Any])?["sub"] as? String == "alice")
        let payload = #"{"sub": "bob", "doc": "manual-2026", "layer": "review", "permissions": ["read-document"], "exp": \#(Int(Date().timeIntervalSince1970) + 600), "iat": \#(Int(Date().timeIntervalSince1970))}"#
        let foreign = try await Tool.run("python3", [Self.witness, "sign", try keys.write(privatePEM, "private.pem"), payload]).text
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let theirs = try await verifier.verify(foreign, for: Self.descriptor)
        #expect(theirs.userID == "bob" && !theirs.collaborationPermissions.canAnnotate)
    }

    @Test func rs256KeysFromOpenSSLWork() async throws {
        let keys = Keys()
        let privatePath = keys.path("rsa.pem"), publicPath = keys.path("rsa.pub")
        #expect(try await Tool.run("openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", privatePath]).status == 0)
        #expect(try await Tool.run("openssl", ["pkey", "-in", privatePath, "-pubout", "-out", publicPath]).status == 0)
        let issuer = try await CollaborationTokens(pem: try String(contentsOfFile: privatePath, encoding: .utf8))
        let verifier = try await CollaborationTokens(pem: try String(contentsOfFile: publicPath, encoding: .utf8))
        #expect(verifier.algorithm == "RS256")
        let token = try await issuer.issue(Self.claims(user: "carol"))
        #expect(try await verifier.verify(token).userID == "carol")
        #expect(try await Tool.run("python3", [Self.witness, "verify", publicPath, token]).status == 0)
    }

    @Test func refusedTokensSayWhyAndNeverEchoTheToken() async throws {
        let issuer = try await CollaborationTokens(pem: CollaborationTokens.makePrivateKeyPEM())
        let verifier = try await CollaborationTokens(pem: try CollaborationTokens.publicKeyPEM(ofPrivateKey: CollaborationTokens.makePrivateKeyPEM()))

        // Signed with another key.
        let foreign = try await issuer.issue(Self.claims())
        await #expect(throws: TokenError.self) { try await verifier.verify(foreign) }
        do {
            _ = try await verifier.verify(foreign)
        } catch {
            #expect(error.kind == .badSignature && !error.message.contains(foreign))
        }

        // Expired, and for another layer.
        let same = try await CollaborationTokens(pem: CollaborationTokens.makePrivateKeyPEM())
        let expired = try await same.issue(Self.claims(expires: -5))
        #expect(await Self.kind(of: expired, by: same) == .expired)
        let otherLayer = try DocumentDescriptor(documentID: "manual-2026", layer: "public")
        let token = try await same.issue(Self.claims())
        do {
            _ = try await same.verify(token, for: otherLayer)
            Issue.record("a token for another layer was accepted")
        } catch {
            #expect(error.kind == .mismatch)
        }

        // HS256 with any secret, "none", and what is not a token at all.
        let secret = try await CollaborationTokens(sharedSecret: Data(repeating: 7, count: 32))
        let hs256 = try await secret.issue(Self.claims())
        do {
            _ = try await same.verify(hs256)
            Issue.record("an HS256 token was accepted by an ES256 key")
        } catch {
            #expect(error.kind == .badSignature, "\(error)")
        }
        let header = Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        let body = hs256.split(separator: ".")[1]
        #expect(await Self.kind(of: "\(header).\(body).", by: same) != nil)
        for garbage in ["", "abc", "a.b.c", String(repeating: "x", count: 10_000)] {
            #expect(await Self.kind(of: garbage, by: same) != nil, "\(garbage.prefix(10))")
        }
        await #expect(throws: RendererError.self) { try await CollaborationTokens(sharedSecret: Data("short".utf8)) }
        await #expect(throws: RendererError.self) { try await CollaborationTokens(pem: "-----BEGIN PUBLIC KEY-----\nnot a key\n-----END PUBLIC KEY-----") }
        let publicOnly = try await CollaborationTokens(pem: try CollaborationTokens.publicKeyPEM(ofPrivateKey: CollaborationTokens.makePrivateKeyPEM()))
        await #expect(throws: RendererError.self) { try await publicOnly.issue(Self.claims()) }
    }

    @Test func descriptorsKeepAnyTextButEmptyAndControlCharacters() throws {
        for (id, layer) in [(#"a "quoted"/id; DROP TABLE layers;--"#, "it's/the \\ layer"), ("日本語", "ü")] {
            let descriptor = try DocumentDescriptor(documentID: id, layer: layer)
            let decoded = try JSONDecoder().decode(DocumentDescriptor.self, from: try JSONEncoder().encode(descriptor))
            #expect(decoded == descriptor && decoded.documentID == id && decoded.layer == layer)
        }
        for (id, layer) in [("", "x"), ("x", ""), ("a\u{0}b", "x"), ("x", "line\nbreak"), (String(repeating: "x", count: 513), "x")] {
            #expect(throws: RendererError.self) { try DocumentDescriptor(documentID: id, layer: layer) }
        }
        #expect(throws: (any Error).self) { try JSONDecoder().decode(DocumentDescriptor.self, from: Data(#"{"documentID": "", "layer": "x"}"#.utf8)) }
    }

    private static func kind(of token: String, by tokens: CollaborationTokens) async -> TokenError.Kind? {
        do {
            _ = try await tokens.verify(token)
            return nil
        } catch {
            return error.kind
        }
    }
}
