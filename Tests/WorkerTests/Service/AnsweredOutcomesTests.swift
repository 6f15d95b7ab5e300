import AMQP
import Testing
@testable import Worker

/// Remembering what APNs answered: keyed by the delivery's content, bounded in bytes and age, the
/// oldest going first; time is passed in, never waited for.
@Suite("Answered outcomes")
struct AnsweredOutcomesTests {
    static let start = ContinuousClock.now

    static func result(_ id: String, size: Int = 0) -> [Publication] {
        let body = Array(id.utf8) + [UInt8](repeating: 0x20, count: size)
        return [Publication(exchange: "results", routingKey: "result.delivered", message: AMQPMessage(body: body), kind: .result(status: "delivered", reason: nil, credential: nil))]
    }

    static func key(_ id: String, attempts: Int = 0, body: String = "{}") -> AnsweredOutcomes.Key {
        AnsweredOutcomes.Key(jobID: id, previousAttempts: attempts, body: Array(body.utf8))
    }

    @Test("an outcome is found again for the same delivery")
    func remember() {
        let outcomes = AnsweredOutcomes()
        #expect(outcomes.count == 0)
        outcomes.remember(Self.key("a"), Self.result("a"), now: Self.start)
        #expect(outcomes.count == 1)
        #expect(outcomes.outcome(for: Self.key("a"), now: Self.start)?.publications.first?.message.body == Array("a".utf8))
        #expect(outcomes.outcome(for: Self.key("b"), now: Self.start) == nil)
    }

    @Test("another body, or another attempt, of the same job id is not the same delivery")
    func keyedByContent() {
        let outcomes = AnsweredOutcomes()
        outcomes.remember(Self.key("a", body: #"{"v":1}"#), Self.result("a"), now: Self.start)
        #expect(outcomes.outcome(for: Self.key("a", body: #"{"v":2}"#), now: Self.start) == nil)
        #expect(outcomes.outcome(for: Self.key("a", attempts: 1, body: #"{"v":1}"#), now: Self.start) == nil)
        #expect(outcomes.outcome(for: Self.key("a", body: #"{"v":1}"#), now: Self.start) != nil)
    }

    @Test("beyond the byte budget the oldest are dropped, and the bytes stay within it")
    func bounded() {
        let each = AnsweredOutcomes.footprint(of: Self.result("a", size: 1000), key: Self.key("a"))
        let outcomes = AnsweredOutcomes(budget: 3 * each)
        for (index, id) in ["a", "b", "c", "d", "e"].enumerated() {
            outcomes.remember(Self.key(id), Self.result(id, size: 1000), now: Self.start + .seconds(index))
        }
        #expect(outcomes.count == 3)
        #expect(outcomes.bytes == 3 * each)
        #expect(outcomes.outcome(for: Self.key("a"), now: Self.start + .seconds(5)) == nil)
        #expect(outcomes.outcome(for: Self.key("b"), now: Self.start + .seconds(5)) == nil)
        #expect(outcomes.outcome(for: Self.key("e"), now: Self.start + .seconds(5)) != nil)
    }

    @Test("a key remembered again keeps its newest outcome and is counted once")
    func rememberedAgain() {
        let each = AnsweredOutcomes.footprint(of: Self.result("a", size: 1000), key: Self.key("a"))
        let outcomes = AnsweredOutcomes(budget: 2 * each)
        outcomes.remember(Self.key("a"), Self.result("a", size: 1000), now: Self.start)
        outcomes.remember(Self.key("b"), Self.result("b", size: 1000), now: Self.start + .seconds(1))
        outcomes.remember(Self.key("a"), Self.result("a", size: 1000), now: Self.start + .seconds(2))
        #expect(outcomes.count == 2 && outcomes.bytes == 2 * each)
        // "c" pushes out the oldest place: b's (a's first place is stale and skipped).
        outcomes.remember(Self.key("c"), Self.result("c", size: 1000), now: Self.start + .seconds(3))
        #expect(outcomes.outcome(for: Self.key("a"), now: Self.start + .seconds(3)) != nil)
        #expect(outcomes.outcome(for: Self.key("b"), now: Self.start + .seconds(3)) == nil)
        #expect(outcomes.count == 2)
    }

    @Test("an entry is counted as allocated: every buffer, long string, slot and header table, not only the body")
    func footprint() {
        let small = AnsweredOutcomes.footprint(of: Self.result("a"), key: Self.key("a"))
        // Two slots each of the table and the order ring, the array, the body's buffer.
        #expect(small >= 2 * (MemoryLayout<AnsweredOutcomes.Key>.stride + MemoryLayout<ContinuousClock.Instant>.stride) + MemoryLayout<Publication>.stride + 48)
        #expect(AnsweredOutcomes.footprint(of: Self.result("a", size: 1000), key: Self.key("a")) - small >= 1000 - 16, "the body's buffer (the one-byte body's rounds up to 16)")
        let longID = String(repeating: "j", count: 40)
        #expect(AnsweredOutcomes.footprint(of: Self.result("a"), key: Self.key(longID)) - small >= 40, "a job id too long to be inline")
        var retry = AMQPMessage(body: Array("{}".utf8))
        retry.properties.headers = ["x-attempts": .int(2), "x-last-error": .string("Unregistered")]
        let withHeaders = [Publication(exchange: "results", routingKey: "result.delivered", message: retry, kind: .retry(tier: "retry.1"))]
        #expect(AnsweredOutcomes.footprint(of: withHeaders, key: Self.key("a")) - small >= 2 * MemoryLayout<AMQPFieldValue>.stride, "a header table")
        // A second publication: its object (header, routes, message with its properties) and its body.
        let two = AnsweredOutcomes.footprint(of: Self.result("a") + Self.result("b"), key: Self.key("a"))
        #expect(two - small >= 16 + 2 * MemoryLayout<String>.stride + MemoryLayout<AMQPMessage>.stride + 32, "a second publication, object and body")
    }

    @Test("an outcome older than the age limit is not used, and goes at the next remember")
    func aged() {
        let outcomes = AnsweredOutcomes(maximumAge: .seconds(600))
        outcomes.remember(Self.key("a"), Self.result("a"), now: Self.start)
        #expect(outcomes.outcome(for: Self.key("a"), now: Self.start + .seconds(600)) != nil)
        #expect(outcomes.outcome(for: Self.key("a"), now: Self.start + .seconds(601)) == nil)
        outcomes.remember(Self.key("b"), Self.result("b"), now: Self.start + .seconds(601))
        #expect(outcomes.count == 1)
    }
}
