/// `amqp.tls`: TLS towards the broker, used by `amqps://` URLs.
public struct AMQPTLSSection: Sendable, Hashable {
    /// A PEM file of CA certificates to trust for the broker.
    public var caFile: String? = nil
    /// A PEM client certificate, for brokers that authenticate clients by certificate (with ``keyFile``).
    public var certificateFile: String? = nil
    /// The PEM private key of ``certificateFile``.
    public var keyFile: String? = nil
    /// Verify the broker's certificate chain.
    public var verifyPeer: Bool = true
    /// Verify that the broker's certificate names the host connected to.
    public var verifyHostname: Bool = true

    /// The documented defaults.
    public init() {}
}
