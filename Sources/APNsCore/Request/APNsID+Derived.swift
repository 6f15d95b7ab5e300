internal import TLS

/// apns-ids derived from a job, not drawn at random: a redelivered or retried job sends under the
/// same id again, so APNs' logs tie every attempt together and no two tokens of a job share one.
/// Version 8 (RFC 9562's custom layout) over the first 16 bytes of a SHA-256.
extension APNsID {
    /// The apns-id of a job that names none: from `apns-worker job <jobID>`.
    public static func derived(fromJobID jobID: String) -> APNsID {
        derived(fromJobID: jobID, tokenHex: nil)
    }

    /// The apns-id of `token` in multicast job `jobID`: from `apns-worker job <jobID> token <hex>`.
    public static func derived(fromJobID jobID: String, token: DeviceToken) -> APNsID {
        derived(fromJobID: jobID, tokenHex: token.hexString)
    }

    /// The name written, hashed and cut on the stack: every job and every token of a multicast job
    /// derives an id, and the name's array, the digest's and its cut copy were three allocations of it
    /// (6,500 instructions a job with the digest's own two, `scripts/bench-instructions.sh`).
    private static func derived(fromJobID jobID: String, tokenHex: String?) -> APNsID {
        var jobID = jobID
        let count = jobPrefix.utf8CodeUnitCount + jobID.utf8.count + (tokenHex.map { tokenInfix.utf8CodeUnitCount + $0.utf8.count } ?? 0)
        return withUnsafeTemporaryAllocation(byteCount: count + SHA256.byteCount, alignment: 8) { buffer in
            var name = NameWriter(bytes: UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]))
            name.append(jobPrefix)
            jobID.withUTF8 { name.append($0) }
            if var tokenHex {
                name.append(tokenInfix)
                tokenHex.withUTF8 { name.append($0) }
            }
            // The name must fill its bytes exactly: a shorter one would hash bytes never written.
            precondition(name.position == count, "the name's length was miscounted")
            let digest = UnsafeMutableRawBufferPointer(rebasing: buffer[count...])
            SHA256.hash(UnsafeRawBufferPointer(name.bytes), into: digest)
            return APNsID(uuidBytes: UnsafeRawBufferPointer(digest), version: 8)
        }
    }

    private static let jobPrefix: StaticString = "apns-worker job "
    private static let tokenInfix: StaticString = " token "

    /// Fills a name's bytes front to back.
    private struct NameWriter {
        let bytes: UnsafeMutableRawBufferPointer
        var position = 0

        mutating func append(_ text: StaticString) {
            append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        mutating func append(_ part: UnsafeBufferPointer<UInt8>) {
            UnsafeMutableRawBufferPointer(rebasing: bytes[position...]).copyMemory(from: UnsafeRawBufferPointer(part))
            position += part.count
        }
    }
}
