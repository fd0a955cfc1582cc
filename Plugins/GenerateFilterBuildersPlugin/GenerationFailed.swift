/// The tool exited with a failure status (its own message is on standard error).
struct GenerationFailed: Error, CustomStringConvertible {
    /// The tool's exit status.
    let status: Int32
    /// What `swift package` prints.
    var description: String { "GenerateFilterBuilders exited with status \(status)" }
}
