internal import TLS

/// apns-ids derived from a job, not drawn at random: a redelivered or retried job sends under the
/// same id again, so APNs' logs tie every attempt together and no two tokens of a job share one.
/// Version 8 (RFC 9562's custom layout) over the first 16 bytes of a SHA-256.
extension APNsID {
    /// The apns-id of a job that names none.
    public static func derived(fromJobID jobID: String) -> APNsID {
        derived(fromName: jobName(jobID, extra: 0))
    }

    /// The apns-id of `token` in multicast job `jobID`.
    public static func derived(fromJobID jobID: String, token: DeviceToken) -> APNsID {
        var name = jobName(jobID, extra: 7 + token.hexString.utf8.count)
        name.append(contentsOf: " token ".utf8)
        name.append(contentsOf: token.hexString.utf8)
        return derived(fromName: name)
    }

    /// `apns-worker job <jobID>` as bytes, with room for `extra` more. One buffer: every job and every
    /// token of a multicast job derives an id, and an interpolated string and its copies were five
    /// allocations of it.
    private static func jobName(_ jobID: String, extra: Int) -> [UInt8] {
        var name: [UInt8] = []
        name.reserveCapacity(16 + jobID.utf8.count + extra)
        name.append(contentsOf: "apns-worker job ".utf8)
        name.append(contentsOf: jobID.utf8)
        return name
    }

    /// Version 8 over the first 16 bytes of the SHA-256 of `name`, cut in place.
    private static func derived(fromName name: [UInt8]) -> APNsID {
        var digest = SHA256.hash(name)
        digest.removeLast(16)
        return APNsID(bytes: digest, version: 8)
    }
}
