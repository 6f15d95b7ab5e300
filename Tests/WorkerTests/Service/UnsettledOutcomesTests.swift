import AMQP
import Testing
@testable import Worker

/// Remembering outcomes whose publications failed: bounded, aged, keyed by the delivery's content.
@Suite("Unsettled outcomes")
struct UnsettledOutcomesTests {
    static func result(_ id: String) -> [Publication] {
        [Publication(exchange: "results", routingKey: "result.delivered", message: AMQPMessage(body: Array(id.utf8)), kind: .result(status: "delivered", reason: nil, credential: nil))]
    }

    static func key(_ id: String, attempts: Int = 0, body: String = "{}") -> UnsettledOutcomes.Key {
        UnsettledOutcomes.Key(jobID: id, previousAttempts: attempts, body: Array(body.utf8))
    }

    @Test("an outcome is found again for the same delivery, and gone once forgotten")
    func rememberAndForget() {
        let outcomes = UnsettledOutcomes()
        #expect(outcomes.count == 0)
        outcomes.remember(Self.key("a"), Self.result("a"))
        #expect(outcomes.count == 1)
        #expect(outcomes.outcome(for: Self.key("a"))?.first?.message.body == Array("a".utf8))
        outcomes.forget(Self.key("a"))
        #expect(outcomes.count == 0)
        #expect(outcomes.outcome(for: Self.key("a")) == nil)
    }

    @Test("another body, or another attempt, of the same job id is not the same delivery")
    func keyedByContent() {
        let outcomes = UnsettledOutcomes()
        outcomes.remember(Self.key("a", body: #"{"v":1}"#), Self.result("a"))
        #expect(outcomes.outcome(for: Self.key("a", body: #"{"v":2}"#)) == nil)
        #expect(outcomes.outcome(for: Self.key("a", attempts: 1, body: #"{"v":1}"#)) == nil)
        #expect(outcomes.outcome(for: Self.key("a", body: #"{"v":1}"#)) != nil)
    }

    @Test("beyond the capacity the oldest are dropped")
    func bounded() {
        let outcomes = UnsettledOutcomes(capacity: 3)
        for id in ["a", "b", "c", "d", "e"] { outcomes.remember(Self.key(id), Self.result(id)) }
        #expect(outcomes.count == 3)
        #expect(outcomes.outcome(for: Self.key("a")) == nil)
        #expect(outcomes.outcome(for: Self.key("b")) == nil)
        #expect(outcomes.outcome(for: Self.key("e")) != nil)
    }

    @Test("an outcome older than the age limit is not used")
    func aged() async throws {
        let outcomes = UnsettledOutcomes(maximumAge: .milliseconds(50))
        outcomes.remember(Self.key("a"), Self.result("a"))
        try await Task.sleep(for: .milliseconds(120))
        #expect(outcomes.outcome(for: Self.key("a")) == nil)
        #expect(outcomes.count == 0)
    }
}
