import RendererProvider

/// When a compared page passes. A page fails when any limit is crossed, when the two
/// renderers give it different sizes or links, or when one of them cannot draw it.
public struct ComparisonThresholds: Hashable, Sendable, Codable {
    /// A pixel differs when one of its channels differs by more than this (0-255). Default 32.
    public var channel: Int
    /// Most pixels that may differ even allowing a 1-pixel shift. Default 0.01 (1%).
    public var maximumShiftedDifferingShare: Double
    /// Most of the inked area that may differ even allowing a 1-pixel shift. Default 0.25:
    /// anti-aliasing differences stay near 0.06 on real documents, while a render that
    /// leaves out content scores near 1.
    public var maximumShiftedDifferingShareOfInk: Double
    /// The share of the page that must differ (even allowing a shift) before the ink limit
    /// is applied; default 0.001, about 900 pixels of a letter page at 100 dpi. On nearly
    /// blank pages a thin rule drawn a little darker by one engine is all the ink there is.
    /// A render that draws nothing where the other draws something fails on any page.
    public var minimumShiftedDifferingShareForInkLimit: Double
    /// Least share of words the two renderers' texts must have in common. Default 0.9.
    public var minimumTextAgreement: Double

    /// Thresholds with the given limits; the defaults are the ones documented on each property.
    public init(
        channel: Int = 32, maximumShiftedDifferingShare: Double = 0.01,
        maximumShiftedDifferingShareOfInk: Double = 0.25, minimumShiftedDifferingShareForInkLimit: Double = 0.001,
        minimumTextAgreement: Double = 0.9
    ) {
        self.channel = channel
        self.maximumShiftedDifferingShare = maximumShiftedDifferingShare
        self.maximumShiftedDifferingShareOfInk = maximumShiftedDifferingShareOfInk
        self.minimumShiftedDifferingShareForInkLimit = minimumShiftedDifferingShareForInkLimit
        self.minimumTextAgreement = minimumTextAgreement
    }
}
