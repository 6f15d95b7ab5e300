import AMQP

/// Retries `body` while it fails with `.notConnected` (the client is between reconnect attempts), up to 5 s.
func retryingWhileReconnecting<T>(_ body: () async throws -> T) async throws -> T {
    let deadline = ContinuousClock.now + .seconds(5)
    while true {
        do {
            return try await body()
        } catch let error as AMQPError where error.code == .notConnected && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
