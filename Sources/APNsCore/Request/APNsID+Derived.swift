internal import TLS

/// apns-ids derived from a job, not drawn at random: a redelivered or retried job sends under the
/// same id again, so APNs' logs tie every attempt together and no two tokens of a job share one.
/// Version 8 (RFC 9562's custom layout) over the first 16 bytes of a SHA-256.
extension APNsID {
    /// The apns-id of a job that names none.
    public static func derived(fromJobID jobID: String) -> APNsID {
        // The name's bytes written into one buffer, and the digest cut to 16 bytes in place: every job
        // derives one, and an interpolated string and its copies were five allocations of it.
        var name: [UInt8] = []
        name.reserveCapacity(16 + jobID.utf8.count)
        name.append(contentsOf: "apns-worker job ".utf8)
        name.append(contentsOf: jobID.utf8)
        var digest = SHA256.hash(name)
        digest.removeLast(16)
        return APNsID(bytes: digest, version: 8)
    }

    /// The apns-id of `token` in multicast job `jobID`.
    public static func derived(fromJobID jobID: String, token: DeviceToken) -> APNsID {
        // The name's bytes written into one buffer: every token of every multicast job comes here.
        var name: [UInt8] = []
        name.reserveCapacity(32 + jobID.utf8.count + token.hexString.utf8.count)
        name.append(contentsOf: "apns-worker job ".utf8)
        name.append(contentsOf: jobID.utf8)
        name.append(contentsOf: " token ".utf8)
        name.append(contentsOf: token.hexString.utf8)
        var digest = SHA256.hash(name)
        digest.removeLast(16)
        return APNsID(bytes: digest, version: 8)
    }
}
