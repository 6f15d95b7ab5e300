/// A RabbitMQ release, as its `connection.start` server properties give it (`version`: "3.10.8",
/// "4.0.5"), for behaviour that differs between releases.
public struct RabbitMQVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    public let major: Int
    public let minor: Int
    public let patch: Int

    public init(_ major: Int, _ minor: Int, _ patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// "4.0.5", "3.13.7+2.g123" (a suffix after the numbers is ignored); nil when it does not start with
    /// two numbers.
    public init?(_ text: String) {
        let numbers = text.split(separator: ".", maxSplits: 2).map { Int($0.prefix { $0.isNumber }) }
        guard numbers.count >= 2, let major = numbers[0], let minor = numbers[1] else { return nil }
        self.init(major, minor, numbers.count > 2 ? numbers[2] ?? 0 : 0)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    public var description: String { "\(major).\(minor).\(patch)" }

    /// Before 3.12.5 a channel's first publish to a quorum queue goes to the leader the queue's record
    /// names then, and a channel that met a stopped leader is nacked until that node returns
    /// (rabbitmq-server PR 9241 asks `ra_leaderboard` instead).
    public var bindsChannelsToRecordedLeaders: Bool { self < RabbitMQVersion(3, 12, 5) }
}
