import RendererEngine

extension StampImage {
    /// Calls `body` with the image's colour plane and its alpha plane (nil when opaque), as
    /// both engines' C layers take them; the pointers are valid during `body` only.
    package func withPlanes<T>(_ body: (UnsafePointer<UInt8>, UnsafePointer<UInt8>?) throws -> T) rethrows -> T {
        try rgb.withUnsafeBytes { rgb in
            let colour = rgb.bindMemory(to: UInt8.self).baseAddress!
            guard let alpha else { return try body(colour, nil) }
            return try alpha.withUnsafeBytes { try body(colour, $0.bindMemory(to: UInt8.self).baseAddress) }
        }
    }
}
