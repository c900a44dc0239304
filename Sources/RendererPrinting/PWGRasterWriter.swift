import CCups
import Foundation
import RendererProvider

/// Draws pages at the printer's resolution and streams them to the job as PWG raster
/// (libcups' raster writer, over the job's connection), for printers that take no PDF.
struct PWGRasterWriter {
    let connection: CUPSConnection
    let printer: CUPSDestination
    let options: PrintOptions

    /// The highest resolution the printer offers up to 600 dpi (a page stays a few tens of
    /// megabytes), or its lowest when all are higher; 300 dpi when it names none.
    var resolution: Int {
        let offered = printer.rasterResolutions()
        return offered.filter { $0 <= 600 }.max() ?? offered.min() ?? 300
    }

    /// Writes the pages at `indices` of `document`, each on paper of its own size.
    func write(_ indices: [Int], of document: Document) throws {
        let dpi = resolution
        let context = UnsafeMutableRawPointer(connection.http)
        guard let raster = cupsRasterOpenIO({ context, buffer, length in
            guard let context, let buffer else { return -1 }
            let status = cupsWriteRequestData(OpaquePointer(context), UnsafeRawPointer(buffer).assumingMemoryBound(to: CChar.self), length)
            return status == HTTP_STATUS_CONTINUE ? length : -1
        }, context, CUPS_RASTER_WRITE_PWG) else {
            throw RendererError(.printJobFailed, "the raster writer could not be started")
        }
        defer { cupsRasterClose(raster) }
        for index in indices {
            try writePage(index, of: document, at: dpi, into: raster)
        }
    }

    private func writePage(_ index: Int, of document: Document, at dpi: Int, into raster: OpaquePointer) throws {
        let size = try document.pageInfo(pageAt: index).size
        func hundredthsOfMillimetre(_ points: Double) -> Int32 { Int32((points * 2540 / 72).rounded()) }
        var header = cups_page_header2_t()
        guard let media = pwgMediaForSize(hundredthsOfMillimetre(size.width), hundredthsOfMillimetre(size.height)),
            cupsRasterInitPWGHeader(&header, media, options.grayscale ? "sgray_8" : "srgb_8", Int32(dpi), Int32(dpi), options.sides.rawValue, "normal") != 0
        else {
            throw RendererError(.printJobFailed, "page \(index + 1) (\(size.width) x \(size.height) pt) has no raster header")
        }
        let (width, height) = (Int(header.cupsWidth), Int(header.cupsHeight))
        var render = RenderOptions(dpi: Double(dpi), pixelFormat: options.grayscale ? .gray : .rgb)
        render.fitting = PixelSize(width: width, height: height)
        let bitmap = try document.render(pageAt: index, options: render)
        let channels = options.grayscale ? 1 : 3
        // The page centred on its paper, white around it.
        let (left, top) = (max(0, (width - bitmap.width) / 2), max(0, (height - bitmap.height) / 2))
        let drawn = min(bitmap.width, width - left) * channels
        guard cupsRasterWriteHeader2(raster, &header) != 0 else { throw sendFailure() }
        var row = [UInt8](repeating: 255, count: Int(header.cupsBytesPerLine))
        for y in 0..<height {
            row.withUnsafeMutableBufferPointer { $0.update(repeating: 255) }
            let source = y - top
            if source >= 0, source < bitmap.height {
                let line = bitmap.row(source)
                row.replaceSubrange(left * channels..<left * channels + drawn, with: line.prefix(drawn))
            }
            guard cupsRasterWritePixels(raster, &row, UInt32(row.count)) != 0 else { throw sendFailure() }
        }
    }

    private func sendFailure() -> RendererError {
        RendererError(.printerUnreachable, "sending the pages to \(printer.name): \(connection.serverName) stopped taking them")
    }
}
