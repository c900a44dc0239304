import Foundation
import Testing
import TestSupport

/// `hostapp token`: keys and tokens for development, as a user makes and checks them.
@Suite struct TokenCommandTests {
    @Test func keygenIssueAndVerify() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (privateKey, publicKey, otherPrivate, otherPublic) = (
            folder.appendingPathComponent("dev.key").path, folder.appendingPathComponent("dev.pub").path,
            folder.appendingPathComponent("other.key").path, folder.appendingPathComponent("other.pub").path)
        let hostapp = HostAppTests.executable
        #expect(try await Tool.run(hostapp, ["token", "keygen", "--private-key-out", privateKey, "--public-key-out", publicKey]).status == 0)
        #expect(try await Tool.run(hostapp, ["token", "keygen", "--private-key-out", otherPrivate, "--public-key-out", otherPublic]).status == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: privateKey)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let issued = try await Tool.run(hostapp, [
            "token", "issue", "--private-key", privateKey, "--document", "doc \"1\"/x", "--layer", "review", "--user", "alice",
            "--permission", "read-document", "--permission", "annotations:edit:self", "--expires-in", "86400",
        ])
        #expect(issued.status == 0, "\(issued.stderr)")
        let token = issued.text.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.split(separator: ".").count == 3)

        let verified = try await Tool.run(hostapp, ["token", "verify", "--key", publicKey, "--document", "doc \"1\"/x", "--layer", "review", token])
        #expect(verified.status == 0, "\(verified.stderr)")
        let claims = try JSONSerialization.jsonObject(with: verified.stdout) as? [String: Any]
        #expect(claims?["sub"] as? String == "alice" && claims?["doc"] as? String == "doc \"1\"/x")
        #expect(claims?["permissions"] as? [String] == ["read-document", "annotations:edit:self"])

        for (key, document) in [(otherPublic, "doc \"1\"/x"), (publicKey, "another document")] {
            let refused = try await Tool.run(hostapp, ["token", "verify", "--key", key, "--document", document, "--layer", "review", token])
            #expect(refused.status == 65 && refused.stderr.contains("refused") && !refused.stderr.contains(token))
        }
        let noSigning = try await Tool.run(hostapp, ["token", "issue", "--private-key", publicKey, "--document", "d", "--user", "u"])
        #expect(noSigning.status == 64)
    }
}
