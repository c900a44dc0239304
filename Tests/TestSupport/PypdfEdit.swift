import Foundation

/// Hostile or unusual PDFs made by pypdf from a fixture, for the tests that state what they
/// are: pypdf is an independent writer, so what it makes is no engine's own reading.
public enum PypdfEdit {
    /// A script that exited with an error.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A copy made by ``copy(of:named:_:)``, in a temporary folder of its own.
    public struct Copy: Sendable {
        /// The copy's path.
        public let path: String
        /// Its folder, where a test may write more files.
        public let folder: URL

        /// Removes the folder, the copy and all.
        public func remove() {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// Writes a copy of the PDF `input`, named `name`, as the Python `script` changed it,
    /// into a new temporary folder. The script finds the copy in `writer` (a
    /// `pypdf.PdfWriter` cloned from `input`) and the names of `pypdf.generic` imported; what
    /// it leaves in `writer` is written. The caller removes it (``Copy/remove()``).
    public static func copy(of input: String, named name: String, _ script: String) async throws -> Copy {
        let folder = try Tool.temporaryDirectory()
        let copy = Copy(path: folder.appendingPathComponent(name).path, folder: folder)
        let program = """
            import sys, pypdf
            from pypdf.generic import *
            writer = pypdf.PdfWriter(clone_from=sys.argv[1])
            \(script)
            writer.write(sys.argv[2])
            """
        let result = try await Tool.run("python3", ["-c", program, input, copy.path])
        guard result.status == 0 else {
            copy.remove()
            throw Failure(description: "the pypdf script failed: \(result.stderr)")
        }
        return copy
    }
}
