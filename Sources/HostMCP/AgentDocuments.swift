import Foundation
import HostCommands
import MCP
import RendererProvider

#if canImport(Glibc)
import Glibc
#endif

/// The Model Context Protocol server of `hostapp mcp`: the PDF documents of one folder
/// offered to an agent over standard input and output, as ``DocumentTool``s and as
/// resources (one per document, its text).
///
/// An agent's call is a request from outside: it names a document by its path relative to
/// the folder (``DocumentFolder`` refuses anything else, links out of the folder among
/// them), its arguments are read strictly (``ToolArguments``), it runs under the global
/// options the command was given (renderer, password, settings, limits), and a failure is
/// the tool's error result, whose message names the document as the agent did and never
/// the server's paths. Engine work runs on ``EngineThreads``, off the protocol's tasks.
public struct AgentDocuments: Sendable {
    /// The served folder.
    let folder: DocumentFolder
    /// The options of the run, as the command line gives them.
    let global: GlobalOptions
    /// The author of the annotations agents add.
    let author: String

    /// The documents of `folder`, under `global`; throws `fileNotFound` when there is no
    /// folder there.
    package init(folder path: String, global: GlobalOptions, author: String) throws {
        guard let folder = DocumentFolder(path) else { throw RendererError(.fileNotFound, "\(path) is not a folder") }
        self.folder = folder
        self.global = global
        self.author = author
    }

    /// Serves the protocol on standard input and output until the client closes its end.
    /// Standard output then carries the protocol's messages alone: whatever else writes to
    /// it (an engine's chatter) goes to standard error.
    package func serveOverStandardStreams() async throws {
        let messages = dup(STDOUT_FILENO)
        dup2(STDERR_FILENO, STDOUT_FILENO)
        let server = Server(
            name: "hostapp", version: HostApp.projectVersion,
            instructions: "PDF documents of one folder: list them, read their text and outline, search them, see a page, list and add annotations, list and fill form fields.",
            capabilities: .init(resources: .init(subscribe: false, listChanged: false), tools: .init(listChanged: false)))
        await register(on: server)
        try await server.start(transport: StdioTransport(input: .standardInput, output: .init(rawValue: messages)))
        await server.waitUntilCompleted()
    }

    /// The handlers of the tools and resources.
    func register(on server: Server) async {
        let tools = DocumentTool.all
        await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: tools.map { $0.listed }) }
        await server.withMethodHandler(CallTool.self) { call in
            guard let tool = tools.first(where: { $0.name == call.name }) else {
                return Self.failure(RendererError(.invalidArgument, "there is no tool \"\(call.name.prefix(100))\""))
            }
            return await run(tool, call.arguments)
        }
        await server.withMethodHandler(ListResources.self) { _ in
            .init(resources: folder.documentNames().map { Resource(name: $0, uri: Self.uri(of: $0), description: "The text of \($0)", mimeType: "text/plain") }, nextCursor: nil)
        }
        await server.withMethodHandler(ReadResource.self) { request in
            guard let name = Self.name(ofURI: request.uri) else { throw MCPError.invalidParams("no document has the address \(request.uri.prefix(200))") }
            let result = await run(DocumentTool.text, ["document": .string(name)])
            let text = result.content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.first ?? ""
            guard result.isError != true else { throw MCPError.invalidParams(text) }
            return .init(contents: [.text(text, uri: request.uri, mimeType: "text/plain")])
        }
    }

    /// Runs `tool` with `arguments` on an engine thread; its failure as the error result.
    func run(_ tool: DocumentTool, _ arguments: [String: Value]?) async -> CallTool.Result {
        var name = "", path = ""
        do {
            let reader = try ToolArguments(arguments, accepted: tool.acceptedArguments, required: tool.required)
            if tool.namesDocument {
                name = try reader.requiredString("document", maximumLength: 4096)
                path = try resolve(name)
            }
            let context = ToolContext(path: path, name: name, documents: self)
            return try await EngineThreads.shared.run { _ in try tool.run(reader, context) }
        } catch let error as RendererError {
            return Self.failure(RendererError(error.code, scrubbed(error.message, path: path, name: name)))
        } catch {
            return Self.failure(RendererError(.engineFailure, "the tool failed (\(type(of: error)))"))
        }
    }

    /// The real path of the document `name` names; `fileNotFound` or `notPermitted` naming
    /// it as given otherwise.
    func resolve(_ name: String) throws -> String {
        do {
            return try folder.resolve(name)
        } catch {
            let shown = "\"\(name.prefix(200))\""
            switch error {
            case .notServed: throw RendererError(.fileNotFound, "no document \(shown) is in the served folder")
            case .outside: throw RendererError(.notPermitted, "\(shown) leads outside the served folder")
            case .notAFile: throw RendererError(.fileNotFound, "\(shown) is not a file")
            case .notPDF: throw RendererError(.notPermitted, "\(shown) is not a PDF document")
            }
        }
    }

    /// `message` with the document's real `path` (empty when none was resolved) and the
    /// served folder's path taken out, so that the document is named as the agent named it.
    func scrubbed(_ message: String, path: String, name: String) -> String {
        let prefix = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
        var result = message
        if !path.isEmpty { result = result.replacingOccurrences(of: path, with: name) }
        return result.replacingOccurrences(of: prefix, with: "").replacingOccurrences(of: folder.path, with: ".")
    }

    /// What every document's resource address starts with.
    static let resourcePrefix = "hostapp://documents/"

    /// A document's resource address.
    static func uri(of name: String) -> String {
        resourcePrefix + (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name)
    }

    /// The document a resource address names.
    static func name(ofURI uri: String) -> String? {
        guard uri.hasPrefix(resourcePrefix) else { return nil }
        return String(uri.dropFirst(resourcePrefix.count)).removingPercentEncoding
    }

    /// `error` as a tool's error result: its message as text, and its code and message as
    /// the structured answer.
    static func failure(_ error: RendererError) -> CallTool.Result {
        CallTool.Result(
            content: [.text(text: "error: \(error.message)", annotations: nil, _meta: nil)],
            structuredContent: .object(["code": .string(error.code.rawValue), "message": .string(error.message)]), isError: true)
    }
}
