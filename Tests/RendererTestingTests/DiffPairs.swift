import Foundation
import TestSupport

/// The document pairs of Tests/Fixtures/DiffPairs, made by its make-diff-pairs.py, which
/// states what each variant changes in base.pdf.
enum DiffPairs {
    /// The file URL of `name`.pdf in the pairs' folder.
    static func url(_ name: String) -> URL {
        URL(fileURLWithPath: Fixtures.path("DiffPairs/\(name).pdf"))
    }
}
