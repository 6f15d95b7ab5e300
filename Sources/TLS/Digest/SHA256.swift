internal import COpenSSL

/// SHA-256 through OpenSSL, for identifiers derived from content (e.g. an apns-id from a job id).
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let succeeded = Array(bytes).withUnsafeBufferPointer { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
        }
        // EVP_Digest with SHA-256 fails only without memory; there is nothing sensible to return then.
        precondition(succeeded == 1 && length == 32, "OpenSSL could not compute SHA-256")
        return digest
    }
}
