internal import TLS

/// apns-ids derived from a job, not drawn at random: a redelivered or retried job sends under the
/// same id again, so APNs' logs tie every attempt together and no two tokens of a job share one.
/// Version 8 (RFC 9562's custom layout) over the first 16 bytes of a SHA-256.
extension APNsID {
    /// The apns-id of a job that names none.
    public static func derived(fromJobID jobID: String) -> APNsID {
        APNsID(bytes: Array(SHA256.hash(Array("apns-worker job \(jobID)".utf8)).prefix(16)), version: 8)
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
        return APNsID(bytes: Array(SHA256.hash(name).prefix(16)), version: 8)
    }
}
