/// How an ``IsolatedRenderer``'s engine processes run: which program serves as the engine
/// process, and the bounds it runs within.
public struct IsolationOptions: Sendable {
    /// The program started as the engine process: one that calls
    /// ``IsolationWorker/serve(registry:beforePage:)`` (hostapp's is `hostapp worker`).
    public var executable: String
    /// The arguments it is started with.
    public var arguments: [String]
    /// The longest one call (opening, drawing a page, saving) may take; past it the engine
    /// process is killed and the call fails with `limitExceeded`. `nil` waits for ever.
    public var timeLimit: Duration?
    /// The most address space the engine process may use, in bytes; past it the engine's
    /// allocations fail and the call fails with `limitExceeded`, or the engine process
    /// ends and it fails with `engineCrashed`. `nil` sets no cap.
    public var memoryBytes: Int?

    /// The default time limit: 120 s for one call.
    public static let defaultTimeLimit = Duration.seconds(120)
    /// The default memory cap: 4 GiB of address space.
    public static let defaultMemoryBytes = 4 << 30

    /// Options for engine processes started as `executable arguments...`, each call bounded by
    /// `timeLimit` (nil: none) and the process's address space by `memoryBytes`.
    public init(
        executable: String, arguments: [String] = [], timeLimit: Duration? = IsolationOptions.defaultTimeLimit,
        memoryBytes: Int? = IsolationOptions.defaultMemoryBytes
    ) {
        self.executable = executable
        self.arguments = arguments
        self.timeLimit = timeLimit
        self.memoryBytes = memoryBytes
    }
}
