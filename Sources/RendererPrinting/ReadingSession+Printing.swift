import Foundation
import RendererProvider

/// Printing the session's document through CUPS.
extension ReadingSession {
    /// Prints the document, with its unsaved changes, through `service`, when the
    /// `SessionFeature.printing` setting and the PDF's print permission
    /// allow it (`notPermitted` otherwise). With `SessionFeature.securePrinting`
    /// on, the job goes under a neutral name and only over an encrypted connection to a
    /// server on another machine; it is made in memory either way.
    public func print(options: PrintOptions = PrintOptions(), through service: PrintService = PrintService()) throws -> PrintJob {
        let title = URL(fileURLWithPath: file.displayPath).lastPathComponent
        return try withPrintableDocument { document, secure in
            try service.print(document, title: title, options: options, secure: secure)
        }
    }
}
