import NIOConcurrencyHelpers

/// An async operation started at once, whose outcome a test polls (``Condition/wait``) instead of
/// awaiting it: a wait with a bound fails naming what never ended, where awaiting an operation that
/// hangs would hang the whole run.
public final class PolledTask<Success: Sendable>: Sendable {
    private let outcome = NIOLockedValueBox<Result<Success, any Error>?>(nil)

    /// Starts `operation` on a task of its own.
    public init(_ operation: @escaping @Sendable () async throws -> Success) {
        Task {
            let result: Result<Success, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            outcome.withLockedValue { $0 = result }
        }
    }

    /// How the operation ended; nil while it runs.
    public var result: Result<Success, any Error>? { outcome.withLockedValue { $0 } }
}
