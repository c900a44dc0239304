import Foundation

/// When a reference is written instead of compared with, as swift-snapshot-testing's record
/// modes do. A run that records fails, so that a reference is never made silently in CI.
public enum ReferenceRecording: String, Sendable, CaseIterable {
    /// Record references that do not exist yet; compare with the others. The default.
    case missing
    /// Record every reference again.
    case all
    /// Record the references a document no longer matches.
    case failed
    /// Record nothing: a missing reference fails.
    case never

    /// The environment variable that sets the mode for a whole run (`missing`, `all`,
    /// `failed` or `never`), unless a check names one.
    public static let environmentVariable = "RENDERER_TESTING_RECORD"

    /// The mode of this run: the environment variable's, or ``missing``.
    public static var current: ReferenceRecording {
        ProcessInfo.processInfo.environment[environmentVariable].flatMap(ReferenceRecording.init(rawValue:)) ?? .missing
    }
}
