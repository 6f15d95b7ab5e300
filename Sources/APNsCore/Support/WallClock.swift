public import Foundation
import NIOConcurrencyHelpers

/// Where the current time comes from, so token ages and expiry checks can be driven by tests.
public protocol WallClock: Sendable {
    func now() -> Date
}

/// The system's real-time clock.
public struct SystemWallClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that stands still until moved: for tests and for the mock server's token rules.
public final class ManualWallClock: WallClock {
    private let current: NIOLockedValueBox<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = NIOLockedValueBox(start)
    }

    public func now() -> Date { current.withLockedValue { $0 } }

    /// Moves the clock forward (or back, with a negative interval).
    public func advance(by interval: TimeInterval) {
        current.withLockedValue { $0 += interval }
    }

    public func set(_ date: Date) {
        current.withLockedValue { $0 = date }
    }
}
