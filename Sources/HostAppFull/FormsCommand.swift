import ArgumentParser
import Foundation
import HostCommands
import RendererProvider
import RendererProviderXFDF

struct FormsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forms", abstract: "List, fill, reset, flatten and export a document's interactive form.",
        subcommands: [List.self, Fill.self, Reset.self, Flatten.self, Export.self])

    /// Prints how many fields `verb` changed, and their names.
    static func report(_ verb: String, _ changed: [FormField]) {
        print("\(verb) \(changed.count) field\(changed.count == 1 ? "" : "s")" + (changed.isEmpty ? "" : ": " + changed.map(\.name).joined(separator: ", ")))
    }

    /// The formats form values are exchanged in.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json, fdf, xfdf

        /// The format of `data`, told by its first bytes: `%FDF`, `<` (XML) or `{`.
        init(sniffing data: Data) throws {
            let start = String(decoding: data.prefix(64), as: UTF8.self).drop { $0.isWhitespace || $0 == "\u{FEFF}" }
            if start.hasPrefix("%FDF") {
                self = .fdf
            } else if start.hasPrefix("<") {
                self = .xfdf
            } else if start.hasPrefix("{") {
                self = .json
            } else {
                throw RendererError(.invalidArgument, "the values file is neither FDF, XFDF nor a JSON object")
            }
        }

        func values(from data: Data) throws -> FormValues {
            switch self {
            case .fdf: return try FormValues(fdf: data)
            case .xfdf: return try FormValues(xfdf: data)
            case .json:
                do {
                    return try JSONDecoder().decode(FormValues.self, from: data)
                } catch {
                    throw RendererError(.invalidArgument, "the JSON is not an object of field names to a string, an array of strings or null")
                }
            }
        }

        func data(of values: FormValues, fileName: String) throws -> Data {
            switch self {
            case .fdf: values.fdfData(fileName: fileName)
            case .xfdf: values.xfdfData(fileName: fileName)
            case .json: try JSONOutput.data(values) + Data("\n".utf8)
            }
        }
    }

    struct List: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the form's fields: name, kind, value, flags, options and widgets.",
            discussion: "Rectangles are in points from the top-left corner of the page as displayed.")

        @ParentCommand var hostApp: HostApp
        @Flag(help: "Print JSON.") var json = false
        @OptionGroup var documentArguments: DocumentArguments

        func execute() throws {
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

    struct Fill: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "fill", abstract: "Set fields' values, given one by one or in a JSON, FDF or XFDF file.",
            discussion: """
                Every value is checked against its field before anything is set (an unknown field, a read-only \
                field, a choice outside the options, a text past the field's length: nothing is written). A \
                field given the value it holds is left alone. The widgets are redrawn with their new values, \
                and the result is saved atomically to the file -o names, or over the input with --in-place.
                """)

        @ParentCommand var hostApp: HostApp
        @Option(
            name: .customLong("set"),
            help: ArgumentHelp("A field's value: name=value. Repeat a name to choose several options.", valueName: "name=value"))
        var assignments: [String] = []
        @Option(help: ArgumentHelp("A file of values: JSON, FDF or XFDF (told by its content).", valueName: "file"))
        var values: String?
        @OptionGroup var saving: SaveOptions
        @OptionGroup var documentArguments: DocumentArguments

        func validate() throws {
            if assignments.isEmpty, values == nil { throw ValidationError("give --set name=value or --values file") }
        }

        func execute() throws {
            var filled = [String: [String]]()
            if let values {
                let data = try DataFiles.read(values)
                filled = try Format(sniffing: data).values(from: data).dictionary
            }
            var set = [String: [String]]()
            for assignment in assignments {
                guard let equals = assignment.firstIndex(of: "=") else {
                    throw RendererError(.invalidArgument, "--set takes name=value, not \(assignment)")
                }
                set[String(assignment[..<equals]), default: []].append(String(assignment[assignment.index(after: equals)...]))
            }
            filled.merge(set) { _, given in given }
            let changed = try saving.edit(file, with: global) { try $0.fillForm(filled) }
            FormsCommand.report("changed", changed)
        }
    }

    struct Reset: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset", abstract: "Give fields their default values, clearing those that have none.",
            discussion: "With no --field, every field that is not read-only is reset. Saved as fill saves.")

        @ParentCommand var hostApp: HostApp
        @Option(help: ArgumentHelp("A field to reset, by its full name. Repeatable.", valueName: "name")) var field: [String] = []
        @OptionGroup var saving: SaveOptions
        @OptionGroup var documentArguments: DocumentArguments

        func execute() throws {
            let changed = try saving.edit(file, with: global) { try $0.resetForm(fields: field.isEmpty ? nil : field) }
            FormsCommand.report("reset", changed)
        }
    }

    struct Flatten: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "flatten", abstract: "Draw the fields into the pages as they are shown, then remove the form.",
            discussion: "The values stay on the pages and can no longer be changed. Saved as fill saves. MuPDF only.")

        @ParentCommand var hostApp: HostApp
        @OptionGroup var saving: SaveOptions
        @OptionGroup var documentArguments: DocumentArguments

        func execute() throws {
            try saving.edit(file, with: global) { try $0.flattenForm() }
            print("flattened the form")
        }
    }

    struct Export: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "export", abstract: "Write the values of every field that takes one as JSON, FDF or XFDF.",
            discussion: "The file can be filled into the same form, or another with the same field names, with forms fill --values.")

        @ParentCommand var hostApp: HostApp
        @Option(help: "json, fdf or xfdf.") var format: Format = .json
        @Option(name: [.customShort("o"), .long], help: "Write to this file instead of standard output.") var output: String?
        @OptionGroup var documentArguments: DocumentArguments

        func execute() throws {
            let values = try global.open(file, needing: [.forms]).formValues()
            try DataFiles.write(try format.data(of: values, fileName: URL(fileURLWithPath: file).lastPathComponent), to: output)
        }
    }
}
