internal import COpenSSL

/// Installs a client certificate and key, from PKCS#12 or PEM, into an `SSL_CTX`.
enum ClientIdentityLoader {
    static func install(_ identity: TLSIdentity, into context: OpaquePointer) throws {
        switch identity {
        case .pkcs12(let path, let password):
            try installPKCS12(path: path, password: password, into: context)
        case .pem(let certificatePath, let keyPath):
            guard SSL_CTX_use_certificate_chain_file(context, certificatePath) == 1 else {
                throw TLSError(.configuration, "cannot load client certificate \(certificatePath): \(OpenSSLError.drain("load certificate"))")
            }
            let key = try PEMReader.privateKey(KeyFile.read(path: keyPath))
            defer { EVP_PKEY_free(key) }
            try useKey(key, in: context, describing: keyPath)
        }
    }

    private static func installPKCS12(path: String, password: String, into context: OpaquePointer) throws {
        let bytes = Array(try KeyFile.read(bytesAt: path))
        var parsed = parsePKCS12(bytes, password: password)
        if parsed == nil {
            // Keychain Access exports with RC2/3DES, which OpenSSL 3 keeps in its legacy provider.
            LegacyProvider.loadOnce()
            parsed = parsePKCS12(bytes, password: password)
        }
        guard let (key, certificate, chain) = parsed else {
            throw TLSError(.configuration, "cannot open PKCS#12 file \(path): wrong password or unsupported encryption (\(OpenSSLError.drain("PKCS12_parse")))")
        }
        defer {
            EVP_PKEY_free(key)
            X509_free(certificate)
            if let chain { COpenSSL_sk_X509_pop_free(chain) }
        }
        guard SSL_CTX_use_certificate(context, certificate) == 1 else {
            throw TLSError(.configuration, "cannot use the certificate in \(path): \(OpenSSLError.drain("use certificate"))")
        }
        try useKey(key, in: context, describing: path)
        if let chain {
            for index in 0..<COpenSSL_sk_X509_num(chain) {
                // add_extra_chain_cert takes ownership, so hand it its own reference.
                guard let intermediate = COpenSSL_sk_X509_value(chain, index), X509_up_ref(intermediate) == 1 else { continue }
                if COpenSSL_SSL_CTX_add_extra_chain_cert(context, intermediate) != 1 { X509_free(intermediate) }
            }
        }
    }

    private static func parsePKCS12(_ bytes: [UInt8], password: String) -> (OpaquePointer, OpaquePointer, OpaquePointer?)? {
        OpenSSLError.clearQueue()
        var cursor: UnsafePointer<UInt8>? = nil
        let bundle: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            cursor = buffer.baseAddress
            return d2i_PKCS12(nil, &cursor, buffer.count)
        }
        guard let bundle else { return nil }
        defer { PKCS12_free(bundle) }
        var key: OpaquePointer?
        var certificate: OpaquePointer?
        var chain: OpaquePointer?
        guard PKCS12_parse(bundle, password, &key, &certificate, &chain) == 1, let key, let certificate else {
            return nil
        }
        return (key, certificate, chain)
    }

    private static func useKey(_ key: OpaquePointer, in context: OpaquePointer, describing source: String) throws {
        guard SSL_CTX_use_PrivateKey(context, key) == 1, SSL_CTX_check_private_key(context) == 1 else {
            throw TLSError(.configuration, "the key in \(source) does not match the client certificate: \(OpenSSLError.drain("use key"))")
        }
    }
}
