import ArgumentParser
import RendererProvider

struct FontsCommand: DocumentCommand, ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "fonts", abstract: "List the fonts the document's pages use, as pdffonts does: name, kind, embedded, subset.")

    @ParentCommand var hostApp: HostApp

    @Flag(help: "Print JSON.")
    var json = false
    @OptionGroup var documentArguments: DocumentArguments

    func execute() throws {
        let fonts = try global.open(file).fonts()
        if json { return try JSONOutput.print(fonts) }
        if fonts.isEmpty { return print("(no fonts)") }
        let width = max(4, fonts.map { ($0.name ?? "[none]").count }.max() ?? 0)
        func row(_ cells: [String]) -> String {
            cells[0].rightPadded(to: width) + "  " + cells[1].rightPadded(to: 11) + "  " + cells[2] + "  " + cells[3]
        }
        print(row(["name", "kind", "emb", "sub"]))
        for font in fonts {
            print(row([font.name ?? "[none]", font.kind.rawValue, font.isEmbedded ? "yes" : "no ", font.isSubset ? "yes" : "no"]))
        }
    }
}
