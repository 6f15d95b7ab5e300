/// How the client side of a TLS connection authenticates the server and, optionally, itself.
///
/// Server verification (chain and host name) is on unless ``verification`` says otherwise, which only
/// a broker connection an operator configured that way does: the APNs client never changes it. Tests
/// trust their own CA through ``additionalTrustedCAFile``.
public struct TLSClientConfiguration: Sendable, Hashable {
    /// How much of the server's identity is checked.
    public enum Verification: Sendable, Hashable {
        /// The chain against the trusted CAs, and the host name (or IP address) against the certificate.
        case full
        /// The chain only: any name the trusted CAs vouch for is accepted.
        case chainOnly
        /// Nothing: encryption without authentication (a test broker with a self-made certificate).
        case none
    }

    /// Trust the system's CA store (Debian: `/etc/ssl/certs`), as production APNs needs.
    public var trustsSystemStore: Bool
    /// A PEM file of extra CA certificates to trust as well (a private CA, or the mock server's).
    public var additionalTrustedCAFile: String?
    /// A client certificate for certificate-based provider authentication.
    public var identity: TLSIdentity?
    /// ALPN protocols to offer, most preferred first; empty for none (AMQP does not use ALPN). When
    /// given, the server must agree to one of them.
    public var applicationProtocols: [String]
    public var verification: Verification

    public init(
        trustsSystemStore: Bool = true,
        additionalTrustedCAFile: String? = nil,
        identity: TLSIdentity? = nil,
        applicationProtocols: [String] = ["h2"],
        verification: Verification = .full
    ) {
        self.trustsSystemStore = trustsSystemStore
        self.additionalTrustedCAFile = additionalTrustedCAFile
        self.identity = identity
        self.applicationProtocols = applicationProtocols
        self.verification = verification
    }
}

/// How the server side of a TLS connection presents itself and checks optional client certificates.
public struct TLSServerConfiguration: Sendable, Hashable {
    /// PEM: the server certificate followed by any intermediates.
    public var certificateChainFile: String
    /// PEM private key of the server certificate.
    public var privateKeyFile: String
    /// When set, clients may present a certificate issued by these CAs; without a certificate the
    /// handshake still succeeds (APNs accepts token-authenticated clients on the same port).
    public var clientCAFile: String?
    public var applicationProtocols: [String]

    public init(certificateChainFile: String, privateKeyFile: String, clientCAFile: String? = nil, applicationProtocols: [String] = ["h2"]) {
        self.certificateChainFile = certificateChainFile
        self.privateKeyFile = privateKeyFile
        self.clientCAFile = clientCAFile
        self.applicationProtocols = applicationProtocols
    }
}

/// A certificate and private key for client authentication.
///
/// Descriptions, debug output and reflection leave the PKCS#12 password out.
public enum TLSIdentity: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// A PKCS#12 bundle (`.p12`) and its password, as exported from Keychain Access.
    case pkcs12(path: String, password: String)
    /// A PEM certificate (chain) file and a PEM private key file.
    case pem(certificatePath: String, privateKeyPath: String)

    public var description: String {
        switch self {
        case .pkcs12(let path, _): "PKCS#12 \(path)"
        case .pem(let certificate, let key): "PEM \(certificate) + \(key)"
        }
    }

    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
