import ArgumentParser
import Logging

/// How hostapp writes its messages on standard error (the global `--log-level` and
/// `--log-format`): the engines', the server's and the engine processes' alike.
package struct LogSettings: Sendable, Equatable {
    /// The lowest level written.
    package var level: Logger.Level
    /// How each message is written.
    package var format: LogFormat

    package init(level: Logger.Level, format: LogFormat) {
        (self.level, self.format) = (level, format)
    }
}

/// How a message is written on standard error.
package enum LogFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
    /// A line of text: swift-log's `StreamLogHandler`.
    case text
    /// A JSON object a line, for a log collector (``JSONLogHandler``).
    case json
}

extension Logger {
    /// A logger to standard error labelled `label`, writing as `settings` say. With `engine`,
    /// its messages carry the metadata `engine` = that id: the logger of the renderer of that
    /// id. The engine is given by a metadata provider, read only when a message is logged;
    /// metadata set on the handler would be formatted at once, a measurable part of a
    /// thumbnail run.
    package static func hostapp(_ label: String = "hostapp", engine id: String? = nil, _ settings: LogSettings) -> Logger {
        let engine = id.map { id in Logger.MetadataProvider { ["engine": "\(id)"] } }
        var logger = Logger(label: label) { label in
            switch settings.format {
            case .text: StreamLogHandler.standardError(label: label, metadataProvider: engine)
            case .json: JSONLogHandler(label: label, metadataProvider: engine)
            }
        }
        logger.logLevel = settings.level
        return logger
    }
}
