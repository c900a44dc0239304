import RendererProvider

/// How many engine processes this process started, and how many of those replaced one that
/// crashed or was stopped at the time limit (a restart), counted for the whole process since
/// it began: what a server's metrics report of its isolated engines.
public enum EngineProcessTally {
    private static let counts = Locked((started: 0, restarted: 0))

    /// Engine processes started.
    public static var started: Int { counts.withLock { $0.started } }

    /// Engine processes started in place of one that was lost.
    public static var restarted: Int { counts.withLock { $0.restarted } }

    /// Counts an engine process started, in place of a lost one when `restarting`.
    static func countStart(restarting: Bool) {
        counts.withLock { counts in
            counts.started += 1
            if restarting { counts.restarted += 1 }
        }
    }
}
