import RendererProvider

/// The limits a request to this server meets, defined once: the page image's and the
/// comparison's highest resolution, the most pixels an image may have and the largest
/// picture width. The routes check requests against them, `/api/health` tells clients (the
/// viewer sizes its requests by them), and the served OpenAPI document states them.
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

    /// The comparison's own ceiling, below the page image's.
    static let comparisonCeilingDPI = 300.0
    /// The widest page image by width.
    static let widthCeiling = 50_000

    /// The limits of a server configured by `configuration`.
    init(_ configuration: ServerConfiguration) {
        maximumDPI = configuration.maximumDPI
        comparisonMaximumDPI = min(configuration.maximumDPI, Self.comparisonCeilingDPI)
        maximumPixelCount = configuration.maximumPixelCount
        maximumWidth = Self.widthCeiling
    }
}
