/// What a delivery needs after decoding: publications right away (malformed, expired, its credential
/// paused), the outcome remembered from an earlier delivery whose publications failed, or a send to
/// APNs first.
enum JobStep {
    case publish([Publication])
    case republish([Publication], UnsettledOutcomes.Key)
    case send(PendingSend)
    /// A broadcast or channel-management request to APNs first.
    case channel(PendingChannelRequest)
}
