import ArgumentParser
import RendererProvider

/// `--png-level`, `--png-filter` and `--png-keep-channels`: how `hostapp render` writes PNG files.
struct PNGOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The PNG encoder's compression level, 0 (none) to 12 (smallest, slowest); BENCHMARKS.md gives the trade-off.", valueName: "level"))
    var pngLevel: Int = PNGEncoding().level

    @Option(help: ArgumentHelp("The PNG encoder's row filter.", valueName: PNGEncoding.Filter.allCases.map(\.rawValue).joined(separator: "|")))
    var pngFilter: PNGEncoding.Filter = PNGEncoding().filter

    @Flag(help: "Write the bitmap's own channels in PNG files, even when a page is all gray or all opaque.")
    var pngKeepChannels = false

    func validate() throws {
        guard PNGEncoding.levels.contains(pngLevel) else {
            throw ValidationError("--png-level must be from \(PNGEncoding.levels.lowerBound) to \(PNGEncoding.levels.upperBound)")
        }
    }

    var encoding: PNGEncoding {
        PNGEncoding(level: pngLevel, filter: pngFilter, reducesChannels: !pngKeepChannels)
    }
}

/// How `hostapp render` encodes each page's image file: PNG's settings and JPEG's quality.
struct ImageEncoding: Sendable {
    var png: PNGEncoding
    var jpegQuality: Int
}

extension PNGEncoding.Filter: ExpressibleByArgument {}
