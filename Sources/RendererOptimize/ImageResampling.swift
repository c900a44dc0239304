#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CQPDF
import RendererProvider

/// The images of a document qpdf has read, drawn again at a lower resolution as JPEG where
/// they are finer than asked: what ``PDFOptimizer`` does with `imageDPI`.
///
/// An image's resolution is judged on the first page whose resources hold it, by its
/// pixels over the page's size: an image drawn within its page is at least that fine, so
/// one resampled to the resolution asked is still at least as fine as asked where it is
/// drawn. Only 8-bit DeviceRGB and DeviceGray images that qpdf can decode are resampled
/// (DCT, Flate, LZW, run-length and the ASCII filters), without a stencil or a Decode array;
/// their soft masks are kept as they are. An image whose JPEG would be no smaller than its
/// stored stream is left alone.
struct ImageResampling {
    let qpdf: qpdf_data?
    /// The resolution asked for, in dots per inch.
    let dpi: Double
    let jpegQuality: Int

    /// Resamples the images of every page; returns how many were replaced.
    func run() throws -> Int {
        var seen = Set<Int>()
        var replaced = 0
        for index in 0..<Int(max(0, qpdf_get_num_pages(qpdf))) {
            let page = qpdf_get_page_n(qpdf, index)
            guard let size = mediaSize(of: page) else { continue }
            let resources = qpdf_oh_get_key_if_dict(qpdf, page, "/Resources")
            let xobjects = qpdf_oh_get_key_if_dict(qpdf, resources, "/XObject")
            for key in QPDFObjects.keys(of: xobjects, in: qpdf) {
                let image = qpdf_oh_get_key(qpdf, xobjects, key)
                let id = Int(qpdf_oh_get_object_id(qpdf, image))
                guard qpdf_oh_is_stream(qpdf, image) != 0, id > 0, seen.insert(id).inserted else { continue }
                if try resample(image, onPageOf: size) { replaced += 1 }
            }
        }
        return replaced
    }

    /// The width and height of the page's media box in points, when it has a readable one.
    private func mediaSize(of page: qpdf_oh) -> (width: Double, height: Double)? {
        let box = qpdf_oh_get_key_if_dict(qpdf, page, "/MediaBox")
        guard qpdf_oh_is_array(qpdf, box) != 0, qpdf_oh_get_array_n_items(qpdf, box) == 4 else { return nil }
        let values = (0..<4).map { qpdf_oh_get_numeric_value(qpdf, qpdf_oh_get_array_item(qpdf, box, Int32($0))) }
        let size = (width: abs(values[2] - values[0]), height: abs(values[3] - values[1]))
        return size.width >= 1 && size.height >= 1 ? size : nil
    }

    /// Replaces `image`'s pixels by fewer, as JPEG, when it is an image this resamples and
    /// finer on its page than asked; true when it did.
    private func resample(_ image: qpdf_oh, onPageOf page: (width: Double, height: Double)) throws -> Bool {
        let dictionary = qpdf_oh_get_dict(qpdf, image)
        guard qpdf_oh_is_name_and_equals(qpdf, qpdf_oh_get_key(qpdf, dictionary, "/Subtype"), "/Image") != 0,
            qpdf_oh_has_key(qpdf, dictionary, "/ImageMask") == 0 || qpdf_oh_get_bool_value(qpdf, qpdf_oh_get_key(qpdf, dictionary, "/ImageMask")) == 0,
            qpdf_oh_has_key(qpdf, dictionary, "/Decode") == 0,
            qpdf_oh_get_int_value(qpdf, qpdf_oh_get_key(qpdf, dictionary, "/BitsPerComponent")) == 8
        else { return false }
        let colorSpace = qpdf_oh_get_key(qpdf, dictionary, "/ColorSpace")
        let components: Int
        if qpdf_oh_is_name_and_equals(qpdf, colorSpace, "/DeviceRGB") != 0 {
            components = 3
        } else if qpdf_oh_is_name_and_equals(qpdf, colorSpace, "/DeviceGray") != 0 {
            components = 1
        } else {
            return false
        }
        let width = Int(qpdf_oh_get_int_value(qpdf, qpdf_oh_get_key(qpdf, dictionary, "/Width")))
        let height = Int(qpdf_oh_get_int_value(qpdf, qpdf_oh_get_key(qpdf, dictionary, "/Height")))
        guard width > 0, height > 0, width * height <= RenderOptions.defaultMaximumPixelCount else { return false }
        // The least resolution the image can have where it is drawn within the page.
        let least = min(Double(width) / (page.width / 72), Double(height) / (page.height / 72))
        guard least > dpi else { return false }
        let scale = dpi / least
        let newWidth = max(1, Int((Double(width) * scale).rounded(.up))), newHeight = max(1, Int((Double(height) * scale).rounded(.up)))
        guard let stored = QPDFObjects.streamData(image, in: qpdf, decoding: qpdf_dl_none),
            let pixels = QPDFObjects.streamData(image, in: qpdf, decoding: qpdf_dl_all), pixels.count == width * height * components
        else { return false }
        let resampled = Self.averaged(pixels, width: width, height: height, components: components, to: newWidth, newHeight)
        let jpeg = try Bitmap(
            width: newWidth, height: newHeight, stride: newWidth * components, format: components == 3 ? .rgb : .gray, bytes: resampled
        ).jpegData(quality: jpegQuality)
        guard jpeg.count < stored.count else { return false }
        jpeg.withUnsafeBytes { bytes in
            qpdf_oh_replace_stream_data(
                qpdf, image, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, qpdf_oh_new_name(qpdf, "/DCTDecode"), qpdf_oh_new_null(qpdf))
        }
        qpdf_oh_replace_key(qpdf, dictionary, "/Width", qpdf_oh_new_integer(qpdf, Int64(newWidth)))
        qpdf_oh_replace_key(qpdf, dictionary, "/Height", qpdf_oh_new_integer(qpdf, Int64(newHeight)))
        qpdf_oh_remove_key(qpdf, dictionary, "/DecodeParms")
        return true
    }

    /// `pixels` (`width` x `height`, `components` bytes each) averaged down to `newWidth` x
    /// `newHeight`: each new pixel is the mean of the source pixels its area covers.
    static func averaged(_ pixels: [UInt8], width: Int, height: Int, components: Int, to newWidth: Int, _ newHeight: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: newWidth * newHeight * components)
        var sums = [Int](repeating: 0, count: components)
        for y in 0..<newHeight {
            let top = y * height / newHeight, bottom = max(top + 1, (y + 1) * height / newHeight)
            for x in 0..<newWidth {
                let left = x * width / newWidth, right = max(left + 1, (x + 1) * width / newWidth)
                for c in 0..<components { sums[c] = 0 }
                for row in top..<bottom {
                    var offset = (row * width + left) * components
                    for _ in left..<right {
                        for c in 0..<components { sums[c] += Int(pixels[offset + c]) }
                        offset += components
                    }
                }
                let count = (bottom - top) * (right - left), target = (y * newWidth + x) * components
                for c in 0..<components { result[target + c] = UInt8((sums[c] + count / 2) / count) }
            }
        }
        return result
    }
}
