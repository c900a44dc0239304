#if canImport(Glibc)
import Glibc
#endif

/// A pthread mutex with a condition variable: the lock under ``Locked``, ``RecursiveLocked``
/// and the project's own thread pools. The engine modules use it rather than Foundation's
/// `NSLock` and `NSCondition` so that `hostapp` links only FoundationEssentials (full
/// Foundation adds ICU and CoreFoundation to every start), and rather than the standard
/// library's `Mutex` because ThreadSanitizer follows pthread locks (see ``Locked``).
package final class ThreadCondition: @unchecked Sendable {
    // @unchecked Sendable: the mutex and condition are made for sharing between threads;
    // this object owns both and destroys them when it goes.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// A lock that the thread holding it may take again when `recursive`; ``wait()`` must
    /// not be called on a lock held more than once.
    package init(recursive: Bool = false) {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        if recursive { pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE)) }
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() {
        pthread_mutex_lock(mutex)
    }

    package func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Releases the lock (which the caller holds), sleeps until ``signal()`` or
    /// ``broadcast()`` (or a spurious wake-up: callers wait in a loop on their state), and
    /// takes the lock again.
    package func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Wakes one waiting thread.
    package func signal() {
        pthread_cond_signal(condition)
    }

    /// Wakes every waiting thread.
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
