import Foundation

/// Hostile or unusual PDFs made by pypdf from a fixture, for the tests that state what they
/// are: pypdf is an independent writer, so what it makes is no engine's own reading.
public enum PypdfEdit {
    /// A script that exited with an error.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Writes to `output` a copy of the PDF `input` as the Python `script` changed it. The
    /// script finds the copy in `writer` (a `pypdf.PdfWriter` cloned from `input`) and the
    /// names of `pypdf.generic` imported; what it leaves in `writer` is written.
    public static func write(_ input: String, to output: String, _ script: String) async throws {
        let program = """
            import sys, pypdf
            from pypdf.generic import *
            writer = pypdf.PdfWriter(clone_from=sys.argv[1])
            \(script)
            writer.write(sys.argv[2])
            """
        let result = try await Tool.run("python3", ["-c", program, input, output])
        guard result.status == 0 else { throw Failure(description: "the pypdf script failed: \(result.stderr)") }
    }
}
