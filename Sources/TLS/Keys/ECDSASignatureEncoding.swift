internal import COpenSSL

/// Converts ECDSA signatures between OpenSSL's DER form and JOSE's fixed-width R‖S form (RFC 7518 §3.4).
enum ECDSASignatureEncoding {
    /// Bytes per coordinate on P-256.
    static let coordinateSize = 32

    static func joseSignature(fromDER der: ArraySlice<UInt8>) throws -> [UInt8] {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let parsed else { throw KeyError(.signingFailed, "OpenSSL returned a signature that is not DER") }
        defer { ECDSA_SIG_free(parsed) }
        var jose = [UInt8](repeating: 0, count: 2 * coordinateSize)
        let written = jose.withUnsafeMutableBufferPointer { output in
            let r = BN_bn2binpad(ECDSA_SIG_get0_r(parsed), output.baseAddress, Int32(coordinateSize))
            let s = BN_bn2binpad(ECDSA_SIG_get0_s(parsed), output.baseAddress! + coordinateSize, Int32(coordinateSize))
            return (r, s)
        }
        guard written == (Int32(coordinateSize), Int32(coordinateSize)) else {
            throw KeyError(.signingFailed, "signature coordinates do not fit in 32 bytes")
        }
        return jose
    }

    static func derSignature(fromJOSE jose: [UInt8]) throws -> [UInt8] {
        guard jose.count == 2 * coordinateSize else {
            throw KeyError(.signingFailed, "an ES256 signature has 64 bytes, not \(jose.count)")
        }
        guard let signature = ECDSA_SIG_new() else { throw OpenSSLError.drain("allocate ECDSA signature") }
        defer { ECDSA_SIG_free(signature) }
        let (r, s) = jose.withUnsafeBufferPointer { input in
            (
                BN_bin2bn(input.baseAddress, Int32(coordinateSize), nil),
                BN_bin2bn(input.baseAddress! + coordinateSize, Int32(coordinateSize), nil)
            )
        }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            throw OpenSSLError.drain("build ECDSA signature")
        }
        var cursor: UnsafeMutablePointer<UInt8>?
        let length = i2d_ECDSA_SIG(signature, &cursor)
        guard length > 0, let cursor else { throw OpenSSLError.drain("encode ECDSA signature") }
        defer { COpenSSL_free(cursor) }
        return Array(UnsafeBufferPointer(start: cursor, count: Int(length)))
    }
}
