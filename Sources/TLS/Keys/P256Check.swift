internal import COpenSSL

/// Checks that an OpenSSL key is an elliptic-curve key on P-256, the only curve ES256 allows.
enum P256Check {
    /// Takes ownership of `key`: hands it back if it is on P-256, frees it and throws otherwise.
    static func checked(_ key: OpaquePointer, describing what: String) throws -> OpaquePointer {
        do {
            try require(key, describing: what)
            return key
        } catch {
            EVP_PKEY_free(key)
            throw error
        }
    }

    static func require(_ key: OpaquePointer, describing what: String) throws {
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else {
            throw KeyError(.notEllipticCurve, "\(what) is not an elliptic-curve key (ES256 needs P-256)")
        }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else {
            throw KeyError(.wrongCurve, "\(what): cannot read its curve (\(OpenSSLError.drain("read curve name")))")
        }
        let curve = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard curve == "prime256v1" || curve == "P-256" else {
            throw KeyError(.wrongCurve, "\(what) is on curve \(curve), but ES256 needs P-256")
        }
    }
}
