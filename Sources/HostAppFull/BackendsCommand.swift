import ArgumentParser
import HostCommands
import RendererProvider

struct BackendsCommand: HostSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "renderers", abstract: "List the linked renderers with engine versions and capabilities.",
        aliases: ["backends"])

    @ParentCommand var hostApp: HostApp

    @Flag(help: "Print JSON.")
    var json = false
    @OptionGroup var globalArguments: GlobalArguments

    struct Entry: Encodable {
        var id: String
        var engine: String
        var version: String
        var contentTypes: [String]
        var capabilities: [String]
        /// Whether `--renderer auto` tries it; false for one chosen by name only.
        var chosenByAuto: Bool
    }

    func run() throws {
        let entries = global.registry().renderers.map { renderer in
            Entry(
                id: renderer.id, engine: renderer.engineName, version: renderer.engineVersion,
                contentTypes: renderer.contentTypes.map(\.rawValue).sorted(),
                capabilities: renderer.capabilities.sorted().map(\.rawValue), chosenByAuto: renderer.isChosenByAuto)
        }
        if json { return try JSONOutput.print(entries) }
        for entry in entries {
            print("\(entry.id)\t\(entry.engine) \(entry.version)")
            print("  opens:        \(entry.contentTypes.joined(separator: ", "))")
            print("  capabilities: \(entry.capabilities.joined(separator: ", "))")
            print("  auto:         \(entry.chosenByAuto ? "tried" : "not tried: chosen by name only")")
        }
    }
}
