#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

#if canImport(Glibc)
import Glibc
#endif

/// hostapp's standard output and error, written at once: what `print` buffered goes out
/// first, then the bytes themselves, so that a program reading the pipe sees each write as
/// it happens, in order.
package enum StandardStream {
    case output, error

    /// Writes all of `data`; a closed pipe loses the rest, as with `print`.
    package func write(_ data: Data) {
        fflush(nil)
        let descriptor = self == .output ? STDOUT_FILENO : STDERR_FILENO
        data.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let n = Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return }
                done += n
            }
        }
    }

    /// Writes `text` as UTF-8.
    package func write(_ text: String) {
        write(Data(text.utf8))
    }

    /// Everything standard input holds, to its end.
    package static func readInput() throws -> Data {
        Data(try LocalFile.readInOrder(STDIN_FILENO))
    }
}
