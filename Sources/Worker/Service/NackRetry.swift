/// How the processor publishes again what the broker nacked, before it gives the job back.
///
/// A nack (basic.nack) is the broker saying it cannot take a message *now*: in a cluster, a quorum
/// queue behind the results exchange is electing a new leader after a node's loss (a few seconds); a
/// queue with `x-overflow: reject-publish` is full. It is not a routing error (that is a return, or a
/// 404), so the message is published again in place, with backoff, while the job keeps its delivery.
/// Giving the job back at once would redeliver it and push it again: in one measured node loss that
/// made three times the prefetch in duplicate results.
struct NackRetry: Sendable {
    /// The pause before the first republish; doubled after each, up to `maximumDelay`.
    var initialDelay: Duration
    var maximumDelay: Duration
    /// Republishes at most, before the job goes back to the queue.
    var attempts: Int

    /// About 9 s in all: longer than a quorum queue's leader election on a loaded cluster.
    static let standard = NackRetry(initialDelay: .milliseconds(100), maximumDelay: .seconds(2), attempts: 8)

    /// The pause before republish number `attempt` (from 1).
    func delay(before attempt: Int) -> Duration {
        var delay = initialDelay
        for _ in 1..<max(attempt, 1) where delay < maximumDelay { delay = min(delay * 2, maximumDelay) }
        return delay
    }
}
