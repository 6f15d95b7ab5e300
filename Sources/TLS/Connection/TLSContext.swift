internal import COpenSSL

/// A configured OpenSSL `SSL_CTX`: the shared, immutable part of many TLS connections.
///
/// `@unchecked Sendable`: the `SSL_CTX` is fully configured in the initializer and never changed after,
/// and OpenSSL allows `SSL_new` on one context from several threads at once.
public final class TLSContext: @unchecked Sendable {
    let context: OpaquePointer
    /// Whether connections made from this context are clients (verify the server, send SNI).
    let isClient: Bool
    /// The ALPN protocols offered or accepted; a handshake must settle on one unless this is empty.
    let applicationProtocols: [String]
    /// Whether a client checks the server's host name (with the chain: see ``TLSClientConfiguration/Verification``).
    let verifiesHostName: Bool

    /// A client context: TLS 1.2+, ALPN, server verification against the system store and the extra CA.
    public init(client configuration: TLSClientConfiguration) throws {
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw TLSError(.configuration, "cannot create a TLS context: \(OpenSSLError.drain("SSL_CTX_new"))")
        }
        self.context = context
        isClient = true
        applicationProtocols = configuration.applicationProtocols
        verifiesHostName = configuration.verification == .full
        try applyCommonSettings(protocols: configuration.applicationProtocols, allowingNone: true)
        SSL_CTX_set_verify(context, configuration.verification == .none ? SSL_VERIFY_NONE : SSL_VERIFY_PEER, nil)
        if configuration.trustsSystemStore, SSL_CTX_set_default_verify_paths(context) != 1 {
            throw TLSError(.configuration, "cannot load the system trust store: \(OpenSSLError.drain("load system CAs"))")
        }
        if let file = configuration.additionalTrustedCAFile, SSL_CTX_load_verify_locations(context, file, nil) != 1 {
            throw TLSError(.configuration, "cannot load CA file \(file): \(OpenSSLError.drain("load CA file"))")
        }
        guard configuration.trustsSystemStore || configuration.additionalTrustedCAFile != nil else {
            throw TLSError(.configuration, "no trusted CAs: enable the system store or give a CA file")
        }
        if let identity = configuration.identity {
            try ClientIdentityLoader.install(identity, into: context)
        }
        if !configuration.applicationProtocols.isEmpty {
            let alpn = ALPN.wireFormat(configuration.applicationProtocols)
            guard SSL_CTX_set_alpn_protos(context, alpn, UInt32(alpn.count)) == 0 else {
                throw TLSError(.configuration, "cannot set ALPN: \(OpenSSLError.drain("set ALPN"))")
            }
        }
    }

    /// A server context: certificate chain and key, TLS 1.2+, ALPN selection, optional client certificates.
    public init(server configuration: TLSServerConfiguration) throws {
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw TLSError(.configuration, "cannot create a TLS context: \(OpenSSLError.drain("SSL_CTX_new"))")
        }
        self.context = context
        isClient = false
        applicationProtocols = configuration.applicationProtocols
        verifiesHostName = false
        try applyCommonSettings(protocols: configuration.applicationProtocols, allowingNone: false)
        guard SSL_CTX_use_certificate_chain_file(context, configuration.certificateChainFile) == 1 else {
            throw TLSError(.configuration, "cannot load certificate chain \(configuration.certificateChainFile): \(OpenSSLError.drain("load chain"))")
        }
        let keyText = try KeyFile.read(path: configuration.privateKeyFile, allowGroupOrOtherAccess: true)
        let key = try PEMReader.privateKey(keyText)
        defer { EVP_PKEY_free(key) }
        guard SSL_CTX_use_PrivateKey(context, key) == 1, SSL_CTX_check_private_key(context) == 1 else {
            throw TLSError(.configuration, "the server key does not match its certificate: \(OpenSSLError.drain("load key"))")
        }
        if let clientCA = configuration.clientCAFile {
            guard SSL_CTX_load_verify_locations(context, clientCA, nil) == 1 else {
                throw TLSError(.configuration, "cannot load client CA file \(clientCA): \(OpenSSLError.drain("load client CA"))")
            }
            // Ask for a certificate but let token-authenticated clients in without one.
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        }
        ALPN.installServerSelection(on: context)
    }

    deinit {
        SSL_CTX_free(context)
    }

    private func applyCommonSettings(protocols: [String], allowingNone: Bool) throws {
        guard COpenSSL_SSL_CTX_set_min_proto_version_tls12(context) == 1 else {
            throw TLSError(.configuration, "cannot require TLS 1.2: \(OpenSSLError.drain("set minimum version"))")
        }
        _ = COpenSSL_SSL_CTX_set_mode_partial_writes(context)
        _ = COpenSSL_SSL_CTX_set_hardening_options(context)
        guard allowingNone || !protocols.isEmpty, protocols.allSatisfy({ !$0.isEmpty && $0.utf8.count < 256 }) else {
            throw TLSError(.configuration, "ALPN protocol names must be 1 to 255 bytes")
        }
    }
}
