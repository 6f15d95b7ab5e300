package import AMQP

/// The headers the worker writes on a job's retried and dead-lettered copies, and reads back when a
/// copy returns: their names, how they are written and how far a value a producer forged is trusted.
/// Not `x-` names: those are the broker's.
package struct RetryHeaders: Equatable {
    /// APNs attempts made so far.
    package static let attempts = "retry-attempt"
    /// Tries APNs never processed (no stream in time, refused, no connection); written only when any.
    package static let deferrals = "retry-deferred"
    /// The last failure, at most ``lastErrorLimit`` characters.
    package static let lastError = "last-error"
    static let lastErrorLimit = 500
    /// The credential the worker chose for the job (named by the job or found by its topic).
    package static let credential = "credential"
    /// Names one copy sent to a retry tier, so that the same copy handed back twice (the broker's
    /// dead-lettering from a tier is at-least-once) is answered from ``AnsweredOutcomes``.
    package static let copy = "retry-copy"
    /// On a dead letter: when the worker gave the job up, in milliseconds since 1970.
    package static let deadLetteredAt = "dead-lettered-at"
    /// On a job an operator replayed from the dead letters: when, as `2026-11-24T10:00:00.123Z`. A
    /// replayed job may have been answered by APNs before, in this process.
    package static let replayedAt = "replayed-at"
    /// Every name a retried copy carries, which a copy keeps whatever else it must drop.
    package static let names: Set<String> = [attempts, deferrals, lastError, credential, copy]

    /// The code a `last-error` text starts with: everything before its first colon.
    package static func code(ofLastError lastError: String) -> String {
        String(lastError.prefix { $0 != ":" })
    }

    /// The `retry-copy` of `message`, when the worker sent it to a retry tier.
    package static func copy(of message: AMQPMessage) -> String? {
        guard case .string(let name)? = message.properties.headers[copy] else { return nil }
        return name
    }

    /// A new copy's name: 64 random bits, unique among the copies a job's redeliveries can meet.
    static func newCopyName() -> String {
        String(UInt64.random(in: .min ... .max), radix: 16)
    }

    package var attempts: Int
    package var deferrals: Int

    /// The counts a returning copy carries; absent headers count zero. A count a producer may have
    /// written itself is kept within what the worker would have written (below the policy's limits): a
    /// forged `retry-attempt` of 2^63 must neither overflow the next attempt's arithmetic nor show in a
    /// result.
    init(reading headers: [String: AMQPFieldValue], maxAttempts: Int, maxDeferrals: Int) {
        attempts = Self.count(headers[Self.attempts], below: maxAttempts)
        deferrals = Self.count(headers[Self.deferrals], below: maxDeferrals)
    }

    init(attempts: Int, deferrals: Int = 0) {
        self.attempts = attempts
        self.deferrals = deferrals
    }

    /// Writes the counts and `lastError` onto a copy's headers. A deferral count of zero leaves the
    /// header as the copy had it: a dead letter keeps the count its job arrived with.
    func write(into headers: inout [String: AMQPFieldValue], lastError: String) {
        headers[Self.attempts] = .int(Int64(attempts))
        if deferrals > 0 { headers[Self.deferrals] = .int(Int64(deferrals)) }
        headers[Self.lastError] = .string(String(lastError.prefix(Self.lastErrorLimit)))
    }

    private static func count(_ header: AMQPFieldValue?, below limit: Int) -> Int {
        guard case .int(let value)? = header else { return 0 }
        return Int(min(max(value, 0), Int64(max(limit - 1, 0))))
    }
}
