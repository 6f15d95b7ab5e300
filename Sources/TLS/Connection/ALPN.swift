internal import COpenSSL

/// Application-Layer Protocol Negotiation: the wire format and the server's choice (only "h2" here).
enum ALPN {
    /// Length-prefixed protocol names, as `SSL_CTX_set_alpn_protos` wants them.
    static func wireFormat(_ protocols: [String]) -> [UInt8] {
        protocols.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
    }

    /// The server picks "h2" if the client offers it and refuses the handshake otherwise: HTTP/1.1 has
    /// nothing to say to an APNs client.
    static func installServerSelection(on context: OpaquePointer) {
        SSL_CTX_set_alpn_select_cb(context, { _, out, outLength, offered, offeredLength, _ in
            guard let offered, let out, let outLength else { return SSL_TLSEXT_ERR_ALERT_FATAL }
            var index = 0
            while index < Int(offeredLength) {
                let length = Int(offered[index])
                if length == 2, index + 2 < Int(offeredLength), offered[index + 1] == UInt8(ascii: "h"), offered[index + 2] == UInt8(ascii: "2") {
                    out.pointee = offered + index + 1
                    outLength.pointee = 2
                    return SSL_TLSEXT_ERR_OK
                }
                index += 1 + length
            }
            return SSL_TLSEXT_ERR_ALERT_FATAL
        }, nil)
    }
}
