import AMQP

/// Retries `body` while it fails with `.notConnected` (the client is between reconnect attempts), up to 30 s: the
/// fault suite may keep the broker busy while these tests run, and recovery is the point, not its speed.
func retryingWhileReconnecting<T>(_ body: () async throws -> T) async throws -> T {
    let deadline = ContinuousClock.now + .seconds(30)
    while true {
        do {
            return try await body()
        } catch let error as AMQPError where error.code == .notConnected && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
