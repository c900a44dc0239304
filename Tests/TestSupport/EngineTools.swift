import Foundation

/// A page drawn by an engine's own command-line tool, the witness the reference tests hold
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
        if backend == "mupdf" {
            let output = directory.appendingPathComponent("mutool.pnm").path
            let result = try await Tool.run("mutool", ["draw", "-q", "-c", "rgb", "-r", "\(dpi)", "-o", output, file, "\(page)"])
            guard result.status == 0 else { throw Failure(description: "mutool draw failed: \(result.stderr)") }
            return try Netpbm(Data(contentsOf: URL(fileURLWithPath: output)))
        }
        if backend == "ghostscript" {
            let output = directory.appendingPathComponent("gs.png").path
            let result = try await Tool.run("gs", [
                "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=png16m", "-r\(dpi)", "-dTextAlphaBits=4", "-dGraphicsAlphaBits=4", "-dNOINTERPOLATE",
                "-dUseCropBox", "-dFirstPage=\(page)", "-dLastPage=\(page)", "-sOutputFile=\(output)", file,
            ])
            guard result.status == 0 else { throw Failure(description: "gs failed: \(result.stderr)") }
            return try await Netpbm(Tool.run("pngtopnm", [output]).stdout)
        }
        let stem = directory.appendingPathComponent("cairo").path
        let result = try await Tool.run("pdftocairo", ["-png", "-r", "\(dpi)", "-cropbox", "-f", "\(page)", "-l", "\(page)", "-singlefile", file, stem])
        guard result.status == 0 else { throw Failure(description: "pdftocairo failed: \(result.stderr)") }
        return try await Netpbm(Tool.run("pngtopnm", [stem + ".png"]).stdout)
    }
}
