import Foundation
import RendererProvider

/// Pictures for image stamps, made by the tests with stated properties, and where each part
/// of the quadrant picture lands on a page.
public enum StampPictures {
    /// `width` x `height` pixels in four quadrants: red top left, green top right, blue bottom
    /// left and, bottom right, fully transparent pixels whose colour is black (so a reader
    /// that ignored the transparency would draw them black).
    public static func quadrants(width: Int = 40, height: Int = 20) -> Bitmap {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let (left, top) = (x < width / 2, y < height / 2)
                let pixel: [UInt8] =
                    top ? (left ? [255, 0, 0, 255] : [0, 255, 0, 255]) : (left ? [0, 0, 255, 255] : [0, 0, 0, 0])
                bytes.replaceSubrange((y * width + x) * 4..<(y * width + x) * 4 + 4, with: pixel)
            }
        }
        return Bitmap(width: width, height: height, stride: width * 4, format: .rgba, bytes: bytes)
    }

    /// `bitmap` as a PNG file with its alpha, written by the provider's encoder.
    public static func png(_ bitmap: Bitmap) throws -> Data {
        try bitmap.pngData(PNGEncoding(reducesChannels: false))
    }

    /// `bitmap`'s colour as a JPEG file (libjpeg, quality 95).
    public static func jpeg(_ bitmap: Bitmap) throws -> Data {
        let rgb = (0..<(bitmap.width * bitmap.height)).flatMap { bitmap.bytes[$0 * 4..<$0 * 4 + 3] }
        return try Bitmap(width: bitmap.width, height: bitmap.height, stride: bitmap.width * 3, format: .rgb, bytes: rgb).jpegData(quality: 95)
    }

    /// The room a stamp is given (200 x 200 pt at 72, 72) and the rectangle a 2:1 picture
    /// takes in it: 200 x 100 pt, centred.
    public static let room = PageRect(x: 72, y: 72, width: 200, height: 200)
    public static let fitted = PageRect(x: 72, y: 122, width: 200, height: 100)

    /// The middle of each quadrant of a picture drawn in `rect`, in points, with the colour
    /// expected there: red, green, blue, and nil for the transparent one (the page shows).
    public static func samples(in rect: PageRect) -> [(point: PagePoint, color: [UInt8]?)] {
        let (x0, y0, w, h) = (rect.minX, rect.minY, rect.size.width, rect.size.height)
        return [
            (PagePoint(x: x0 + w / 4, y: y0 + h / 4), [255, 0, 0]), (PagePoint(x: x0 + 3 * w / 4, y: y0 + h / 4), [0, 255, 0]),
            (PagePoint(x: x0 + w / 4, y: y0 + 3 * h / 4), [0, 0, 255]), (PagePoint(x: x0 + 3 * w / 4, y: y0 + 3 * h / 4), nil),
        ]
    }
}
