import APNsCore

/// A failure worth retrying, with what a later result needs to say about it.
struct TransientFailure: CustomStringConvertible {
    /// The failure code for `result.failed.<code>`: the APNs reason, or the client's error code.
    let code: String
    let description: String
    let rejection: APNsRejection?
    let retryAfter: Duration?
    /// Whether APNs may have acted on the request (an answer, or an unknown outcome).
    let processed: Bool

    init(_ rejection: APNsRejection) {
        processed = true
        code = rejection.reason.name.isEmpty ? "HTTP\(rejection.status)" : rejection.reason.name
        description = "\(rejection.status) \(code)"
        self.rejection = rejection
        retryAfter = rejection.retryAfterSeconds.map { .seconds($0) }
    }

    init(_ error: APNsSendError) {
        processed = error.outcome != .notProcessed
        code = error.code.name
        description = "\(error)"
        rejection = nil
        retryAfter = nil
    }
}
