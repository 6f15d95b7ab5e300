import APNsCore

/// How one request ended on one connection, as the pool needs to know it.
enum StreamOutcome: Hashable, Sendable {
    /// APNs answered; the answer goes to the caller.
    case response(APNsResponse)
    /// APNs did not process it (REFUSED_STREAM, above a GOAWAY, a retiring connection): send it again
    /// elsewhere without the caller noticing.
    case notProcessed(String)
    /// APNs rejected it for a reason of the connection (TooManyProviderTokenUpdates, Shutdown,
    /// IdleTimeout): the connection retires; sending again elsewhere is safe.
    case retryElsewhere(APNsRejection)
    /// No answer; the error says whether APNs may have processed it.
    case failed(APNsSendError)
}
