import AMQP
import Testing
@testable import Worker

@Suite("Retry headers: written on copies, read back within the policy's bounds")
struct RetryHeadersTests {
    @Test("what a copy is written with reads back the same")
    func roundTrip() {
        var headers: [String: AMQPFieldValue] = ["trace": "t-1"]
        RetryHeaders(attempts: 3, deferrals: 2).write(into: &headers, lastError: String(repeating: "x", count: 900))
        #expect(headers["retry-attempt"] == .int(3) && headers["retry-deferred"] == .int(2))
        #expect(headers["last-error"] == .string(String(repeating: "x", count: 500)), "the last error is cut to 500 characters")
        #expect(headers["trace"] == "t-1", "a producer's own headers stay")
        #expect(RetryHeaders(reading: headers, maxAttempts: 5, maxDeferrals: 5) == RetryHeaders(attempts: 3, deferrals: 2))
    }

    @Test("a forged or foreign count is kept below the policy's limit and never negative")
    func forgedCounts() {
        let forged: [String: AMQPFieldValue] = ["retry-attempt": .int(.max), "retry-deferred": .int(-7)]
        #expect(RetryHeaders(reading: forged, maxAttempts: 5, maxDeferrals: 3) == RetryHeaders(attempts: 4, deferrals: 0))
        let text: [String: AMQPFieldValue] = ["retry-attempt": "2"]
        #expect(RetryHeaders(reading: text, maxAttempts: 5, maxDeferrals: 3).attempts == 0, "only an integer counts")
    }

    @Test("a dead letter (no deferrals now) keeps the deferral count its job arrived with")
    func deadLetterKeepsDeferrals() {
        var headers: [String: AMQPFieldValue] = ["retry-deferred": .int(4)]
        RetryHeaders(attempts: 1).write(into: &headers, lastError: "BadDeviceToken")
        #expect(headers["retry-deferred"] == .int(4))
        #expect(RetryHeaders.names == ["retry-attempt", "retry-deferred", "last-error", "credential", "retry-copy"])
    }
}
