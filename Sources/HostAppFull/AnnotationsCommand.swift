import ArgumentParser
import HostCommands
import Foundation
import RendererProvider
import RendererProviderXFDF

struct AnnotationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "annotations",
        abstract: "List, add, change, remove, export and import annotations.",
        discussion: """
            Annotations are named by their identity (their PDF /NM name, or a key such as
            p1-Highlight-2). Geometry is in points from the top-left corner of the page as
            displayed. Changes are saved atomically to the file -o names, or over the input with --in-place.
            """,
        subcommands: [List.self, Add.self, Update.self, Remove.self, Export.self, Import.self])

    struct List: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the annotations: identity, kind, page, rectangle, contents.")

        @ParentCommand var hostApp: HostApp
        @OptionGroup var options: PageOptions
        @OptionGroup var documentArguments: DocumentArguments

        func execute() throws {
            let document = try global.open(file, needing: [.annotations])
            let numbering = try PageNumbering(document: document, useLabels: options.labels)
            let annotations = try options.indices(in: document).flatMap { try document.annotations(pageAt: $0) }
            if options.json {
                FileHandle.standardOutput.write(try Annotation.jsonData(annotations) + Data("\n".utf8))
                return
            }
            for a in annotations {
                let contents = a.contents.map { "  \"\($0.replacingOccurrences(of: "\n", with: " "))\"" } ?? ""
                print("\(a.id)  \(a.kind)  page \(numbering.name(a.pageIndex))  \(PageNumbering.describe(a.rect))\(contents)")
            }
        }
    }

    struct Add: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add an annotation and print its identity.")

        @ParentCommand var hostApp: HostApp
        @Option(help: "The page, 1-based.") var page: Int
        @Option(help: "text, freetext, highlight, underline, strikeout, squiggly, ink, square, circle, line, polygon, polyline or stamp.")
        var kind: String
        @OptionGroup var fields: AnnotationFieldOptions
        @Option(help: ArgumentHelp(
            "A JPEG or PNG picture for a stamp to show, fitted into --rect with its proportions kept.", valueName: "file"),
            completion: .file(extensions: ["jpg", "jpeg", "png"]))
        var image: String?
        @OptionGroup var saving: SaveOptions
        @OptionGroup var documentArguments: DocumentArguments

        func execute() throws {
            let kind = AnnotationKind(name: kind)
            guard kind.isCreatable else {
                throw RendererError(.invalidArgument, "unknown kind \"\(self.kind)\": use one of \(AnnotationKind.creatable.map { $0.rawValue.lowercased() }.joined(separator: ", "))")
            }
            let blank = Annotation(kind: kind, pageIndex: page - 1, rect: PageRect(x: 0, y: 0, width: 0, height: 0))
            guard let image else {
                print(try saving.edit(file, with: global) { try $0.addAnnotation(try fields.apply(to: blank)).id })
                return
            }
            guard kind == .stamp else { throw RendererError(.invalidArgument, "--image goes with --kind stamp") }
            let picture = try StampImage(contentsOfFile: image)
            print(try saving.edit(file, with: global) { try $0.addImageStamp(try fields.apply(to: blank), image: picture).id })
        }
    }

    struct Update: HostSubcommand, ReportingCommand {
        static let configuration = CommandConfiguration(commandName: "update", abstract: "Change the given fields of an annotation.")

        @ParentCommand var hostApp: HostApp
        @Argument(help: "The PDF file.", completion: .file(extensions: ["pdf"])) var file: String
        @Argument(help: "The annotation's identity.") var id: String
        @OptionGroup var fields: AnnotationFieldOptions
        @OptionGroup var saving: SaveOptions
        @OptionGroup var globalArguments: GlobalArguments

        func execute() throws {
            print(try saving.edit(file, with: global) { try $0.updateAnnotation(try fields.apply(to: $0.annotation(withID: id))).id })
        }
    }

    struct Remove: HostSubcommand, ReportingCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove an annotation.")

        @ParentCommand var hostApp: HostApp
        @Argument(help: "The PDF file.", completion: .file(extensions: ["pdf"])) var file: String
        @Argument(help: "The annotation's identity.") var id: String
        @OptionGroup var saving: SaveOptions
        @OptionGroup var globalArguments: GlobalArguments

        func execute() throws {
            try saving.edit(file, with: global) { try $0.removeAnnotation(withID: id) }
        }
    }

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json, plist, xfdf
    }

    struct Export: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(commandName: "export", abstract: "Write every annotation as JSON, a property list or XFDF.")

        @ParentCommand var hostApp: HostApp
        @Option(help: "json, plist or xfdf.") var format: Format = .json
        @Option(name: [.customShort("o"), .long], help: "Write to this file instead of standard output.") var output: String?
        @OptionGroup var documentArguments: DocumentArguments

        func execute() throws {
            let document = try global.open(file, needing: [.annotations])
            let annotations = try document.annotations()
            let data: Data
            switch format {
            case .json: data = try Annotation.jsonData(annotations) + Data("\n".utf8)
            case .plist: data = try Annotation.propertyListData(annotations)
            case .xfdf: data = try document.xfdfData(annotations, fileName: URL(fileURLWithPath: file).lastPathComponent)
            }
            try DataFiles.write(data, to: output)
        }
    }

    struct Import: HostSubcommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Add the annotations of a JSON, property-list or XFDF file.",
            discussion: "Annotations already in the document (same identity) are replaced. What the engine cannot keep is reported on stderr.")

        @ParentCommand var hostApp: HostApp
        @Argument(help: "The PDF file.", completion: .file(extensions: ["pdf"])) var file: String
        @Argument(help: "The annotations file (.json, .plist or .xfdf).") var annotationsFile: String
        @Option(help: "json, plist or xfdf (default: from the file's extension).") var format: Format?
        @OptionGroup var saving: SaveOptions
        @OptionGroup var globalArguments: GlobalArguments

        func execute() throws {
            let data = try DataFiles.read(annotationsFile)
            let extensionFormat = Format(rawValue: URL(fileURLWithPath: annotationsFile).pathExtension.lowercased())
            guard let format = format ?? extensionFormat else {
                throw RendererError(.invalidArgument, "cannot tell the format of \(annotationsFile) from its name; give --format")
            }
            let (result, engine) = try saving.edit(file, with: global) { session in
                let result: AnnotationImport
                switch format {
                case .json: result = try session.importAnnotations(Annotation.annotations(fromJSON: data))
                case .plist: result = try session.importAnnotations(Annotation.annotations(fromPropertyList: data))
                case .xfdf: result = try session.importXFDF(data)
                }
                return (result, try session.renderer.engineName)
            }
            for line in result.skipped { Failure.printError("skipped \(line)") }
            for (id, fields) in result.droppedFields.sorted(by: { $0.key < $1.key }) {
                Failure.printError("\(id): \(engine) cannot keep \(fields.map(\.rawValue).joined(separator: ", "))")
            }
            print("imported \(result.imported.count) annotation\(result.imported.count == 1 ? "" : "s")")
        }
    }
}
