internal import COpenSSL

/// Parses PEM text into OpenSSL keys through a read-only memory BIO.
enum PEMReader {
    /// Loads a private key (PKCS#8 "PRIVATE KEY", or the legacy "EC PRIVATE KEY").
    ///
    /// Encrypted keys are refused rather than prompting: the password callback always declines, which
    /// keeps OpenSSL from reading the terminal in a headless worker.
    static func privateKey(_ pem: String) throws -> OpaquePointer {
        try withBIO(pem) { bio in
            PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        } ?? { throw KeyError(.malformedKey, "not a PEM private key (\(OpenSSLError.drain("read PEM private key")))") }()
    }

    /// Loads a public key ("PUBLIC KEY", SubjectPublicKeyInfo).
    static func publicKey(_ pem: String) throws -> OpaquePointer {
        try withBIO(pem) { bio in
            PEM_read_bio_PUBKEY(bio, nil, { _, _, _, _ in 0 }, nil)
        } ?? { throw KeyError(.malformedKey, "not a PEM public key (\(OpenSSLError.drain("read PEM public key")))") }()
    }

    private static func withBIO<T>(_ pem: String, _ body: (OpaquePointer) -> T?) throws -> T? {
        OpenSSLError.clearQueue()
        var bytes = Array(pem.utf8)
        return try bytes.withUnsafeMutableBytes { buffer -> T? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else {
                throw OpenSSLError.drain("allocate memory BIO")
            }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }
}
