import Foundation
import HTTPTypes
import Testing

/// Encrypted documents unlocked by a reader's password (encrypted.pdf: text.pdf under AES-256,
/// user password "user-secret"), against the real server: the password opens the document
/// only for requests that carry the key it answered, tries are limited, and nothing of the
/// password or the server's paths comes back.
@Suite struct ServerPasswordTests {
    static let password = "user-secret"

    static func unlockBody(_ password: String) -> Data {
        try! JSONSerialization.data(withJSONObject: ["password": password])
    }

    @Test func anEncryptedDocumentIsReadOnlyWithAReadersKey() async throws {
        let harness = try ServerHarness(extra: ["encrypted.pdf"])
        let folder = harness.folder
        try await harness.run { client in
            let document = documentPath("encrypted.pdf")
            let locked = try await client.get(document)
            #expect(locked.status == .unprocessableContent && locked.errorCode == "password-required", "\(locked.status)")

            let wrong = try await client.send(.post, document + "/unlock", body: Self.unlockBody("not-the-password"))
            #expect(wrong.status == .unprocessableContent && wrong.errorCode == "wrong-password", "\(wrong.status) \(wrong.errorMessage ?? "")")
            let wrongText = String(decoding: wrong.data, as: UTF8.self)
            #expect(!wrongText.contains("not-the-password") && !wrongText.contains(folder))
            #expect(wrong.headers[.setCookie] == nil)

            let unlocked = try await client.send(.post, document + "/unlock", body: Self.unlockBody(Self.password))
            #expect(unlocked.status == .ok, "\(unlocked.status) \(unlocked.errorMessage ?? "")")
            let answer = try #require(unlocked.json as? [String: Any])
            #expect(answer["passwordNeeded"] as? Bool == true)
            let key = try #require(answer["key"] as? String)
            #expect(key.count >= 40 && !String(decoding: unlocked.data, as: UTF8.self).contains(Self.password))
            let cookie = try #require(unlocked.headers[.setCookie])
            #expect(cookie.contains("=\(key)") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
            #expect(!cookie.contains("Max-Age") && !cookie.contains("Expires"), "a session cookie: \(cookie)")

            let keyed: HTTPFields = [HTTPField.Name("Document-Key")!: key]
            let info = try await client.get(document, headers: keyed)
            #expect(info.status == .ok, "\(info.status) \(info.errorMessage ?? "")")
            #expect(((info.json as? [String: Any])?["info"] as? [String: Any])?["isEncrypted"] as? Bool == true)
            let text = try await client.get(document + "/pages/1/text", headers: keyed)
            #expect(text.status == .ok && String(decoding: text.data, as: UTF8.self).contains("fixture"))
            let byCookie = try await client.get(document + "/pages/0/image?dpi=20", headers: [.cookie: cookie.components(separatedBy: ";")[0]])
            #expect(byCookie.status == .ok && byCookie.headers[.contentType] == "image/png")

            // The engines' documents are open now; still nothing without the key, on any route.
            for route in ["", "/pages", "/pages/0/image?dpi=20", "/pages/1/text", "/search?q=fixture", "/file", "/outline", "/annotations", "/bookmarks", "/state"] {
                let answer = try await client.get(document + route)
                #expect(answer.status == .unprocessableContent && answer.errorCode == "password-required", "\(route): \(answer.status)")
                let forged = try await client.get(document + route, headers: [HTTPField.Name("Document-Key")!: String(key.reversed())])
                #expect(forged.status == .unprocessableContent && forged.errorCode == "password-required", "\(route) forged: \(forged.status)")
            }
            // Nor may a key of this document be used for a change without it.
            let note = #"{"kind":"text","pageIndex":0,"rect":{"origin":{"x":10,"y":10},"size":{"width":20,"height":20}},"contents":"x"}"#
            let anonymous = try await client.send(.post, document + "/annotations", body: Data(note.utf8))
            #expect(anonymous.status == .unprocessableContent && anonymous.errorCode == "password-required")

            // Readers with and without the key at once: each gets only what is theirs.
            let outcomes = try await withThrowingTaskGroup(of: (Bool, HTTPResponse.Status).self) { group in
                for index in 0..<24 {
                    let withKey = index.isMultiple(of: 2)
                    group.addTask {
                        let answer = try await client.get(document + "/pages/\(index % 3)/text", headers: withKey ? keyed : [:])
                        return (withKey, answer.status)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.allSatisfy { $0.0 ? $0.1 == .ok : $0.1 == .unprocessableContent }, "\(outcomes)")

            // Forgotten: the key reads nothing any more, and the cookie is cleared.
            let forgotten = try await client.execute(uri: document + "/unlock", method: .delete, headers: ServerHarness.authorization + keyed)
            #expect(forgotten.status == .noContent && forgotten.headers[.setCookie]?.contains("Max-Age=0") == true)
            let after = try await client.get(document, headers: keyed)
            #expect(after.status == .unprocessableContent && after.errorCode == "password-required")
        }
    }

    @Test func triesAtAPasswordAreLimitedPerDocument() async throws {
        let harness = try ServerHarness(extra: ["encrypted.pdf"])
        // Time stands still for the tries, so that none comes back however slow the machine.
        let start = ContinuousClock.now
        try await harness.run(configure: { $0.passwordTryClock = { start } }) { client in
            let document = documentPath("encrypted.pdf")
            for attempt in 1...5 {
                let wrong = try await client.send(.post, document + "/unlock", body: Self.unlockBody("guess-\(attempt)"))
                #expect(wrong.status == .unprocessableContent && wrong.errorCode == "wrong-password", "try \(attempt): \(wrong.status)")
            }
            // The sixth is refused before the password is looked at, even the right one.
            let refused = try await client.send(.post, document + "/unlock", body: Self.unlockBody(Self.password))
            #expect(refused.status == .tooManyRequests && refused.errorCode == "rate-limited", "\(refused.status)")
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 >= 1)
            // Another document's tries are its own.
            let other = try await client.send(.post, documentPath("text.pdf") + "/unlock", body: Self.unlockBody("anything"))
            #expect(other.status == .ok && (other.json as? [String: Any])?["passwordNeeded"] as? Bool == false)
            #expect((other.json as? [String: Any])?["key"] == nil && other.headers[.setCookie] == nil)
        }
    }

    @Test func anUnlockBodyAStrangerWroteIsRefusedPlainly() async throws {
        let harness = try ServerHarness(extra: ["encrypted.pdf"])
        try await harness.run { client in
            let document = documentPath("encrypted.pdf")
            let long = try await client.send(.post, document + "/unlock", body: Self.unlockBody(String(repeating: "p", count: 5000)))
            #expect(long.status == .badRequest && long.errorCode == "bad-request", "\(long.status)")
            for body in ["not json", #"{"password": 12}"#, #"{}"#, #"["user-secret"]"#] {
                let answer = try await client.send(.post, document + "/unlock", body: Data(body.utf8))
                #expect(answer.status == .badRequest, "\(body): \(answer.status)")
            }
            let missing = try await client.send(.post, documentPath("no-such.pdf") + "/unlock", body: Self.unlockBody(Self.password))
            #expect(missing.status == .notFound)
            let withoutToken = try await client.execute(uri: document + "/unlock", method: .post, body: Self.unlockBody(Self.password))
            #expect(withoutToken.status == .unauthorized && withoutToken.headers[.setCookie] == nil)
        }
    }
}

private func + (lhs: HTTPFields, rhs: HTTPFields) -> HTTPFields {
    var all = lhs
    all.append(contentsOf: rhs)
    return all
}
