import CPixelMetrics
import Foundation
import RendererProvider

/// How two renders of the same page differ, pixel by pixel.
public struct PixelMetrics: Hashable, Sendable, Codable {
    /// Share of pixels whose largest channel difference exceeds the threshold.
    public var differingShare: Double
    /// The same, allowing a 1-pixel shift: a pixel counts only when, in some channel, its
    /// value lies outside the range of the other render's values within one pixel of it,
    /// widened by the threshold (checked both ways). Anti-aliasing, hinting and sub-pixel
    /// glyph placement blend neighbouring values, so they pass; content that one render has
    /// and the other lacks, or a different colour, does not.
    public var shiftedDifferingShare: Double
    /// Peak signal-to-noise ratio in dB over all channels; `nil` when the renders are identical.
    public var psnr: Double?
    /// Share of pixels inked (darker than white by more than the threshold) in either render.
    public var inkedShare: Double
    /// `shiftedDifferingShare` relative to the inked area: a blank render of a sparse page
    /// scores 1 here however few pixels the page has ink on. 0 when neither render has ink.
    public var shiftedDifferingShareOfInk: Double
    /// Shares of pixels inked in each render alone.
    public var referenceInkedShare: Double
    /// The share of the candidate's pixels that are ink (not the background).
    public var candidateInkedShare: Double

    /// Measures two bitmaps of the same size and format (`a` is the reference).
    public static func measure(_ a: Bitmap, _ b: Bitmap, channelThreshold: Int = 32) -> PixelMetrics {
        compute(a, b, channelThreshold: channelThreshold, drawHeatMap: false).metrics
    }

    /// Measures as `measure(_:_:channelThreshold:)` does and draws an RGB heat map of where
    /// the renders differ: the reference faded to light gray, pixels that differ in orange,
    /// pixels that differ even allowing a 1-pixel shift in red.
    public static func measureWithHeatMap(_ a: Bitmap, _ b: Bitmap, channelThreshold: Int = 32) -> (metrics: PixelMetrics, heatMap: Bitmap) {
        let (metrics, heatMap) = compute(a, b, channelThreshold: channelThreshold, drawHeatMap: true)
        return (metrics, heatMap!)
    }

    private static func compute(_ a: Bitmap, _ b: Bitmap, channelThreshold: Int, drawHeatMap: Bool) -> (metrics: PixelMetrics, heatMap: Bitmap?) {
        precondition(a.width == b.width && a.height == b.height && a.format == b.format, "bitmaps of different shapes")
        let (width, height, n) = (a.width, a.height, a.format.bytesPerPixel)
        let colourChannels = a.format == .rgba ? 3 : n
        let total = max(1, width * height)
        var heat = drawHeatMap ? [UInt8](repeating: 0, count: width * height * 3) : []
        var counts = pixelmetrics_counts()
        a.bytes.withUnsafeBufferPointer { pa in
            b.bytes.withUnsafeBufferPointer { pb in
                heat.withUnsafeMutableBufferPointer { ph in
                    pixelmetrics_compute(
                        pa.baseAddress, a.stride, pb.baseAddress, b.stride, Int32(width), Int32(height), Int32(n), Int32(colourChannels),
                        Int32(channelThreshold), drawHeatMap ? ph.baseAddress : nil, &counts)
                }
            }
        }
        let (differing, shifted, inked) = (Int(counts.differing), Int(counts.shifted), Int(counts.inked))
        let squares = Double(counts.squares)
        let heatMap = drawHeatMap ? Bitmap(width: width, height: height, stride: width * 3, format: .rgb, bytes: heat) : nil
        let mse = squares / Double(total * colourChannels)
        let metrics = PixelMetrics(
            differingShare: Double(differing) / Double(total),
            shiftedDifferingShare: Double(shifted) / Double(total),
            psnr: mse == 0 ? nil : 10 * log10(255 * 255 / mse),
            inkedShare: Double(inked) / Double(total),
            shiftedDifferingShareOfInk: inked == 0 ? 0 : Double(shifted) / Double(inked),
            referenceInkedShare: Double(counts.inked_a) / Double(total),
            candidateInkedShare: Double(counts.inked_b) / Double(total))
        return (metrics, heatMap)
    }
}
