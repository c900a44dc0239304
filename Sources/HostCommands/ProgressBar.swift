#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress bar on stderr, shown when there is more than one page and stderr
/// is a terminal (or when asked for).
struct ProgressBar {
    private let total: Int
    private let enabled: Bool

    init(total: Int, forced: Bool) {
        self.total = total
        self.enabled = total > 1 && (forced || isatty(STDERR_FILENO) != 0)
    }

    func update(done: Int) {
        guard enabled else { return }
        let width = 30
        let filled = width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        StandardStream.error.write("\r[\(bar)] \(done)/\(total) pages")
    }

    mutating func finish() {
        guard enabled else { return }
        StandardStream.error.write("\n")
    }
}
