import ArgumentParser
import HostCommands
import RendererProvider

struct RedactCommand: DocumentCommand, ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "redact", abstract: "Remove what lies under areas of a page: mark them and apply every redaction mark.",
        discussion: """
            Areas are in points from the top-left corner of the page as displayed. The marks given with \
            --area, and those already in the file, are applied: the text whose glyphs touch them and the \
            image pixels under them are removed from the file (vector paths stay), and a black box is drawn \
            over each unless --no-black-boxes. The result is saved atomically and rewritten (never as an \
            update that would keep the original bytes) to the file -o names, or over the input with --in-place. MuPDF only.
            """)

    @ParentCommand var hostApp: HostApp
    @Option(help: "The page of the areas, 1-based.") var page: Int?
    @Option(help: ArgumentHelp("An area to redact on --page: x,y,width,height. Repeatable.", valueName: "x,y,w,h"))
    var area: [String] = []
    @Flag(help: "Leave the areas blank instead of drawing black boxes over them.") var noBlackBoxes = false
    @OptionGroup var saving: SaveOptions
    @OptionGroup var documentArguments: DocumentArguments

    func validate() throws {
        if !area.isEmpty, page == nil { throw ValidationError("--area needs --page") }
    }

    func execute() throws {
        let areas = try area.map { try AnnotationFieldOptions.rectangle($0, option: "--area") }
        let applied = try saving.edit(file, with: global) { session in
            for area in areas { try session.markRedaction(area, onPageAt: (page ?? 1) - 1) }
            return try session.applyRedactions(blackBoxes: !noBlackBoxes)
        }
        print(applied.isEmpty ? "no redaction marks" : "redacted page\(applied.count == 1 ? "" : "s") \(applied.map { String($0 + 1) }.joined(separator: ", "))")
    }
}
