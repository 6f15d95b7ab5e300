internal import COpenSSL

/// One TLS session over memory BIOs: ciphertext in and out as bytes, never a socket.
///
/// Not `Sendable`: an `SSL*` must be used by one thread at a time, so each instance belongs to the one
/// event loop (or thread) that drives its connection. The driver moves bytes: what the socket read goes
/// to ``receiveCiphertext(_:)``, and ``readCiphertext(into:)`` yields what the socket must write.
public final class TLSConnection {
    private let ssl: OpaquePointer
    private let readBIO: OpaquePointer
    private let writeBIO: OpaquePointer
    /// Keeps the `SSL_CTX` alive as long as the `SSL*` that refers to it.
    public let context: TLSContext
    /// True once the handshake has completed and ALPN agreed on a protocol of the context's (if it has any).
    public private(set) var isHandshakeComplete = false
    private var scratch = [UInt8](repeating: 0, count: 16 * 1024)

    /// - Parameter serverName: for clients, the host name to send as SNI and to verify the certificate
    ///   against (an IP address is verified as such and sent without SNI). Ignored for servers.
    public init(context: TLSContext, serverName: String? = nil) throws {
        guard let ssl = SSL_new(context.context) else {
            throw TLSError(.configuration, "cannot create a TLS session: \(OpenSSLError.drain("SSL_new"))")
        }
        guard let readBIO = BIO_new(BIO_s_mem()), let writeBIO = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw TLSError(.configuration, "cannot allocate memory BIOs")
        }
        _ = COpenSSL_BIO_set_mem_eof_return_retry(readBIO)
        SSL_set_bio(ssl, readBIO, writeBIO)  // the SSL now owns both BIOs
        self.ssl = ssl
        self.readBIO = readBIO
        self.writeBIO = writeBIO
        self.context = context
        if context.isClient {
            SSL_set_connect_state(ssl)
            if let serverName { try setServerName(serverName) }
        } else {
            SSL_set_accept_state(ssl)
        }
    }

    deinit {
        SSL_free(ssl)
    }

    private func setServerName(_ name: String) throws {
        let parameters = SSL_get0_param(ssl)
        guard context.verifiesHostName else {
            if !IPAddressText.isIPAddress(name) { _ = COpenSSL_SSL_set_tlsext_host_name(ssl, name) }
            return
        }
        if IPAddressText.isIPAddress(name) {
            guard X509_VERIFY_PARAM_set1_ip_asc(parameters, name) == 1 else {
                throw TLSError(.configuration, "cannot verify against IP address \(name)")
            }
        } else {
            guard COpenSSL_SSL_set_tlsext_host_name(ssl, name) == 1, SSL_set1_host(ssl, name) == 1 else {
                throw TLSError(.configuration, "cannot set server name \(name): \(OpenSSLError.drain("set SNI"))")
            }
        }
    }

    /// Hands the session bytes that arrived from the peer.
    public func receiveCiphertext(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        // A memory BIO grows as needed, so the write takes everything.
        _ = BIO_write(readBIO, bytes.baseAddress, Int32(bytes.count))
    }

    /// Advances the handshake with what has been received; true once it is complete.
    ///
    /// Throws `certificateVerificationFailed` when the peer's certificate does not verify, and
    /// `alpnMismatch` when the peer did not agree to HTTP/2.
    public func continueHandshake() throws -> Bool {
        guard !isHandshakeComplete else { return true }
        OpenSSLError.clearQueue()
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            if !context.applicationProtocols.isEmpty, !context.applicationProtocols.contains(negotiatedProtocol ?? "") {
                throw TLSError(.alpnMismatch, "the peer did not agree to \(context.applicationProtocols.joined(separator: " or ")) (ALPN: \(negotiatedProtocol ?? "none"))")
            }
            isHandshakeComplete = true
            return true
        }
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            return false
        default:
            let verify = SSL_get_verify_result(ssl)
            if verify == X509_V_ERR_HOSTNAME_MISMATCH || verify == X509_V_ERR_IP_ADDRESS_MISMATCH {
                throw TLSError(.hostNameMismatch, "certificate verification failed: \(String(cString: X509_verify_cert_error_string(verify)))")
            }
            if verify != X509_V_OK {
                throw TLSError(.certificateVerificationFailed, "certificate verification failed: \(String(cString: X509_verify_cert_error_string(verify)))")
            }
            throw TLSError(.protocolFailure, "handshake failed: \(OpenSSLError.drain("handshake"))")
        }
    }

    /// Decrypts everything available, handing each chunk to `body` (the buffer is valid during the call).
    ///
    /// - Returns: false when the peer sent close_notify (no more plaintext will come).
    @discardableResult
    public func readPlaintext(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        while true {
            OpenSSLError.clearQueue()
            let count = scratch.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if count > 0 {
                try scratch.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0.prefix(Int(count)))) }
                continue
            }
            switch SSL_get_error(ssl, count) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE: return true
            case SSL_ERROR_ZERO_RETURN: return false
            default: throw TLSError(.protocolFailure, "cannot decrypt: \(OpenSSLError.drain("SSL_read"))")
            }
        }
    }

    /// Decrypts into `buffer` as much as is available and fits: the count written (0 when more
    /// ciphertext is needed first), or nil once the peer sent close_notify.
    public func readPlaintext(into buffer: UnsafeMutableRawBufferPointer) throws -> Int? {
        var total = 0
        while total < buffer.count {
            OpenSSLError.clearQueue()
            let count = SSL_read(ssl, buffer.baseAddress! + total, Int32(clamping: buffer.count - total))
            if count > 0 {
                total += Int(count)
                continue
            }
            switch SSL_get_error(ssl, count) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE: return total
            case SSL_ERROR_ZERO_RETURN: return total > 0 ? total : nil
            default: throw TLSError(.protocolFailure, "cannot decrypt: \(OpenSSLError.drain("SSL_read"))")
            }
        }
        return total
    }

    /// Encrypts `bytes`; the ciphertext waits in ``pendingCiphertextCount`` for the driver.
    public func writePlaintext(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            OpenSSLError.clearQueue()
            let written = SSL_write(ssl, bytes.baseAddress! + offset, Int32(bytes.count - offset))
            guard written > 0 else {
                throw TLSError(.protocolFailure, "cannot encrypt: \(OpenSSLError.drain("SSL_write"))")
            }
            offset += Int(written)
        }
    }

    /// Bytes waiting to be written to the socket.
    public var pendingCiphertextCount: Int { Int(BIO_ctrl_pending(writeBIO)) }

    /// Moves up to `buffer.count` pending bytes into `buffer`; returns how many.
    public func readCiphertext(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard !buffer.isEmpty else { return 0 }
        return max(0, Int(BIO_read(writeBIO, buffer.baseAddress, Int32(buffer.count))))
    }

    /// Queues a close_notify alert; the driver writes it and then closes the socket.
    public func close() {
        OpenSSLError.clearQueue()
        if isHandshakeComplete { _ = SSL_shutdown(ssl) }
        OpenSSLError.clearQueue()
    }

    /// The protocol ALPN settled on, e.g. "h2".
    public var negotiatedProtocol: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// The verified certificate the peer presented, if any (servers: the client's provider certificate).
    public var peerCertificate: PeerCertificate? {
        guard let certificate = SSL_get1_peer_certificate(ssl) else { return nil }
        defer { X509_free(certificate) }
        return PeerCertificate(certificate)
    }
}
