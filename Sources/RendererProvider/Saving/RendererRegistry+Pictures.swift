#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension RendererRegistry {
    /// A picture file is read whole into memory; past this many bytes it is refused.
    public static let maximumPictureBytes = 256 << 20

    /// Writes to `path` a new PDF of `pictures` (JPEG, PNG or TIFF files; a TIFF gives each
    /// of its pages), one page per picture in order, laid out as `layout` says, by the
    /// renderer `selection` names (`auto`: the first that writes pictures, `PictureWriting`).
    /// JPEG data is stored as it is, other formats losslessly. Returns the number of pages.
    ///
    /// Written atomically, as a save is: `path` is its old self or the complete new file.
    /// Throws `unsupportedFormat` for a source that is no JPEG, PNG or TIFF (named), `damaged`
    /// for one the engine cannot read, `limitExceeded` for one past `maximumPictureBytes` or
    /// the layout's pixel limit, `invalidArgument` for paper past PDF's page sizes or margins
    /// that leave no room, and `unsupported` when no selected renderer writes pictures.
    @discardableResult
    public func writePDF(fromPictures pictures: [DocumentSource], layout: ImagePageLayout = ImagePageLayout(), to path: String, renderer selection: RendererSelection = .auto) throws -> Int {
        let writer: any PictureWriting
        switch selection {
        case .id(let id):
            let named = try renderer(id: id)
            guard let chosen = named as? any PictureWriting, chosen.writesPictures else {
                throw RendererError(.unsupported, "\(named.engineName) does not write PDFs from pictures", rendererID: id)
            }
            writer = chosen
        case .auto:
            guard let first = renderers.lazy.compactMap({ $0 as? any PictureWriting }).first(where: \.writesPictures) else {
                throw RendererError(.unsupported, "no linked renderer writes PDFs from pictures")
            }
            writer = first
        }
        guard !pictures.isEmpty else { throw RendererError(.invalidArgument, "no picture to make a PDF of") }
        if let paper = layout.paper {
            let side = 1...Document.maximumPageSide
            guard side.contains(paper.width), side.contains(paper.height) else {
                throw RendererError(.invalidArgument, "paper is 1 to \(Int(Document.maximumPageSide)) points a side, not \(paper.width) × \(paper.height)")
            }
            guard layout.margin >= 0, 2 * layout.margin < min(paper.width, paper.height) else {
                throw RendererError(.invalidArgument, "margins of \(layout.margin) points leave no room on paper of \(paper.width) × \(paper.height)")
            }
        }
        let contents = try pictures.map { source -> Data in
            guard [.jpeg, .png, .tiff].contains(try source.sniffContentType()) else {
                throw RendererError(.unsupportedFormat, "\(source.displayName) is not a JPEG, PNG or TIFF picture")
            }
            let tooLarge = RendererError(.limitExceeded, "\(source.displayName) is past the limit of \(Self.maximumPictureBytes >> 20) MiB for a picture")
            if case .file(let file) = source, let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int,
                size > Self.maximumPictureBytes
            {
                throw tooLarge
            }
            let data = try source.data()
            guard data.count <= Self.maximumPictureBytes else { throw tooLarge }
            return data
        }
        var pages = 0
        try AtomicFile.replace(path) { temporaryPath in
            pages = try writer.writePDF(fromPictures: contents, layout: layout, to: temporaryPath)
        }
        return pages
    }
}
