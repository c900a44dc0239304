import Foundation
import RendererComparison
import RendererProvider
import Testing

/// Expects `pdf` to match the reference named `name` stored beside the test file
/// (`__References__/<test file>/<name>`; see ``ReferenceCheck``): its pages drawn with
/// `renderer` at `dpi` within `tolerance`, its text and its structure, as `aspects` says.
///
/// A mismatch records one issue per difference, saying which page and how much differs,
/// and attaches the expected, actual and difference images (Swift Testing's attachments);
/// the same files are written into the artifacts folder the issue names. A missing reference
/// is recorded (and the test fails once, saying so), as are all of them when `recording` or
/// the environment variable `RENDERER_TESTING_RECORD` says `all`.
public func expectPDF(
    _ pdf: some PDFSource, matchesReference name: String, renderer: String = TestingRenderers.defaultRenderer, dpi: Double = 72,
    aspects: DocumentSnapshot.Aspects = .all, tolerance: PixelTolerance = PixelTolerance(), recording: ReferenceRecording? = nil,
    filePath: StaticString = #filePath, sourceLocation: SourceLocation = #_sourceLocation
) {
    let folder = ReferenceCheck.folder(named: name, filePath: "\(filePath)")
    let check: ReferenceCheck
    do {
        check = try ReferenceCheck(pdf, reference: folder, renderer: renderer, dpi: dpi, aspects: aspects, tolerance: tolerance, recording: recording)
    } catch {
        Issue.record(error, "\(name): the PDF could not be checked", sourceLocation: sourceLocation)
        return
    }
    switch check.outcome {
    case .matched:
        break
    case .recorded:
        Issue.record("\(name): recorded the reference in \(folder.path); run the test again to compare with it", sourceLocation: sourceLocation)
    case .missing:
        Issue.record(
            "\(name): there is no reference in \(folder.path), and \(ReferenceRecording.environmentVariable) says not to record one",
            sourceLocation: sourceLocation)
    case .differs(let comparison):
        let place = check.artifacts.map { " (images in \($0.path))" } ?? ""
        for difference in comparison.differences {
            Issue.record("\(name): \(difference.message)\(place)", sourceLocation: sourceLocation)
            for (fileName, data) in (try? difference.attachments()) ?? [] {
                Attachment.record(Array(data), named: fileName, sourceLocation: sourceLocation)
            }
        }
    }
}

/// Expects the renderers `renderers` (by default MuPDF, Poppler and Ghostscript) to draw and
/// read `pdf` alike, as `hostapp compare` judges it (`DocumentComparer` with `thresholds`,
/// at `dpi`): an issue for each page on which one differs, naming the odd one out when the
/// others agree, with the heat map of where attached.
public func expectRenderersAgree(
    on pdf: some PDFSource, renderers: [String] = ["mupdf", "poppler", "ghostscript"], dpi: Double = 72,
    thresholds: ComparisonThresholds = ComparisonThresholds(), sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let agreement = try RendererAgreement(pdf, renderers: renderers, dpi: dpi, thresholds: thresholds)
        for disagreement in agreement.disagreements {
            Issue.record(Comment(rawValue: disagreement.message), sourceLocation: sourceLocation)
            if let heatMap = disagreement.heatMap, let data = try? heatMap.pngData() {
                Attachment.record(Array(data), named: "page-\(String(format: "%03d", disagreement.pageIndex + 1))-\(disagreement.renderer)-difference.png", sourceLocation: sourceLocation)
            }
        }
    } catch {
        Issue.record(error, "the renderers could not compare the PDF", sourceLocation: sourceLocation)
    }
}
