internal import COpenSSL

/// SHA-256 through OpenSSL, for identifiers derived from content (e.g. an apns-id from a job id).
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let succeeded = Array(bytes).withUnsafeBufferPointer { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &length, algorithm.pointer, nil)
        }
        // EVP_Digest with SHA-256 fails only without memory; there is nothing sensible to return then.
        precondition(succeeded == 1 && length == 32, "OpenSSL could not compute SHA-256")
        return digest
    }

    /// SHA-256 fetched once: `EVP_sha256()` makes OpenSSL 3 look the implementation up on every digest,
    /// which took most of the time of hashing a job id.
    private static let algorithm = FetchedDigest(name: "SHA256")
}

/// An `EVP_MD` fetched from OpenSSL's default provider, kept for the life of the process.
private final class FetchedDigest: @unchecked Sendable {
    // @unchecked: a fetched EVP_MD is immutable and OpenSSL documents it as safe to share between threads.
    let pointer: OpaquePointer

    init(name: String) {
        guard let fetched = EVP_MD_fetch(nil, name, nil) else { preconditionFailure("OpenSSL has no \(name)") }
        pointer = fetched
    }
}
