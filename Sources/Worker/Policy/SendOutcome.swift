public import APNsCore

extension Result where Success == APNsResponse, Failure == APNsSendError {
    /// Whether APNs may have acted on the request: an answer, or a failure whose outcome is unknown.
    /// A try it did not process (no stream in time, refused, no connection) is not an attempt.
    public var processedByAPNs: Bool {
        if case .failure(let error) = self { error.outcome != .notProcessed } else { true }
    }
}
