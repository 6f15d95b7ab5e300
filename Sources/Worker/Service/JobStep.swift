/// What a delivery needs after decoding: publications right away (malformed, expired, its credential
/// paused), the outcome an earlier delivery left (``AnsweredOutcomes``), or a send to
/// APNs first.
enum JobStep: Sendable {
    case publish([Publication])
    case republish([Publication])
    case send(PendingSend)
    /// A broadcast or channel-management request to APNs first.
    case channel(PendingChannelRequest)
}
