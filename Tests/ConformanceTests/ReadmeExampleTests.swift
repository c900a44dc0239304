import Foundation
import MuPDFRenderer
import PopplerRenderer
import RendererProvider
import Testing
import TestSupport

/// The Swift example of README.md, line for line between the markers below
/// (`Tests/Docs/test_examples.py` holds the README to them): it must build against the API
/// as it is, and it runs on a copy of the sample named as the example names it.
func readmeExample() throws {
    // README example begins
    let registry = RendererRegistry([MuPDFRenderer(), PopplerRenderer()])
    let document = try registry.open(.file("report.pdf"), password: nil, renderer: .auto)
    print(document.renderer.id, document.pageCount, try document.info().title ?? "untitled")

    let bitmap = try document.render(pageAt: 0, options: RenderOptions(dpi: 150))
    try document.write(bitmap, as: .png, to: "page1.png")          // written atomically
    let text = try document.text(pageAt: 0)                        // as the engine's own tool gives it
    let hits = try document.search("engines", pageAt: 2)           // each hit's quads on page 3
    try document.addAnnotation(Annotation(kind: .square, pageIndex: 0, rect: PageRect(x: 72, y: 72, width: 144, height: 36)))
    try document.save(to: "reviewed.pdf")                           // incremental where the file allows
    // README example ends
    guard text.contains("Renderer Provider Sample"), !hits.isEmpty else { throw RendererError(.invalidArgument, "the example read no text or no hit") }
}

@Suite struct ReadmeExampleTests {
    /// In a process of its own (the example works in the current directory): the page image
    /// and the annotated copy are written, and the copy holds the square.
    @Test func theReadmeExampleRuns() async {
        await #expect(processExitsWith: .success) {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Fixtures.samplePath, toPath: folder.appendingPathComponent("report.pdf").path)
            guard FileManager.default.changeCurrentDirectoryPath(folder.path) else { exit(2) }
            try readmeExample()
            guard FileManager.default.fileExists(atPath: "page1.png") else { exit(3) }
            let reviewed = try Fixtures.conformanceRegistry.open(.file(folder.appendingPathComponent("reviewed.pdf").path), renderer: .id("poppler"))
            guard try reviewed.annotations(pageAt: 0).contains(where: { $0.kind == .square }) else { exit(4) }
        }
    }
}
