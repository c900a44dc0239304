import RendererEngine

/// How the provider's PNG encoder, over libdeflate, writes a file. Engines draw pixels; the
/// provider encodes them, whichever engine drew them.
///
/// The encoder writes 8-bit PNGs that decode to exactly the bitmap's pixels (RGBA with
/// straight alpha). It makes one IDAT chunk from the whole filtered image in memory,
/// and by default writes a page whose pixels are all gray as a gray PNG and an opaque RGBA
/// bitmap without alpha (``reducesChannels``); at its default settings it writes files no
/// larger than `mutool draw`'s in a fraction of the time (BENCHMARKS.md gives the figures).
public struct PNGEncoding: Hashable, Sendable, Codable {
    /// How each row is predicted from its neighbours before compression (the PNG
    /// specification's filter types).
    public enum Filter: String, Hashable, Sendable, Codable, CaseIterable {
        /// Rows as they are; `mutool draw`'s choice.
        case none
        /// Each byte less the one a pixel to its left.
        case sub
        /// Each byte less the one above.
        case up
        /// Each byte less the mean of the ones to its left and above.
        case average
        /// Each byte less the Paeth predictor of the three neighbours.
        case paeth
        /// Each row with the filter whose output has the smallest sum of absolute values,
        /// the heuristic of the PNG specification and libpng.
        case adaptive
        /// Each row as it is unless Up brings that sum under a quarter of the row's own: text
        /// keeps the repeated runs deflate finds, smooth gradients and photographs are
        /// predicted from the row above. The default: on the benchmark documents, files a
        /// little smaller than ``none``'s (and much smaller on gradients) for about a tenth
        /// more encoding time; ``adaptive`` costs twice the time and is larger on text.
        case noneOrUp = "none-or-up"
    }

    /// libdeflate's compression level, from 0 (stored, no compression) to 12 (smallest and
    /// slowest).
    public var level: Int
    /// The row filter.
    public var filter: Filter
    /// Whether the encoder writes the fewest channels that hold every pixel exactly:
    /// gray when red, green and blue are equal everywhere, no alpha when every pixel is
    /// opaque. A decoder gives back the same values; turn it off for files whose colour type
    /// must follow the bitmap's pixel format.
    public var reducesChannels: Bool

    /// The default level: the fastest whose files are no larger than
    /// `mutool draw`'s on the benchmark documents.
    public static let defaultLevel = 6
    /// The lowest and highest levels.
    public static let levels = 0...12

    /// Settings as each property describes.
    public init(level: Int = PNGEncoding.defaultLevel, filter: Filter = .noneOrUp, reducesChannels: Bool = true) {
        self.level = level
        self.filter = filter
        self.reducesChannels = reducesChannels
    }
}
