import APNsCore
import NIOConcurrencyHelpers
import Synchronization

/// A multicast job's senders: each sends the job's next token from the answer to its last one, where
/// that answer arrives (the APNs connection's event loop), with no task or continuation per token.
///
/// As tasks that awaited each answer, the senders cost a continuation and two thread hops per token
/// (the answer resumed a task on the cooperative pool, whose next send went back to the event loop),
/// which is what the single-device jobs shed when they moved to callbacks: 15.5 µs of the worker's CPU
/// per notification at 100 tokens a job, against 12.6 as callbacks (medians of three alternating runs
/// of `apns-bench multicast --tokens 100`). Only the waits run on a task of the sender's own
/// (``MulticastRun/wait(_:_:)``): a rate limit's, and a bulk sender's turn for a permit it gave back
/// to pacing.
extension JobProcessor {
    /// Starts sender number `sender` of `run`, holding a permit; it gives the permit back when it ends.
    func startSender(_ sender: Int, of run: MulticastRun) {
        run.senderStarted()
        sendNext(sender, of: run)
    }

    /// Sends `run`'s next token, or sets tokens aside once sending must stop, until a send is in flight
    /// (its answer goes on from there) or no token is left (the sender ends).
    private func sendNext(_ sender: Int, of run: MulticastRun) {
        while let (index, token) = run.take() {
            if !run.stopped.load(ordering: .relaxed), let reason = stopReason(run, at: index) {
                run.tally.withLockedValue { $0.setAside = $0.setAside ?? reason }
                run.stopped.store(true, ordering: .relaxed)
            }
            if run.stopped.load(ordering: .relaxed) {
                setAside(token, of: run)
                continue
            }
            guard rateLimits.isEmpty else {
                run.wait(sender) { [self] in answered(await sendAfterRateWait(token, of: run), by: sender, of: run) }
                return
            }
            let (apnsID, request) = request(for: token, of: run)
            let early = EarlyAnswer<TokenAnswer>()
            self.sender.send(request, credential: run.pending.credential, endpoint: run.pending.endpoint, urgent: run.pending.context.isUrgent) { [self] outcome in
                let answer = TokenAnswer(token: token, apnsID: apnsID, outcome: outcome)
                if early.deliver(answer) { answered(answer, by: sender, of: run) }
            }
            guard let answer = early.afterAsking(), recordAndKeep(answer, by: sender, of: run) else { return }
        }
        // No token left: the fan-out loop need not wait for another permit.
        permits.withdraw(ObjectIdentifier(run))
        permits.release(urgent: run.pending.context.isUrgent)
        run.senderEnded()
    }

    /// An answer that came after its send returned: recorded, and the sender goes on from here.
    private func answered(_ answer: TokenAnswer, by sender: Int, of run: MulticastRun) {
        if recordAndKeep(answer, by: sender, of: run) { sendNext(sender, of: run) }
    }

    /// Records `answer`; true when the sender goes on to its next token at once. A bulk sender does not
    /// while bulk senders hold more permits than pacing allows: it gives its permit back and waits for
    /// one at the back of the bulk line on a task, going on from there, or ending if the job's tokens
    /// ran out meanwhile (``SendPermits/keep(for:while:)``).
    private func recordAndKeep(_ answer: TokenAnswer, by sender: Int, of run: MulticastRun) -> Bool {
        record(answer, of: run)
        guard !run.pending.context.isUrgent, permits.bulkOverLimit else { return true }
        run.wait(sender) { [self] in
            if await permits.keep(for: ObjectIdentifier(run), while: { run.hasTokensLeft }) {
                sendNext(sender, of: run)
            } else {
                // Not kept only when no token is left: the job's other waits end here too.
                permits.withdraw(ObjectIdentifier(run))
                run.senderEnded()
            }
        }
        return false
    }
}
