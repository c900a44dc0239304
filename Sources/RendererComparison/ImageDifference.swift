import RendererProvider

/// When two drawings of one page count as the same: how far a pixel may move from its
/// reference, and how many pixels may.
public struct PixelTolerance: Hashable, Sendable, Codable {
    /// A pixel differs when one of its colour channels differs from the reference's by more
    /// than this (0-255). Default 16.
    public var channel: Int
    /// The share of a page's pixels that may differ (0 to 1). Default 0: none.
    public var differingShare: Double
    /// Whether a pixel whose value lies within the range of the other drawing's values one
    /// pixel around it (widened by ``channel``) counts as the same: an edge moved by a
    /// fraction of a pixel, or anti-aliased a little differently, then passes, while ink one
    /// drawing has and the other lacks, or another colour, does not. Default true.
    public var ignoresSubpixelShifts: Bool

    /// A tolerance of the given limits; the defaults are the ones documented on each property.
    public init(channel: Int = 16, differingShare: Double = 0, ignoresSubpixelShifts: Bool = true) {
        self.channel = channel
        self.differingShare = differingShare
        self.ignoresSubpixelShifts = ignoresSubpixelShifts
    }

    /// Every pixel exactly as in the reference.
    public static let exact = PixelTolerance(channel: 0, differingShare: 0, ignoresSubpixelShifts: false)
}

/// How a drawing of a page differs from a reference drawing, under a ``PixelTolerance``,
/// with a picture of where.
public struct ImageDifference: Sendable {
    /// The reference's size in pixels.
    public var expectedSize: PixelSize
    /// The drawing's size in pixels.
    public var actualSize: PixelSize
    /// The pixels that differ beyond the tolerance (all of them when the sizes differ).
    public var differingPixels: Int
    /// The pixels compared: the larger drawing's.
    public var pixelCount: Int
    /// Whether the drawing is within the tolerance: the same size, and no more than the
    /// tolerance's share of pixels differing.
    public var passed: Bool
    /// Where the two differ, in the manner of diff-pdf: the reference faded to light gray,
    /// pixels that differ beyond the tolerance in red, pixels that differ only by a subpixel
    /// shift in orange. Drawn only for a drawing that fails: nil when it passed or when the
    /// sizes differ.
    public var image: Bitmap?

    /// The share of pixels that differ, 0 to 1.
    public var differingShare: Double { pixelCount == 0 ? 0 : Double(differingPixels) / Double(pixelCount) }

    /// Compares `actual` with `expected` under `tolerance`. Bitmaps of different pixel formats
    /// are compared as RGB over white.
    public init(expected: Bitmap, actual: Bitmap, tolerance: PixelTolerance = PixelTolerance()) {
        expectedSize = PixelSize(width: expected.width, height: expected.height)
        actualSize = PixelSize(width: actual.width, height: actual.height)
        guard expectedSize == actualSize else {
            pixelCount = max(expected.width * expected.height, actual.width * actual.height)
            differingPixels = pixelCount
            passed = false
            image = nil
            return
        }
        let (a, b) = expected.format == actual.format ? (expected, actual) : (expected.opaqueRGB(), actual.opaqueRGB())
        let channel = max(0, tolerance.channel)
        let metrics = PixelMetrics.measure(a, b, channelThreshold: channel)
        pixelCount = expected.width * expected.height
        let share = tolerance.ignoresSubpixelShifts ? metrics.shiftedDifferingShare : metrics.differingShare
        differingPixels = Int((share * Double(pixelCount)).rounded())
        passed = Double(differingPixels) <= tolerance.differingShare * Double(pixelCount)
        image = passed ? nil : PixelMetrics.measureWithHeatMap(a, b, channelThreshold: channel).heatMap
    }
}
