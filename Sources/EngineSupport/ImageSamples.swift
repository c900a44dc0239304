#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// An image's decoded samples made 8-bit gray or RGB, for extraction
/// (``PDFObjectReading/imageContents(of:)``): each component through the image's `/Decode`
/// array, an indexed image through its palette, CMYK made RGB without a profile (as
/// `pdfimages -png` does for lack of a profile, though by a simpler formula), a separation
/// as the darkness of its ink, a stencil mask as black where it paints and an explicit mask
/// as white where the image it masks shows (as a soft mask is). Lab, DeviceN and pattern
/// images are refused (`unsupported`).
struct ImageSamples<Objects: PDFObjectReading> {
    let description: ImageLister<Objects>.Description
    let dictionary: [String: PDFObject]
    let objects: Objects

    func contents(from samples: Data) throws -> ImageContents {
        let (width, height, bits) = (description.width, description.height, description.bitsPerComponent)
        guard width > 0, height > 0, width <= RenderOptions.defaultMaximumPixelCount / height else {
            throw RendererError(.limitExceeded, "the image's size, \(width) x \(height), is not one to extract")
        }
        guard [1, 2, 4, 8, 16].contains(bits) else { throw RendererError(.damaged, "the image has \(bits) bits a component") }
        let isStencil = try description.role == .stencil || objects.resolved(dictionary["ImageMask"] ?? dictionary["IM"]) == .bool(true)
        if isStencil {
            // A stencil is black where it paints; an explicit mask, like a soft mask, is
            // white where the image it masks shows.
            let painted = description.decode.first == 1 ? 1 : 0
            let (on, off): (UInt8, UInt8) = description.role == .mask ? (255, 0) : (0, 255)
            let reader = SampleReader(samples, width: width, components: 1, bits: 1)
            var gray = [UInt8](repeating: off, count: width * height)
            for y in 0..<height { for x in 0..<width where reader.sample(x, y, 0) == painted { gray[y * width + x] = on } }
            return ImageContents(format: .gray, width: width, height: height, data: Data(gray))
        }
        let space = description.space
        let family: String = {
            if case .name(let name) = space { return name }
            if case .name(let name)? = space.items.first { return name }
            return ""
        }()
        if family == "Indexed" || family == "I" { return try indexed(samples, width: width, height: height, bits: bits) }
        let components = description.components
        guard components > 0, ["gray", "rgb", "cmyk", "icc", "sep"].contains(description.colorSpace), components != 2, components <= 4 else {
            throw RendererError(.unsupported, "a \(description.colorSpace) image is not extracted as PNG")
        }
        let reader = SampleReader(samples, width: width, components: components, bits: bits)
        let maximum = Double((1 << bits) - 1)
        let ranges = (0..<components).map { index -> (Double, Double) in
            description.decode.count >= 2 * (index + 1) ? (description.decode[2 * index], description.decode[2 * index + 1]) : (0, 1)
        }
        var values = [Double](repeating: 0, count: components)
        let outputComponents = components == 1 ? 1 : 3
        var output = [UInt8](repeating: 0, count: width * height * outputComponents)
        for y in 0..<height {
            for x in 0..<width {
                for index in 0..<components {
                    let (low, high) = ranges[index]
                    values[index] = min(1, max(0, low + Double(reader.sample(x, y, index)) * (high - low) / maximum))
                }
                let target = (y * width + x) * outputComponents
                switch components {
                case 1: output[target] = Self.byte(description.colorSpace == "sep" ? 1 - values[0] : values[0])
                case 3: for index in 0..<3 { output[target + index] = Self.byte(values[index]) }
                default:
                    for index in 0..<3 { output[target + index] = Self.byte((1 - values[index]) * (1 - values[3])) }
                }
            }
        }
        return ImageContents(format: outputComponents == 1 ? .gray : .rgb, width: width, height: height, data: Data(output))
    }

    /// An indexed image through its palette (`[/Indexed base hival lookup]`), whose base is
    /// gray, RGB or CMYK (or an ICC profile of as many components).
    private func indexed(_ samples: Data, width: Int, height: Int, bits: Int) throws -> ImageContents {
        let parameters = Array(description.space.items.dropFirst())
        guard parameters.count == 3, let highest = try objects.resolved(parameters[1]).wholeNumber, (0...255).contains(highest) else {
            throw RendererError(.damaged, "the image's indexed colour space is not [/Indexed base hival lookup]")
        }
        let (baseName, baseComponents) = try ImageLister<Objects>.name(of: try objects.resolved(parameters[0]), objects: objects)
        guard ["gray", "rgb", "cmyk", "icc"].contains(baseName), [1, 3, 4].contains(baseComponents) else {
            throw RendererError(.unsupported, "an indexed image over \(baseName) is not extracted as PNG")
        }
        let palette: [UInt8]
        switch parameters[2] {
        case .string(let bytes): palette = bytes
        case .reference(let reference):
            palette = [UInt8](try objects.streamContents(reference.number, limit: 4096, decoded: true) ?? Data())
        default: palette = []
        }
        let outputComponents = baseComponents == 1 ? 1 : 3
        let reader = SampleReader(samples, width: width, components: 1, bits: bits)
        var output = [UInt8](repeating: 0, count: width * height * outputComponents)
        for y in 0..<height {
            for x in 0..<width {
                let entry = min(reader.sample(x, y, 0), highest) * baseComponents
                let color = (0..<baseComponents).map { entry + $0 < palette.count ? Double(palette[entry + $0]) / 255 : 0 }
                let target = (y * width + x) * outputComponents
                switch baseComponents {
                case 1: output[target] = Self.byte(color[0])
                case 3: for index in 0..<3 { output[target + index] = Self.byte(color[index]) }
                default: for index in 0..<3 { output[target + index] = Self.byte((1 - color[index]) * (1 - color[3])) }
                }
            }
        }
        return ImageContents(format: outputComponents == 1 ? .gray : .rgb, width: width, height: height, data: Data(output))
    }

    private static func byte(_ value: Double) -> UInt8 { UInt8((value * 255).rounded()) }
}

/// The samples of packed image rows: each row starts on a byte, missing bytes read as 0.
private struct SampleReader {
    let bytes: [UInt8]
    let rowBytes: Int
    let components: Int
    let bits: Int

    init(_ data: Data, width: Int, components: Int, bits: Int) {
        bytes = [UInt8](data)
        rowBytes = (width * components * bits + 7) / 8
        self.components = components
        self.bits = bits
    }

    /// Component `component` of the sample at `x`, `y`: 0 to 2^bits - 1.
    func sample(_ x: Int, _ y: Int, _ component: Int) -> Int {
        let bit = (x * components + component) * bits
        let offset = y * rowBytes + bit / 8
        func byte(_ at: Int) -> Int { at < bytes.count ? Int(bytes[at]) : 0 }
        switch bits {
        case 8: return byte(offset)
        case 16: return byte(offset) << 8 | byte(offset + 1)
        default: return (byte(offset) >> (8 - bits - bit % 8)) & ((1 << bits) - 1)
        }
    }
}
