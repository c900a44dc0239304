#if canImport(Glibc)
import Glibc
#endif

/// Caps on the calling process itself, for processes that read strangers' files and
/// nothing else: an engine process (``IsolationWorker``) and a desktop thumbnailer run.
/// An engine process also ends with its parent (``endWithParent()``).
/// An engine that would take more sees its allocations fail (a typed error), and one that
/// computes past the time is ended by the system.
public enum ProcessLimits {
    /// Caps this process's address space at `bytes` (or its hard limit, if lower). Not under
    /// AddressSanitizer or ThreadSanitizer, whose shadow memory alone takes terabytes of
    /// address space.
    public static func limitAddressSpace(to bytes: Int) {
        guard !runsUnderSanitizer else { return }
        limit(RLIMIT_AS, to: bytes)
    }

    /// Ends this process (SIGXCPU) once it has computed for `seconds` of processor time.
    public static func limitProcessorTime(to seconds: Int) {
        limit(RLIMIT_CPU, to: seconds)
    }

    /// Ends this process (exit status 70) within a second of its parent's end, from a thread
    /// of its own: an engine process caught in a loop inside an engine never reads the
    /// socket that would tell it, and would otherwise compute on, orphaned, for ever.
    public static func endWithParent() {
        let parent = getppid()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { argument in
            let parent = pid_t(Int(bitPattern: argument))
            // An orphan is given another parent (init, or a subreaper).
            while getppid() == parent { sleep(1) }
            _exit(70)
        }, UnsafeMutableRawPointer(bitPattern: Int(parent)))
        if started == 0 { pthread_detach(thread) }
    }

    /// Whether this program was built with AddressSanitizer or ThreadSanitizer, under which
    /// the address space is not capped.
    public static let runsUnderSanitizer = dlsym(nil, "__asan_init") != nil || dlsym(nil, "__tsan_init") != nil

    private static func limit(_ resource: __rlimit_resource, to value: Int) {
        var limit = rlimit(rlim_cur: rlim_t(value), rlim_max: rlim_t(value))
        var current = rlimit()
        if getrlimit(__rlimit_resource_t(resource.rawValue), &current) == 0, current.rlim_max < limit.rlim_max {
            limit = rlimit(rlim_cur: current.rlim_max, rlim_max: current.rlim_max)
        }
        _ = setrlimit(__rlimit_resource_t(resource.rawValue), &limit)
    }
}
