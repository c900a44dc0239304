import Foundation

/// How servers that share a database take turns at saving one document, across machines
/// (where a file lock on a network file system is not enough), and agree on the version of
/// the file the last of them saved.
package protocol SaveCoordination: Sendable {
    /// Runs `body` while no other server sharing the database runs it for the document
    /// `document`, after waiting up to `timeout` for the one that does (`conflict` then).
    /// `body` is given the file version the last save through any of them recorded (nil when
    /// none did) and returns, beside its result, the version it leaves the file at, which is
    /// recorded when it returns; nothing is recorded when it throws, and its error is thrown
    /// as it is.
    func saving<T: Sendable>(
        document: String, timeout: Duration, _ body: @Sendable (_ recorded: String?) async throws -> (result: T, version: String)
    ) async throws -> T
}
