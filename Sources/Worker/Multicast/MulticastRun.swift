import APNsCore
import NIOConcurrencyHelpers
import Synchronization

/// One pass over a multicast job's tokens, shared by the senders sending them.
final class MulticastRun: Sendable {
    let pending: PendingSend
    /// The job's request and id, read out of the job once: every token's request is the template
    /// addressed to it (copying them out of the job per token showed in the profile).
    let template: NotificationRequest
    let jobID: String
    let tokens: [DeviceToken]
    /// What the tokens came to so far.
    let tally: NIOLockedValueBox<MulticastTally>
    /// Set once no more may be sent (credential refused or paused, worker draining): every token taken
    /// after it is set aside for the retry copy instead.
    let stopped = Atomic(false)
    /// The next token to take.
    private let next = Atomic(0)

    init(pending: PendingSend, tokens: [DeviceToken], tally: MulticastTally) {
        self.pending = pending
        template = pending.job.request
        jobID = pending.job.id
        self.tokens = tokens
        self.tally = NIOLockedValueBox(tally)
    }

    /// The next token and its position, each exactly once across the senders; nil when all are taken.
    func take() -> (Int, DeviceToken)? {
        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
        return index < tokens.count ? (index, tokens[index]) : nil
    }

    var hasTokensLeft: Bool { next.load(ordering: .relaxed) < tokens.count }
}
