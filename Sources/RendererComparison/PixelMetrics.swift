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
        var differing = 0, shifted = 0, inked = 0, inkedA = 0, inkedB = 0
        var squares = 0.0
        var heat = drawHeatMap ? [UInt8](repeating: 0, count: width * height * 3) : []

        a.bytes.withUnsafeBufferPointer { pa in
            b.bytes.withUnsafeBufferPointer { pb in
                func offset(_ x: Int, _ y: Int) -> Int { y * a.stride + x * n }
                func offsetB(_ x: Int, _ y: Int) -> Int { y * b.stride + x * n }
                /// Largest channel difference between pixel i of `p` and pixel j of `q`.
                func distance(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ q: UnsafeBufferPointer<UInt8>, _ j: Int) -> Int {
                    var d = 0
                    for c in 0..<colourChannels { d = max(d, abs(Int(p[i + c]) - Int(q[j + c]))) }
                    return d
                }
                func isInked(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
                    for c in 0..<colourChannels where Int(p[i + c]) < 255 - channelThreshold { return true }
                    return false
                }
                /// Whether pixel i of `p` lies, channel by channel, within the range of the values
                /// of `q` within one pixel of (x, y), widened by the threshold.
                func isWithinNearbyRange(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, of q: UnsafeBufferPointer<UInt8>, stride: Int, _ x: Int, _ y: Int) -> Bool {
                    for c in 0..<colourChannels {
                        var low = 255, high = 0
                        for ny in max(0, y - 1)...min(height - 1, y + 1) {
                            for nx in max(0, x - 1)...min(width - 1, x + 1) {
                                let value = Int(q[ny * stride + nx * n + c])
                                low = min(low, value)
                                high = max(high, value)
                            }
                        }
                        let value = Int(p[i + c])
                        if value < low - channelThreshold || value > high + channelThreshold { return false }
                    }
                    return true
                }
                for y in 0..<height {
                    for x in 0..<width {
                        let i = offset(x, y), j = offsetB(x, y)
                        var sum = 0
                        for c in 0..<colourChannels {
                            let d = Int(pa[i + c]) - Int(pb[j + c])
                            sum += d * d
                        }
                        squares += Double(sum)
                        let inkA = isInked(pa, i), inkB = isInked(pb, j)
                        if inkA { inkedA += 1 }
                        if inkB { inkedB += 1 }
                        if inkA || inkB { inked += 1 }
                        var colour: (UInt8, UInt8, UInt8)? = nil
                        if distance(pa, i, pb, j) > channelThreshold {
                            differing += 1
                            colour = (255, 160, 0)
                            if !isWithinNearbyRange(pa, i, of: pb, stride: b.stride, x, y) || !isWithinNearbyRange(pb, j, of: pa, stride: a.stride, x, y) {
                                shifted += 1
                                colour = (220, 0, 0)
                            }
                        }
                        if !heat.isEmpty {
                            let h = (y * width + x) * 3
                            if let colour {
                                (heat[h], heat[h + 1], heat[h + 2]) = colour
                            } else {
                                let gray = colourChannels == 1 ? Int(pa[i]) : (30 * Int(pa[i]) + 59 * Int(pa[i + 1]) + 11 * Int(pa[i + 2])) / 100
                                let faded = UInt8(255 - (255 - gray) / 4)
                                (heat[h], heat[h + 1], heat[h + 2]) = (faded, faded, faded)
                            }
                        }
                    }
                }
            }
        }
        let heatMap = drawHeatMap ? Bitmap(width: width, height: height, stride: width * 3, format: .rgb, bytes: heat) : nil
        let mse = squares / Double(total * colourChannels)
        let metrics = PixelMetrics(
            differingShare: Double(differing) / Double(total),
            shiftedDifferingShare: Double(shifted) / Double(total),
            psnr: mse == 0 ? nil : 10 * log10(255 * 255 / mse),
            inkedShare: Double(inked) / Double(total),
            shiftedDifferingShareOfInk: inked == 0 ? 0 : Double(shifted) / Double(inked),
            referenceInkedShare: Double(inkedA) / Double(total),
            candidateInkedShare: Double(inkedB) / Double(total))
        return (metrics, heatMap)
    }
}
