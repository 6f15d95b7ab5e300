/// A queue a consumer takes from, with the unacknowledged deliveries its broker consumer may have out.
///
/// Each queue's limit is its own (`basic.qos` per consumer), so a queue whose messages wait long for
/// their acks cannot take the window of another: a backlog of slow bulk jobs leaves an urgent queue's
/// deliveries flowing.
public struct AMQPConsumedQueue: Sendable, Hashable {
    public let name: String
    public let prefetch: UInt16

    public init(name: String, prefetch: UInt16) {
        self.name = name
        self.prefetch = prefetch
    }

    /// `names` with an equal share of `prefetch` each, rounded down and at least 1, so that no more than
    /// `prefetch` are unacked in all (a partitioned jobs queue).
    public static func equalShares(of prefetch: UInt16, among names: [String]) -> [AMQPConsumedQueue] {
        let share = max(1, prefetch / UInt16(clamping: max(names.count, 1)))
        return names.map { AMQPConsumedQueue(name: $0, prefetch: share) }
    }
}
