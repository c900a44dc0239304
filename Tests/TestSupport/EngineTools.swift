import Foundation

/// Pages drawn by an engine's own command-line tool, the witness the reference tests hold
/// each backend to: MuPDF's `mutool draw -c rgb`, Poppler's `pdftocairo -cropbox`,
/// Ghostscript's `gs -sDEVICE=png16m -dUseCropBox` with the anti-aliasing and the image
/// interpolation the backend asks for (the PNGs decoded by netpbm's `pngtopnm`).
public enum EngineTools {
    /// A tool that exited with an error.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Page `page` (1-based) of `file` at `dpi`, drawn by `backend`'s tool into `directory`.
    public static func draw(backend: String, file: String, page: Int, dpi: Int, in directory: URL) async throws -> Netpbm {
        try await draw(backend: backend, file: file, pages: [page], dpi: dpi, in: directory)[0]
    }

    /// Pages `pages` (1-based, ascending) of `file` at `dpi`, in their order, drawn by
    /// `backend`'s tool in one run (Poppler's: one run for each stretch of consecutive pages,
    /// which is all `pdftocairo` takes) into a new folder in `directory`.
    public static func draw(backend: String, file: String, pages: [Int], dpi: Int, in directory: URL) async throws -> [Netpbm] {
        let folder = directory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let list = pages.map(String.init).joined(separator: ",")
        switch Fixtures.engineID(backend) {
        case "mupdf":
            let result = try await Tool.run("mutool", ["draw", "-q", "-c", "rgb", "-r", "\(dpi)", "-o", folder.path + "/%d.pnm", file, list])
            guard result.status == 0 else { throw Failure(description: "mutool draw failed: \(result.stderr)") }
            return try pages.map { try Netpbm(Data(contentsOf: folder.appendingPathComponent("\($0).pnm"))) }
        case "ghostscript":
            let result = try await Tool.run("gs", [
                "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=png16m", "-r\(dpi)", "-dTextAlphaBits=4", "-dGraphicsAlphaBits=4", "-dNOINTERPOLATE",
                "-dUseCropBox", "-sPageList=\(list)", "-sOutputFile=\(folder.path)/%d.png", file,
            ])
            guard result.status == 0 else { throw Failure(description: "gs failed: \(result.stderr)") }
            var drawn: [Netpbm] = []
            for number in 1...pages.count {
                drawn.append(try await Netpbm(Tool.run("pngtopnm", [folder.appendingPathComponent("\(number).png").path]).stdout))
            }
            return drawn
        default:
            var drawn: [Netpbm] = []
            for stretch in stretches(of: pages) {
                let stem = folder.appendingPathComponent("cairo").path
                let result = try await Tool.run("pdftocairo", ["-png", "-r", "\(dpi)", "-cropbox", "-f", "\(stretch.lowerBound)", "-l", "\(stretch.upperBound)", file, stem])
                guard result.status == 0 else { throw Failure(description: "pdftocairo failed: \(result.stderr)") }
                // pdftocairo names each page cairo-N.png, N padded with zeros to the page count's width.
                let written = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("cairo-") }
                let byPage = Dictionary(uniqueKeysWithValues: written.map { (Int($0.dropFirst(6).dropLast(4)) ?? 0, $0) })
                for page in stretch {
                    guard let name = byPage[page] else { throw Failure(description: "pdftocairo wrote no page \(page): \(written)") }
                    let path = folder.appendingPathComponent(name).path
                    drawn.append(try await Netpbm(Tool.run("pngtopnm", [path]).stdout))
                    try FileManager.default.removeItem(atPath: path)
                }
            }
            return drawn
        }
    }

    /// `pages` (ascending) as runs of consecutive numbers.
    private static func stretches(of pages: [Int]) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        for page in pages {
            if let last = runs.last, last.upperBound + 1 == page {
                runs[runs.count - 1] = last.lowerBound...page
            } else {
                runs.append(page...page)
            }
        }
        return runs
    }
}
