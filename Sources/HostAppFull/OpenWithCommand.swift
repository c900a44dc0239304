import ArgumentParser
import Foundation
import HostCommands
import RendererDesktop
import RendererProvider

/// "Open with": the applications the desktop offers for a document, and handing it to one.
struct OpenWithCommand: HostSubcommand, ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "open-with", abstract: "List the applications that open a document (the default first), or hand it to one.",
        discussion: """
            The document's type comes from freedesktop.org's shared MIME database and the applications from the installed \
            desktop entries, as a file manager finds them (through GIO). --app hands the file to the entry with that id.
            """)

    @ParentCommand var hostApp: HostApp

    @Argument(help: "The document.", completion: .file()) var file: String
    @Option(help: ArgumentHelp("Open the document with this application (a desktop entry id from the list).", valueName: "id")) var app: String?
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var globalArguments: GlobalArguments

    struct Report: Encodable {
        var file: String
        var contentType: String
        var typeDescription: String?
        var applications: [DocumentInteraction.Application]
    }

    func execute() throws {
        let interaction = try DocumentInteraction(path: file)
        if let app {
            try interaction.open(with: app)
            return print("opened \(interaction.name) with \(app)")
        }
        let applications = interaction.applications()
        if json {
            return try JSONOutput.print(Report(file: file, contentType: interaction.contentType, typeDescription: interaction.typeDescription, applications: applications))
        }
        print("\(interaction.name): \(interaction.typeDescription ?? interaction.contentType) (\(interaction.contentType))")
        if applications.isEmpty { return print("(no application opens it)") }
        for application in applications {
            print("\(application.isDefault ? "*" : " ") \(application.id)  \(application.name)")
        }
    }
}
