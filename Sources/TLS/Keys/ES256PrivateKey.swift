internal import COpenSSL

/// A P-256 private key that makes ES256 (ECDSA with SHA-256) signatures in JOSE form.
///
/// `@unchecked Sendable`: the `EVP_PKEY` is never mutated after `init`, and OpenSSL 3 allows one key to
/// be used by several threads at once as long as each uses its own `EVP_MD_CTX`, which `signature(for:)`
/// creates per call.
public final class ES256PrivateKey: @unchecked Sendable {
    let key: OpaquePointer

    /// Loads a key from PEM text: an App Store Connect `.p8` file (PKCS#8) or a SEC1 "EC PRIVATE KEY".
    ///
    /// Throws ``KeyError`` with `.malformedKey`, `.notEllipticCurve` or `.wrongCurve`.
    public init(pemRepresentation pem: String) throws {
        key = try P256Check.checked(PEMReader.privateKey(pem), describing: "the private key")
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// The matching public key, for verification (tests and the mock APNs server).
    public var publicKey: ES256PublicKey {
        get throws {
            OpenSSLError.clearQueue()
            guard let bio = BIO_new(BIO_s_mem()) else { throw OpenSSLError.drain("allocate memory BIO") }
            defer { BIO_free(bio) }
            guard PEM_write_bio_PUBKEY(bio, key) == 1 else { throw OpenSSLError.drain("write public key") }
            var data: UnsafeMutablePointer<CChar>?
            let length = COpenSSL_BIO_get_mem_data(bio, &data)
            guard let data, length > 0 else { throw OpenSSLError.drain("read public key") }
            let pem = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
            return try ES256PublicKey(pemRepresentation: pem)
        }
    }

    /// Signs `message` and returns the JOSE signature: R and S as 32-byte big-endian integers, 64 bytes.
    public func signature(for message: some Collection<UInt8>) throws -> [UInt8] {
        OpenSSLError.clearQueue()
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLError.drain("allocate digest context") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
            throw OpenSSLError.drain("start ES256 signature")
        }
        // A DER ECDSA signature over P-256 is at most 72 bytes.
        var der = [UInt8](repeating: 0, count: 80)
        var derLength = der.count
        let signed = Array(message).withUnsafeBufferPointer { input in
            EVP_DigestSign(context, &der, &derLength, input.baseAddress, input.count)
        }
        guard signed == 1 else { throw OpenSSLError.drain("sign with ES256 key") }
        return try ECDSASignatureEncoding.joseSignature(fromDER: der[..<derLength])
    }
}
