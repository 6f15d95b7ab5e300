/// How an `amqps://` connection verifies the broker and, optionally, proves who the client is.
///
/// Verification of the peer's chain and of its host name is on by default. Without ``caFile`` the system
/// bundle (`/etc/ssl/certs/ca-certificates.crt` and its usual siblings) is trusted.
public struct AMQPTLSOptions: Sendable, Hashable {
    /// PEM file of the certificate authorities to trust.
    public var caFile: String?
    /// PEM certificate chain presented to the broker; needs ``keyFile``.
    public var certificateFile: String?
    /// PEM private key of ``certificateFile``.
    public var keyFile: String?
    /// Check the broker's certificate chain against the trusted CAs (on by default).
    public var verifyPeer: Bool
    /// Check that the certificate names the endpoint's host (DNS names only; on by default).
    public var verifyHostname: Bool
    /// Log in with SASL EXTERNAL (the broker takes the identity from the client certificate) instead of PLAIN.
    public var usesExternalAuthentication: Bool

    /// Verification on, system CAs, no client certificate, PLAIN login.
    public init(caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil, verifyPeer: Bool = true, verifyHostname: Bool = true, usesExternalAuthentication: Bool = false) {
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.verifyPeer = verifyPeer
        self.verifyHostname = verifyHostname
        self.usesExternalAuthentication = usesExternalAuthentication
    }
}
