import ArgumentParser
import RendererProvider

/// `--png-encoder`, `--png-level` and `--png-filter`: how `hostapp render` writes PNG files.
struct PNGOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "PNG encoder: fast (the provider's, over libdeflate) or engine (MuPDF's or cairo's own, over zlib).", valueName: "fast|engine"))
    var pngEncoder: PNGEncoding.Encoder = PNGEncoding().encoder

    @Option(help: ArgumentHelp(
        "The fast encoder's compression level, 0 (none) to 12 (smallest, slowest); BENCHMARKS.md gives the trade-off.", valueName: "level"))
    var pngLevel: Int = PNGEncoding().level

    @Option(help: ArgumentHelp("The fast encoder's row filter.", valueName: PNGEncoding.Filter.allCases.map(\.rawValue).joined(separator: "|")))
    var pngFilter: PNGEncoding.Filter = PNGEncoding().filter

    @Flag(help: "Write the bitmap's own channels, even when a page is all gray or all opaque (the fast encoder).")
    var pngKeepChannels = false

    func validate() throws {
        guard PNGEncoding.levels.contains(pngLevel) else {
            throw ValidationError("--png-level must be from \(PNGEncoding.levels.lowerBound) to \(PNGEncoding.levels.upperBound)")
        }
    }

    var encoding: PNGEncoding {
        PNGEncoding(encoder: pngEncoder, level: pngLevel, filter: pngFilter, reducesChannels: !pngKeepChannels)
    }
}

extension PNGEncoding.Encoder: ExpressibleByArgument {}
extension PNGEncoding.Filter: ExpressibleByArgument {}
