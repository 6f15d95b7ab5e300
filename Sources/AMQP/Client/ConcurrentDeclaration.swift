/// Declarations that meet another client's declaration of the same queue.
///
/// RabbitMQ answers a declaration 404 "home node … of durable queue … is down or inaccessible" when it
/// reads its queue tables while another client's declaration of that queue commits: it finds the
/// durable record before the live one, outside a transaction (`rabbit_amqqueue:not_found_or_absent_dirty`,
/// whose own comment says such an inconsistency "only affect[s] the error kind"). A fleet starting at
/// once on a fresh broker meets it, and so did the test suite, where a worker and its test declare
/// together. The same answer also means a cluster node that is really down, so a declaration is tried
/// again only a few times, within about a second, and then fails as before.
enum ConcurrentDeclaration {
    /// The pauses before each further try: 50 ms doubling, 750 ms in all.
    static let pauses: [Duration] = [.milliseconds(50), .milliseconds(100), .milliseconds(200), .milliseconds(400)]

    /// Runs `declare`, and again after each of `pauses` while it fails with an answer that may come from
    /// a concurrent declaration; any other failure, or the last one, is thrown.
    @discardableResult
    static func retrying<Result>(
        pauses: [Duration] = pauses,
        sleep: (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        _ declare: () async throws -> Result
    ) async throws -> Result {
        for pause in pauses {
            do {
                return try await declare()
            } catch let error as AMQPError where error.mayComeFromAConcurrentDeclaration {
                try await sleep(pause)
            }
        }
        return try await declare()
    }
}

extension AMQPError {
    /// Whether the broker said a durable queue's home node is down or inaccessible, which it also says
    /// while another client declares that queue (see ``ConcurrentDeclaration``).
    var mayComeFromAConcurrentDeclaration: Bool {
        code == .brokerClosed(replyCode: 404) && message.contains("is down or inaccessible")
    }
}
