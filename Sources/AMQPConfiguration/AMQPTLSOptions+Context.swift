package import TLS

extension AMQPTLSOptions {
    /// The TLS context for `amqps` endpoints: the CA file (or the system store), the client certificate
    /// and key (a key readable by other accounts is refused, as every key the worker reads), and the
    /// verification asked for. Throws `.invalidArgument` naming the file at fault.
    package func makeContext() throws(AMQPError) -> TLSContext {
        var identity: TLSIdentity?
        switch (certificateFile, keyFile) {
        case (let certificate?, let key?): identity = .pem(certificatePath: certificate, privateKeyPath: key)
        case (nil, nil): identity = nil
        default: throw AMQPError(.invalidArgument, operation: "configure TLS", message: "a client certificate needs both a certificate file and a key file")
        }
        let verification: TLSClientConfiguration.Verification = !verifyPeer ? .none : verifyHostname ? .full : .chainOnly
        let configuration = TLSClientConfiguration(
            trustsSystemStore: caFile == nil, additionalTrustedCAFile: caFile, identity: identity, applicationProtocols: [], verification: verification
        )
        do {
            return try TLSContext(client: configuration)
        } catch {
            let operation = caFile.map { "load CA file \($0) and the client certificate" } ?? "configure TLS"
            throw AMQPError(.invalidArgument, operation: operation, message: (error as? TLSError)?.message ?? (error as? KeyError)?.message ?? "\(error)")
        }
    }

    /// Throws what ``makeContext()`` would: for `check-config`, before any connection.
    public func validate() throws(AMQPError) {
        _ = try makeContext()
    }
}
