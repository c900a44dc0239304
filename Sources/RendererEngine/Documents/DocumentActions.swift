#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a PDF does of itself, beside what its pages show: the catalog's open action (run
/// when the document opens), its additional actions (on closing, saving, printing) and the
/// scripts of its JavaScript name tree. Each action is described as stable text (its
/// dictionary with the keys sorted, the objects it refers to followed, a script stream's
/// text in place), so that two revisions' actions compare equal exactly when they do the
/// same.
public struct DocumentActions: Hashable, Sendable, Codable {
    /// The catalog's `/OpenAction`, described; nil when there is none.
    public var openAction: String?
    /// The catalog's `/AA` by trigger (`WC`, `WS`, `DS`, `WP`, `DP`), each described.
    public var additionalActions: [String: String]
    /// The JavaScript name tree (`/Names /JavaScript`): each script's name and its action,
    /// described.
    public var javaScript: [String: String]
    /// True when a part could not be read whole (a script past the length read, a tree too
    /// deep or too large): what it does is unknown, and a comparison must take it as changed.
    public var isIncomplete: Bool

    /// Actions as given.
    public init(openAction: String? = nil, additionalActions: [String: String] = [:], javaScript: [String: String] = [:], isIncomplete: Bool = false) {
        self.openAction = openAction
        self.additionalActions = additionalActions
        self.javaScript = javaScript
        self.isIncomplete = isIncomplete
    }

    /// Whether the document does nothing of itself.
    public var isEmpty: Bool { openAction == nil && additionalActions.isEmpty && javaScript.isEmpty && !isIncomplete }
}
