/// Why a private or public key could not be loaded or used.
public struct KeyError: Error, CustomStringConvertible, Sendable {
    /// The kind of failure, stable for callers that branch on it.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public var description: String { name }

        /// The key file could not be read.
        public static let unreadableFile = Code(name: "unreadableFile")
        /// The key file grants read access to group or others.
        public static let insecurePermissions = Code(name: "insecurePermissions")
        /// The text is not a PEM key OpenSSL can parse.
        public static let malformedKey = Code(name: "malformedKey")
        /// The key is not an elliptic-curve key.
        public static let notEllipticCurve = Code(name: "notEllipticCurve")
        /// The key is on a curve other than P-256.
        public static let wrongCurve = Code(name: "wrongCurve")
        /// A signature could not be produced or had an unexpected shape.
        public static let signingFailed = Code(name: "signingFailed")
    }

    public let code: Code
    /// Human-readable context: a path, a curve name, an OpenSSL reason. Never key material.
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
