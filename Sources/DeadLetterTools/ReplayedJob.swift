public import AMQP
public import Foundation
import Worker

/// A dead letter made a job again: the same body and id (so the same apns-id), a fresh attempt
/// count, and a `replayed-at` header saying when an operator sent it back.
public enum ReplayedJob {
    /// When the job was replayed, as `2026-11-24T10:00:00.123Z`.
    public static let replayedAtHeader = RetryHeaders.replayedAt

    /// Headers a replayed job must not carry: the worker's counts and the name of its last retry copy
    /// (the job starts afresh), the broker's delivery count of the dead-letter queue, and when it was
    /// dead-lettered. `last-error`
    /// stays, so the job's history can still be read until it fails again.
    static let droppedHeaders = [RetryHeaders.attempts, RetryHeaders.deferrals, RetryHeaders.copy, DeadLetter.deadLetteredAtHeader, "x-delivery-count"]

    public static func message(from deadLetter: AMQPMessage, replayedAt time: Date) -> AMQPMessage {
        var message = deadLetter
        for header in droppedHeaders { message.properties.headers[header] = nil }
        message.properties.headers[replayedAtHeader] = .string(UTCTimestamp.string(time))
        message.properties.expiration = nil
        message.properties.persistent = true
        return OutgoingMessages.carriable(message)
    }
}
