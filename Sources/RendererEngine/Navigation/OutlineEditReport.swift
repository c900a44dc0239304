/// What an outline edit dropped. The outline is written anew on each edit, so an item kept
/// from the old outline keeps what ``OutlineItem`` holds, and only that.
public struct OutlineEditReport: Hashable, Sendable, Codable {
    /// Items of the old outline whose target the API cannot express (an action other than a
    /// go-to or a URI, a named destination that is missing): written again, they lead nowhere.
    public var targetsDropped: Int

    /// A report of the given count.
    public init(targetsDropped: Int = 0) {
        self.targetsDropped = targetsDropped
    }

    /// Whether nothing was dropped.
    public var isEmpty: Bool { targetsDropped == 0 }

    /// One line for what was dropped, such as "2 outline targets dropped"; none when nothing was.
    public var lines: [String] {
        isEmpty ? [] : ["\(targetsDropped) outline target\(targetsDropped == 1 ? "" : "s") dropped"]
    }
}
