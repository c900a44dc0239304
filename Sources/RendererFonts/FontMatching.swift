import CFontconfig
import Foundation
import RendererEngine

extension FontFace {
    /// The font fontconfig ranks best for `text` among the installed TrueType fonts that
    /// draw every character of it (Debian's DejaVu Sans for Latin, Greek, Cyrillic and
    /// Arabic, Droid Sans Fallback for Chinese, Japanese and Korean); `invalidArgument` naming
    /// the characters when none does.
    public static func covering(_ text: String) throws -> FontFace {
        let needed = Set(text.unicodeScalars.filter { !$0.properties.isWhitespace && $0.properties.generalCategory != .format })
        let found: FontFace? = fontconfig.withLock { _ in
            guard let pattern = FcPatternCreate() else { return nil }
            defer { FcPatternDestroy(pattern) }
            let characters = FcCharSetCreate()
            defer { FcCharSetDestroy(characters) }
            for scalar in needed { FcCharSetAddChar(characters, scalar.value) }
            FcPatternAddCharSet(pattern, FC_CHARSET, characters)
            FcPatternAddBool(pattern, FC_SCALABLE, FcTrue)
            FcConfigSubstitute(nil, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            guard let sorted = FcFontSort(nil, pattern, FcTrue, nil, &result) else { return nil }
            defer { FcFontSetDestroy(sorted) }
            for index in 0..<Int(sorted.pointee.nfont) {
                guard let candidate = sorted.pointee.fonts[index] else { continue }
                var file: UnsafeMutablePointer<FcChar8>?
                var faceIndex: Int32 = 0
                var covered: OpaquePointer?
                guard FcPatternGetString(candidate, FC_FILE, 0, &file) == FcResultMatch, let file,
                    FcPatternGetCharSet(candidate, FC_CHARSET, 0, &covered) == FcResultMatch, FcCharSetIsSubset(characters, covered) != 0
                else { continue }
                _ = FcPatternGetInteger(candidate, FC_INDEX, 0, &faceIndex)
                if let face = try? FontFace(path: String(cString: file), index: Int(faceIndex)) { return face }
            }
            return nil
        }
        guard let found else {
            let listed = needed.sorted { $0.value < $1.value }.prefix(8).map { String(format: "U+%04X", $0.value) }.joined(separator: ", ")
            throw RendererError(.invalidArgument, "no installed TrueType font draws every character of the text (\(listed))")
        }
        return found
    }

    /// fontconfig's default configuration is read once; its calls are made one at a time.
    private static let fontconfig = Locked(FcInit())
}
