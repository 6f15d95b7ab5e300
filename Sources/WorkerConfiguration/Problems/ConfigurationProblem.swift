/// One thing wrong with the configuration, named by the key it concerns.
public struct ConfigurationProblem: Sendable, Hashable, CustomStringConvertible {
    /// The key path, e.g. `credentials[1].key_file` or `amqp.heartbeat`; empty for the file as a whole.
    public let path: String
    /// What is wrong and what is allowed. Never contains a password.
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`, or the message alone for the file as a whole.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
