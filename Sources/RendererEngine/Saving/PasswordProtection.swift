/// The password protection a document is saved with: who may open it, and what the PDF
/// allows someone who opened it with the user password (ISO 32000-2, 7.6.4).
///
/// The owner password opens the document with every permission; the user password (empty:
/// anyone may open it) with ``permissions``. Viewers honour the permissions; a program that
/// ignores them can still read a document opened with the user password.
public struct PasswordProtection: Hashable, Sendable, Codable {
    /// How the document's strings and streams are encrypted.
    public enum Method: String, Hashable, Sendable, Codable, CaseIterable {
        /// AES with a 256-bit key, security handler revision 6 (PDF 2.0).
        case aes256 = "aes-256"
        /// AES with a 128-bit key, revision 4 (PDF 1.6), for older readers.
        case aes128 = "aes-128"
    }

    /// The password that opens the document with ``permissions``; empty when anyone may
    /// open it.
    public var userPassword: String
    /// The password that opens the document with every permission; never empty.
    public var ownerPassword: String
    /// What opening with the user password allows.
    public var permissions: DocumentPermissions
    /// The encryption; AES-256 unless asked otherwise.
    public var method: Method

    /// Passwords longer than this many UTF-8 bytes are refused: revision 6 uses the first
    /// 127 bytes of a password, and a longer one would open the document when cut short.
    public static let maximumPasswordBytes = 127

    /// Protection by `ownerPassword` and `userPassword` (empty: anyone may open the
    /// document), the user password granting `permissions`, encrypted with `method`.
    public init(userPassword: String = "", ownerPassword: String, permissions: DocumentPermissions = .all, method: Method = .aes256) {
        self.userPassword = userPassword
        self.ownerPassword = ownerPassword
        self.permissions = permissions
        self.method = method
    }

    /// Throws `invalidArgument` for an empty owner password, one the same as the user
    /// password, or a password longer than ``maximumPasswordBytes``; AES-128 takes Latin-1
    /// passwords only (revision 4 has no Unicode passwords).
    public func validate() throws {
        guard !ownerPassword.isEmpty else {
            throw RendererError(.invalidArgument, "an owner password is needed: it is what opens the document with every permission")
        }
        guard ownerPassword != userPassword else {
            throw RendererError(.invalidArgument, "the owner and user passwords must differ, or the user password would grant every permission")
        }
        for password in [userPassword, ownerPassword] where password.utf8.count > Self.maximumPasswordBytes {
            throw RendererError(.invalidArgument, "a password may be at most \(Self.maximumPasswordBytes) bytes in UTF-8")
        }
        if method == .aes128, [userPassword, ownerPassword].contains(where: { $0.unicodeScalars.contains { $0.value > 0xFF } }) {
            throw RendererError(.invalidArgument, "AES-128 passwords are Latin-1 only; use AES-256 for other characters")
        }
    }
}
