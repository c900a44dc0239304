/// Which optional-content groups a drawing shows: each as the document's default
/// configuration has it, but those in ``shown`` shown and those in ``hidden`` hidden. Groups
/// are named by ``OptionalContentGroup/index``; naming one in both sets, or one the document
/// lacks, is `invalidArgument`.
public struct OptionalContentVisibility: Hashable, Sendable, Codable {
    /// Groups drawn even when the default configuration hides them.
    public var shown: Set<Int>
    /// Groups left out even when the default configuration shows them.
    public var hidden: Set<Int>

    /// The document's default: every group as its default configuration has it, unless
    /// `shown` or `hidden` says otherwise.
    public init(shown: Set<Int> = [], hidden: Set<Int> = []) {
        self.shown = shown
        self.hidden = hidden
    }

    /// Whether every group is drawn as the document's default configuration has it.
    public var isDefault: Bool { shown.isEmpty && hidden.isEmpty }

    /// Whether each of `groups` is drawn: its default state, changed as this says.
    public func states(of groups: [OptionalContentGroup]) -> [Bool] {
        groups.map { shown.contains($0.index) || ($0.isVisibleByDefault && !hidden.contains($0.index)) }
    }
}
