import ArgumentParser
import HostCommands
import HostMCP
import RendererProvider

/// `hostapp mcp FOLDER`: the PDF documents of a folder offered to AI agents over the Model
/// Context Protocol, on standard input and output.
struct MCPCommand: AsyncReportingCommand, HostSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Offer the PDF documents of a folder to an AI agent over the Model Context Protocol (standard input and output).",
        discussion: """
            An MCP client (an agent, an editor) starts this command and speaks JSON-RPC on its standard input and output. \
            The tools list the folder's documents, give a document's facts, the text of pages, search hits with their boxes, \
            a page as a PNG image, the outline, the annotations and the form fields, and add annotations and fill forms \
            (saved into the file, atomically). Each document is also a resource holding its text. Only the PDF files under \
            the folder are served (hidden files and links out of it never); the global options apply to every call: the \
            renderer, the password, --settings (an agent cannot do what they forbid), the limits. docs/mcp.md lists the tools.
            """)

    @ParentCommand var hostApp: HostApp

    @Argument(help: "The folder whose PDF documents are served.", completion: .directory)
    var folder: String

    @Option(help: "The author written into the annotations agents add.")
    var author = "AI agent (hostapp mcp)"

    @OptionGroup var globalArguments: GlobalArguments

    func execute() async throws {
        if global.vault != nil { throw RendererError(.invalidArgument, "mcp serves a folder on the disk; leave out --vault") }
        // A server outlives its calls: the time between them is no engine's stall.
        var options = global
        options.endsOnStall = false
        try await AgentDocuments(folder: folder, global: options, author: author).serveOverStandardStreams()
    }
}
