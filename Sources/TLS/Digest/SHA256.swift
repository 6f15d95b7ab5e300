internal import COpenSSL
import NIOConcurrencyHelpers

/// SHA-256 through OpenSSL, for identifiers derived from content (e.g. an apns-id from a job id).
public enum SHA256 {
    /// The digest's length in bytes.
    public static let byteCount = 32

    /// The 32-byte digest of `bytes`.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let input = Array(bytes)
        return [UInt8](unsafeUninitializedCapacity: byteCount) { digest, count in
            input.withUnsafeBytes { hash($0, into: UnsafeMutableRawBufferPointer(digest)) }
            count = byteCount
        }
    }

    /// Writes the digest of `bytes` into the first 32 bytes of `digest`, allocating nothing: every job
    /// and every token of a multicast job derives an apns-id this way.
    public static func hash(_ bytes: UnsafeRawBufferPointer, into digest: UnsafeMutableRawBufferPointer) {
        precondition(digest.count >= byteCount, "a SHA-256 digest needs 32 bytes")
        let context = contexts.withLockedValue { $0.popLast() } ?? DigestContext()
        var length: UInt32 = 0
        // A context kept between digests: `EVP_Digest` made and freed one on every call. (OpenSSL 3.0
        // still makes the provider's state anew at each init.) 195 -> 141 ns a 52-byte digest, in C
        // on this machine.
        let succeeded = EVP_DigestInit_ex2(context.pointer, algorithm.pointer, nil) == 1
            && EVP_DigestUpdate(context.pointer, bytes.baseAddress, bytes.count) == 1
            && EVP_DigestFinal_ex(context.pointer, digest.baseAddress?.assumingMemoryBound(to: UInt8.self), &length) == 1
        // SHA-256 fails only without memory; there is nothing sensible to return then.
        precondition(succeeded && length == byteCount, "OpenSSL could not compute SHA-256")
        contexts.withLockedValue { if $0.count < maximumIdleContexts { $0.append(context) } }
    }

    /// SHA-256 fetched once: `EVP_sha256()` makes OpenSSL 3 look the implementation up on every digest,
    /// which took most of the time of hashing a job id.
    private static let algorithm = FetchedDigest(name: "SHA256")

    /// Contexts between digests, one per thread hashing at once (a shard's event loop each, mostly).
    /// A pthread mutex rather than `Synchronization.Mutex`, whose lock ThreadSanitizer cannot see
    /// (`make sanitize` reported the pool's array as raced between two shards).
    private static let contexts = NIOLockedValueBox<[DigestContext]>([])
    private static let maximumIdleContexts = 16
}

/// An `EVP_MD_CTX`, used by one digest at a time and kept between them.
private final class DigestContext: @unchecked Sendable {
    // @unchecked: only the thread that took it from the pool touches it until it goes back.
    let pointer: OpaquePointer

    init() {
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("OpenSSL could not allocate a digest context") }
        pointer = context
    }

    deinit { EVP_MD_CTX_free(pointer) }
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
