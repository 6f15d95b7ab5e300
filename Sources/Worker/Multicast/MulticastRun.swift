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
    /// Set when the job's task is cancelled (the shutdown timeout). The senders run on the event
    /// loops and on tasks of their own, not as the job's child tasks, so they look here rather than at
    /// `Task.isCancelled`.
    let cancelled = Atomic(false)
    /// Fired once the fan-out loop and every sender it started have ended.
    let ended = OneTimeSignal()
    /// The next token to take.
    private let next = Atomic(0)
    /// The fan-out loop (the first 1) and the senders still sending.
    private let running = Atomic(1)
    /// Each sender's wait on a task (a rate limit, a permit given back), to be cancelled with the job.
    /// A pthread lock, not a `Mutex`: ThreadSanitizer cannot see `Mutex`'s futex, and reported its
    /// holders on two threads as a race.
    private let waits: NIOLockedValueBox<[Task<Void, Never>?]>

    init(pending: PendingSend, tokens: [DeviceToken], tally: MulticastTally, senders: Int) {
        self.pending = pending
        template = pending.job.request
        jobID = pending.job.id
        self.tokens = tokens
        self.tally = NIOLockedValueBox(tally)
        waits = NIOLockedValueBox(Array(repeating: nil, count: senders))
    }

    /// A sender begins; it calls ``senderEnded()`` once, when it stops sending.
    func senderStarted() {
        running.add(1, ordering: .relaxed)
    }

    /// A sender (or the fan-out loop) is done: the last one fires ``ended``.
    func senderEnded() {
        if running.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { ended.fire() }
    }

    /// Runs sender `sender`'s wait on a task, cancelled at once if the job is (or becomes) cancelled.
    func wait(_ sender: Int, _ work: @escaping @Sendable () async -> Void) {
        let task = Task(operation: work)
        // The flag is read under the lock `cancel()` takes after setting it: one of the two cancels the task.
        if waits.withLockedValue({ waits in waits[sender] = task; return cancelled.load(ordering: .relaxed) }) { task.cancel() }
    }

    /// The job's task was cancelled: tokens not yet sent are set aside, and waits end.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        for task in waits.withLockedValue({ $0 }) { task?.cancel() }
    }

    /// The next token and its position, each exactly once across the senders; nil when all are taken.
    func take() -> (Int, DeviceToken)? {
        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
        return index < tokens.count ? (index, tokens[index]) : nil
    }

    var hasTokensLeft: Bool { next.load(ordering: .relaxed) < tokens.count }
}
