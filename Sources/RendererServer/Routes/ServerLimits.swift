import RendererProvider

/// The limits a request to this server meets, defined once: the page image's and the
/// comparison's highest resolution, the most pixels an image may have and the largest
/// picture width, and the resolution its viewer draws a screen's pages at. The routes check
/// requests against them, `/api/health` tells clients (the viewer sizes its requests by
/// them and holds none of its own), and the served OpenAPI document states them.
struct ServerLimits: Codable, Sendable {
    /// The highest resolution a page image is drawn at (the configuration's, by default the
    /// library's ``RenderOptions/defaultMaximumDPI``).
    var maximumDPI: Double
    /// The highest resolution of a comparison of the engines' drawings, which draws a page
    /// once per engine and once more for the difference.
    var comparisonMaximumDPI: Double
    /// The most pixels one drawn page may have.
    var maximumPixelCount: Int
    /// The widest page image a request may ask for by width, in pixels.
    var maximumWidth: Int
    /// The highest resolution the viewer draws a page for the screen at, however far it
    /// zooms: a letter page at 600 dpi takes 130 MB in the browser.
    var screenMaximumDPI: Double
    /// The most pages one request for text with its structure reads.
    var structurePages: Int

    /// The comparison's own ceiling, below the page image's.
    static let comparisonCeilingDPI = 300.0
    /// The widest page image by width.
    static let widthCeiling = 50_000
    /// The screen's ceiling, below the page image's.
    static let screenCeilingDPI = 600.0
    /// The most pages one request for text with its structure reads.
    static let structurePageCeiling = 200

    /// The limits of a server configured by `configuration`.
    init(_ configuration: ServerConfiguration) {
        maximumDPI = configuration.maximumDPI
        comparisonMaximumDPI = min(configuration.maximumDPI, Self.comparisonCeilingDPI)
        maximumPixelCount = configuration.maximumPixelCount
        maximumWidth = Self.widthCeiling
        screenMaximumDPI = min(configuration.maximumDPI, Self.screenCeilingDPI)
        structurePages = Self.structurePageCeiling
    }
}
