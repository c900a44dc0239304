#if canImport(Glibc)
import Glibc
#endif

/// Threads of the project's own, made with pthreads: Foundation's `Thread` would link full
/// Foundation into `hostapp`, and costs a short run (a thumbnail) more to set up than the
/// thread does.
package enum DetachedThread {
    /// Runs `body` on a new detached thread; false when the system refuses a thread.
    @discardableResult
    package static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Body(run: body))
        var thread = pthread_t()
        guard pthread_create(&thread, nil, entry, box.toOpaque()) == 0 else {
            box.release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    private final class Body {
        let run: @Sendable () -> Void

        init(run: @escaping @Sendable () -> Void) {
            self.run = run
        }
    }

    private static let entry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { pointer in
        Unmanaged<Body>.fromOpaque(pointer!).takeRetainedValue().run()
        return nil
    }
}
