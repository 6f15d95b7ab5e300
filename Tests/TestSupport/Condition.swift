/// Waiting in tests for a condition, never for a time: polls until it holds, and fails loudly, naming
/// what never happened, when it does not within the timeout.
public enum Condition {
    /// Polls `condition` every `interval` until it holds; throws ``ConditionTimeout`` after `timeout`,
    /// with `context` (a process's log, say) evaluated only then.
    public static func wait(
        _ what: String, timeout: Duration = .seconds(30), interval: Duration = .milliseconds(20),
        context: () -> String = { "" }, _ condition: () throws -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while try !condition() {
            guard ContinuousClock.now < deadline else { throw ConditionTimeout(what: what, timeout: timeout, context: context()) }
            try await Task.sleep(for: interval)
        }
    }

    /// ``wait(_:timeout:interval:context:_:)`` for a condition that must await to find out (a channel's
    /// outbound queue, an actor's state).
    public static func wait(
        _ what: String, timeout: Duration = .seconds(30), interval: Duration = .milliseconds(20),
        context: () -> String = { "" }, asking condition: () async throws -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while try await !condition() {
            guard ContinuousClock.now < deadline else { throw ConditionTimeout(what: what, timeout: timeout, context: context()) }
            try await Task.sleep(for: interval)
        }
    }
}

/// A condition that did not hold in time.
public struct ConditionTimeout: Error, CustomStringConvertible {
    public let what: String
    public let timeout: Duration
    /// What the waiter added to explain the failure (empty if nothing).
    public let context: String
    public var description: String { "not within \(timeout): \(what)" + (context.isEmpty ? "" : "\n\(context)") }
}
