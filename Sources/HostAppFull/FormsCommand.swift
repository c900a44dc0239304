import ArgumentParser
import HostCommands
import RendererProvider

struct FormsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forms", abstract: "List the fields of a document's interactive form.", subcommands: [List.self])

    struct List: HostSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the form's fields: name, kind, value, flags, options and widgets.",
            discussion: "Rectangles are in points from the top-left corner of the page as displayed.")

        @OptionGroup var globalArguments: GlobalArguments
        @ParentCommand var hostApp: HostApp
        @Argument(help: "The PDF file.", completion: .file(extensions: ["pdf"])) var file: String
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try Failure.reporting {
                let fields = try global.open(file, needing: [.forms]).formFields()
                if json { return try JSONOutput.print(fields) }
                if fields.isEmpty { print("(no form fields)") }
                for field in fields {
                    let flags = [(FormField.Flags.readOnly, "read-only"), (.required, "required"), (.multiline, "multiline"), (.password, "password"),
                                 (.multiSelect, "multi-select"), (.editable, "editable")].filter { field.flags.contains($0.0) }.map(\.1)
                    let value = field.kind == .signature ? "" : " = " + (field.values.count > 1 ? field.values.joined(separator: ", ") : field.value ?? "(none)")
                    print("\(field.name)  \(field.kind.rawValue)\(value)\(flags.isEmpty ? "" : "  [\(flags.joined(separator: ", "))]")")
                    if !field.options.isEmpty {
                        print("  options: " + field.options.map { $0.value == $0.label ? $0.value : "\($0.value) (\($0.label))" }.joined(separator: ", "))
                    }
                    for widget in field.widgets {
                        let place = widget.pageIndex.map { "page \($0 + 1)" } ?? "no page"
                        let rect = widget.rect.map { " at " + PageNumbering.describe($0) } ?? ""
                        print("  widget: \(place)\(rect)\(widget.onState.map { " on \($0)" } ?? "")")
                    }
                }
            }
        }
    }
}
