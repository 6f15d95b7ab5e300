internal import COpenSSL

/// A P-256 public key that verifies ES256 signatures in JOSE form (64-byte R‖S).
///
/// `@unchecked Sendable`: the `EVP_PKEY` is immutable after `init`; each verification uses its own
/// `EVP_MD_CTX`, which OpenSSL 3 allows concurrently on one key.
public final class ES256PublicKey: @unchecked Sendable {
    let key: OpaquePointer

    /// Loads a SubjectPublicKeyInfo PEM ("BEGIN PUBLIC KEY") on P-256.
    public init(pemRepresentation pem: String) throws {
        key = try P256Check.checked(PEMReader.publicKey(pem), describing: "the public key")
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// Whether `signature` (64 bytes, R‖S) is a valid ES256 signature of `message` by this key.
    public func isValidSignature(_ signature: some Collection<UInt8>, for message: some Collection<UInt8>) -> Bool {
        guard let der = try? ECDSASignatureEncoding.derSignature(fromJOSE: Array(signature)) else { return false }
        OpenSSLError.clearQueue()
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        let verified = Array(message).withUnsafeBufferPointer { input in
            EVP_DigestVerify(context, der, der.count, input.baseAddress, input.count)
        }
        OpenSSLError.clearQueue()
        return verified == 1
    }
}
