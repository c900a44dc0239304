import Logging

/// A logger that drops everything: engines' warnings about damaged input are expected by
/// the thousand while fuzzing.
public let quietLogger = Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }
