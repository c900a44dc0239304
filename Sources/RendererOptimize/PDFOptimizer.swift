#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CQPDF
import RendererProvider

#if canImport(Glibc)
import Glibc
#endif

/// Rewrites a PDF for fast web view and a smaller file, through qpdf's library (Debian's
/// libqpdf): linearised (the first page readable before the rest arrives), objects packed
/// into compressed object streams with a cross-reference stream, every stream compressed,
/// streams embedded more than once kept once, and only the objects the
/// document reaches written. Pages, fonts and encryption are kept
/// as they are, and images too unless ``Options/imageDPI`` asks for fewer pixels: the output
/// then draws and reads as the input does.
public enum PDFOptimizer {
    /// How far an optimisation goes beyond the lossless rewriting.
    public struct Options: Hashable, Sendable {
        /// The resolution, in dots per inch, that images finer on their page are resampled to
        /// and stored as JPEG (8-bit RGB and gray images; a page's image keeps at least this
        /// resolution where it is drawn); nil keeps every image as it is.
        public var imageDPI: Double?
        /// The JPEG quality of resampled images, 1 to 100.
        public var jpegQuality: Int

        /// Options that keep images (`imageDPI` nil) or resample them to `imageDPI`.
        public init(imageDPI: Double? = nil, jpegQuality: Int = Bitmap.defaultJPEGQuality) {
            self.imageDPI = imageDPI
            self.jpegQuality = jpegQuality
        }

        /// Throws `invalidArgument` for a resolution below 1 dpi (or not finite) or a quality
        /// outside 1 to 100: what ``PDFOptimizer/optimize(_:to:password:options:)`` checks first.
        public func validate() throws {
            if let imageDPI, !(imageDPI.isFinite && imageDPI >= 1) {
                throw RendererError(.invalidArgument, "the image resolution must be at least 1 dpi")
            }
            guard (1...100).contains(jpegQuality) else { throw RendererError(.invalidArgument, "the JPEG quality must be 1 to 100") }
        }
    }

    /// What an optimisation did.
    public struct Report: Hashable, Sendable, Codable {
        /// The input's size in bytes.
        public var inputBytes: Int
        /// The output's size in bytes.
        public var outputBytes: Int
        /// The images resampled (none unless ``Options/imageDPI`` is set).
        public var imagesResampled: Int
        /// The streams left out because an equal one is kept (see ``PDFOptimizer``).
        public var duplicateStreamsMerged: Int

        /// The output's size as a fraction of the input's.
        public var ratio: Double { inputBytes > 0 ? Double(outputBytes) / Double(inputBytes) : 1 }
    }

    /// Writes `input`, optimised, to `output` (which may be `input` itself): atomically, so
    /// that `output` is its old self until the new file is whole, and under the output's
    /// `FileWriteLock`. An encrypted input needs its `password` and stays encrypted.
    /// Throws `invalidArgument` for options out of range, `fileNotFound`, `passwordRequired` or
    /// `wrongPassword`, `damaged` for a file qpdf cannot read, `ioFailure` for one it cannot
    /// write.
    public static func optimize(_ input: String, to output: String, password: String? = nil, options: Options = Options()) throws -> Report {
        try options.validate()
        guard let inputBytes = try? FileManager.default.attributesOfItem(atPath: input)[.size] as? Int else {
            throw RendererError(.fileNotFound, "\(input) does not exist")
        }
        var report = Report(inputBytes: inputBytes, outputBytes: 0, imagesResampled: 0, duplicateStreamsMerged: 0)
        try FileWriteLock.holding(output) {
            try AtomicFile.replace(output) { temporary in try write(input, to: temporary, password: password, options: options, into: &report) }
        }
        report.outputBytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        return report
    }

    /// One qpdf read and write: `input` to `path`, optimised; counts what it did in `report`.
    private static func write(_ input: String, to path: String, password: String?, options: Options, into report: inout Report) throws {
        var qpdf: qpdf_data? = qpdf_init()
        defer { qpdf_cleanup(&qpdf) }
        // Warnings (a damaged file qpdf recovered) are not errors; they are not printed either.
        qpdf_set_suppress_warnings(qpdf, QPDF_TRUE)
        qpdf_silence_errors(qpdf)
        if qpdf_read(qpdf, input, password ?? "") & QPDF_ERRORS != 0 { throw failure(qpdf, reading: input, password: password) }
        report.imagesResampled = try options.imageDPI.map { try ImageResampling(qpdf: qpdf, dpi: $0, jpegQuality: options.jpegQuality).run() } ?? 0
        report.duplicateStreamsMerged = DuplicateStreams(qpdf: qpdf).run()
        if qpdf_has_error(qpdf) != 0 { throw failure(qpdf, reading: input, password: password) }
        guard qpdf_init_write(qpdf, path) & QPDF_ERRORS == 0 else { throw failure(qpdf, reading: input, password: password) }
        qpdf_set_object_stream_mode(qpdf, qpdf_o_generate)
        // Streams compressed by their own setting: qpdf_set_stream_data_mode would drop the
        // input's encryption, which is kept.
        qpdf_set_compress_streams(qpdf, QPDF_TRUE)
        qpdf_set_linearization(qpdf, QPDF_TRUE)
        qpdf_set_preserve_encryption(qpdf, QPDF_TRUE)
        guard qpdf_write(qpdf) & QPDF_ERRORS == 0 else { throw failure(qpdf, reading: input, password: password) }
    }

    /// The error qpdf holds, typed.
    private static func failure(_ qpdf: qpdf_data?, reading input: String, password: String?) -> RendererError {
        guard qpdf_has_error(qpdf) != 0, let error = qpdf_get_error(qpdf) else {
            return RendererError(.engineFailure, "qpdf failed on \(input) without saying why")
        }
        let detail = qpdf_get_error_message_detail(qpdf, error).map { String(cString: $0) } ?? ""
        switch qpdf_get_error_code(qpdf, error) {
        case qpdf_e_password:
            return password == nil
                ? RendererError(.passwordRequired, "\(input) is encrypted: give its password")
                : RendererError(.wrongPassword, "the password does not open \(input)")
        case qpdf_e_system:
            return RendererError(.ioFailure, "qpdf: \(detail)")
        default:
            return RendererError(.damaged, "qpdf cannot read \(input): \(detail)")
        }
    }
}
