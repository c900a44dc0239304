#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

extension String {
    /// The text of a C string both engines' C layers hand over (UTF-8); nil for NULL.
    package init?(optionalCString pointer: UnsafeMutablePointer<CChar>?) {
        guard let pointer else { return nil }
        self.init(cString: pointer)
    }
}

extension Array where Element == String {
    /// Calls `body` with the strings as an array of C strings (UTF-8), for C's
    /// `const char **`; the array lives only during the call.
    package func withCStrings<T>(_ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) throws -> T) rethrows -> T {
        let copies = map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var pointers = copies.map { UnsafePointer<CChar>($0) }
        pointers.append(nil)
        return try pointers.withUnsafeMutableBufferPointer { try body($0.baseAddress!) }
    }
}
