import Foundation
import Logging
import RendererEngine

/// A PDF as Ghostscript reads it: the file it runs on, the password that opens it, and every
/// page's boxes and rotation, read once when it opens.
final class GhostscriptDocument: EngineDocument {
    let file: GhostscriptFile
    let logger: Logger
    /// The arguments that give a run the password, when there is one.
    let passwordArguments: [String]
    /// Each page's facts; nil for a page Ghostscript cannot read.
    let pages: [GhostscriptPageFacts?]

    init(source: DocumentSource, password: String?, logger: Logger) throws {
        file = try GhostscriptFile(source)
        self.logger = logger
        if let password {
            guard try GhostscriptPassword.opens(file, with: password) else {
                throw RendererError(
                    .wrongPassword, "the password given for \(source.displayName) is neither its user nor its owner password", rendererID: Ghostscript.rendererID)
            }
            passwordArguments = ["-sPDFPassword=\(password)"]
        } else {
            // An encrypted file reaches this process's Ghostscript only once a child has
            // opened it without a password: on a public encrypted file (pdf.js's
            // bug1782186.pdf) Ghostscript in process ended hostapp with SIGSEGV.
            if file.declaresEncryption, try !GhostscriptPassword.opens(file, with: "") {
                throw RendererError(.passwordRequired, "\(source.displayName) is encrypted: a password is needed to open it", rendererID: Ghostscript.rendererID)
            }
            passwordArguments = []
        }
        let run = try Ghostscript.run(
            ["-dNODISPLAY"] + file.readingArguments + passwordArguments, program: GhostscriptPageFacts.program,
            doing: "read \(source.displayName)", logger: logger)
        pages = GhostscriptPageFacts.pages(from: run.output)
        if pages.isEmpty && run.messages.contains("requires a password") {
            throw RendererError(.passwordRequired, "\(source.displayName) is encrypted: a password is needed to open it", rendererID: Ghostscript.rendererID)
        }
        guard !pages.isEmpty else {
            throw RendererError(
                .damaged, "\(source.displayName) is damaged: Ghostscript finds no pages in it", rendererID: Ghostscript.rendererID, engineMessage: run.messages)
        }
    }

    var pageCount: Int { pages.count }

    func loadPage(at index: Int) throws -> any EnginePage {
        guard let facts = pages[index] else {
            throw RendererError(.damaged, "Ghostscript cannot read page \(index + 1)", rendererID: Ghostscript.rendererID)
        }
        return GhostscriptPage(document: self, index: index, facts: facts)
    }

    /// The arguments that let a run read page `index` alone, with the crop box as the page.
    func pageArguments(_ index: Int) -> [String] {
        passwordArguments + ["-dUseCropBox", "-dFirstPage=\(index + 1)", "-dLastPage=\(index + 1)"]
    }
}
