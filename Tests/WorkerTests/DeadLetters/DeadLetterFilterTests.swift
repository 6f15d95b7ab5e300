import AMQP
@testable import DeadLetterTools
import Foundation
import Testing
@testable import Worker

@Suite("Dead-letter selection")
struct DeadLetterFilterTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func letter(error: String?, credential: String? = nil, deadLetteredSecondsAgo age: Double? = nil, headers: [String: AMQPFieldValue] = [:]) -> DeadLetter {
        var properties = AMQPProperties()
        properties.headers = headers
        if let error { properties.headers[RetryHeaders.lastError] = .string(error) }
        if let age { properties.headers[DeadLetter.deadLetteredAtHeader] = .int(Int64((now.timeIntervalSince1970 - age) * 1000)) }
        let extra = credential.map { #","credential":"\#($0)""# } ?? ""
        let body = #"{"id":"job-1","device_token":"\#(String(repeating: "ab", count: 32))","topic":"com.example.app","payload":{"aps":{}}\#(extra)}"#
        return DeadLetter(AMQPMessage(body: Array(body.utf8), properties: properties))
    }

    @Test("a letter reads its reason, job, credential, topic and time from the message")
    func reading() {
        let read = letter(error: "BadDeviceToken: the token is not valid", credential: "team-two", deadLetteredSecondsAgo: 90, headers: [RetryHeaders.attempts: .int(3)])
        #expect(read.reason == "BadDeviceToken")
        #expect(read.jobID == "job-1")
        #expect(read.credential == "team-two")
        #expect(read.topic == "com.example.app")
        #expect(read.attempts == 3)
        #expect(read.deadLetteredAt.map { now.timeIntervalSince($0) } == 90)
    }

    @Test("a letter the broker dead-lettered itself takes its reason and time from x-death")
    func brokerDeadLetter() {
        let death: AMQPFieldValue = .array([.table(["reason": .string("delivery_limit"), "time": .int(Int64(now.timeIntervalSince1970) - 60)])])
        let read = letter(error: nil, headers: ["x-death": death])
        #expect(read.reason == "delivery_limit")
        #expect(read.deadLetteredAt == now.addingTimeInterval(-60))
        #expect(letter(error: nil).reason == "unknown")
    }

    @Test("a retry copy the broker dead-lettered at its delivery limit is a delivery_limit letter, not its retry's error")
    func brokerDeadLetteredRetryCopy() {
        let death: AMQPFieldValue = .array([.table(["reason": .string("delivery_limit"), "time": .int(Int64(now.timeIntervalSince1970) - 60)])])
        let read = letter(error: "ServiceUnavailable: 503 ServiceUnavailable", headers: ["x-death": death])
        #expect(read.reason == "delivery_limit")
        #expect(read.lastError == "ServiceUnavailable: 503 ServiceUnavailable", "the retry's error is still there to read")
        // Once the worker dead-letters it (dead-lettered-at), its own last-error says why.
        #expect(letter(error: "ServiceUnavailable: 3 attempts", deadLetteredSecondsAgo: 5, headers: ["x-death": death]).reason == "ServiceUnavailable")
    }

    @Test("the credential the worker chose (its header) counts, also when the job names none")
    func chosenCredential() {
        #expect(letter(error: "BadDeviceToken: x", headers: [RetryHeaders.credential: .string("team-shop")]).credential == "team-shop")
        #expect(letter(error: "BadDeviceToken: x", credential: "team-two").credential == "team-two")
        var filter = DeadLetterFilter()
        filter.credentials = ["team-shop"]
        #expect(filter.selects(letter(error: "BadDeviceToken: x", headers: [RetryHeaders.credential: .string("team-shop")]), now: now))
    }

    @Test("reasons an operator may type: the worker's and the broker's codes, HTTP<status>; not made-up ones")
    func knownReasons() {
        for reason in ["ServiceUnavailable", "baddevicetoken", "expired", "delivery_limit", "InvalidJSON", "TimedOut", "PayloadTooLarge", "HTTP500"] {
            #expect(DeadLetterReason.isKnown(reason), "\(reason)")
        }
        for reason in ["HTTP50", "503", "service unavailable", "HTTP5033"] {
            #expect(!DeadLetterReason.isKnown(reason), "\(reason)")
        }
    }

    @Test("a status code names the reasons letters of that status usually read instead")
    func usualReasons() {
        #expect(DeadLetterReason.reasonsUsuallyWritten(insteadOf: "HTTP503") == ["ServiceUnavailable", "Shutdown"])
        #expect(DeadLetterReason.reasonsUsuallyWritten(insteadOf: "http500") == ["InternalServerError"])
        #expect(DeadLetterReason.reasonsUsuallyWritten(insteadOf: "HTTP299").isEmpty)
        #expect(DeadLetterReason.reasonsUsuallyWritten(insteadOf: "ServiceUnavailable").isEmpty)
    }

    @Test("a body that is not a job still gives its message id")
    func undecodable() {
        var properties = AMQPProperties()
        properties.messageID = "from-the-header"
        let read = DeadLetter(AMQPMessage(body: Array("not json".utf8), properties: properties))
        #expect(read.jobID == "from-the-header")
        #expect(read.credential == nil)
    }

    @Test("conditions all hold, values within one any; reasons ignore case")
    func conditions() {
        var filter = DeadLetterFilter()
        filter.reasons = ["baddevicetoken", "expired"]
        filter.credentials = ["team-two"]
        #expect(filter.selects(letter(error: "BadDeviceToken: x", credential: "team-two"), now: now))
        #expect(filter.selects(letter(error: "expired: x", credential: "team-two"), now: now))
        #expect(!filter.selects(letter(error: "BadDeviceToken: x", credential: "team-one"), now: now))
        #expect(!filter.selects(letter(error: "BadDeviceToken: x"), now: now), "no credential named: not team-two")
        #expect(!filter.selects(letter(error: "Unregistered: x", credential: "team-two"), now: now))
        #expect(DeadLetterFilter().selects(letter(error: nil), now: now), "no condition selects everything")
    }

    @Test("age conditions bound both ways, and a letter of unknown age matches none")
    func ages() {
        var older = DeadLetterFilter()
        older.olderThan = .seconds(3600)
        #expect(older.selects(letter(error: "x", deadLetteredSecondsAgo: 7200), now: now))
        #expect(!older.selects(letter(error: "x", deadLetteredSecondsAgo: 60), now: now))
        #expect(!older.selects(letter(error: "x"), now: now))
        var newer = DeadLetterFilter()
        newer.newerThan = .seconds(3600)
        #expect(newer.selects(letter(error: "x", deadLetteredSecondsAgo: 60), now: now))
        #expect(!newer.selects(letter(error: "x", deadLetteredSecondsAgo: 7200), now: now))
        #expect(!newer.selects(letter(error: "x"), now: now))
    }

    @Test("a replayed job keeps body and id, loses its counts, copy name, delivery count and expiry, and says when it was replayed")
    func replayedMessage() {
        var properties = AMQPProperties()
        properties.messageID = "job-1"
        properties.expiration = "500"
        properties.headers = [
            RetryHeaders.attempts: .int(3), RetryHeaders.deferrals: .int(2), RetryHeaders.lastError: .string("HTTP503: down"),
            RetryHeaders.copy: .string("5eed"), "x-delivery-count": .int(4), DeadLetter.deadLetteredAtHeader: .int(1), "tenant": .string("acme"),
        ]
        let dead = AMQPMessage(body: Array("{}".utf8), properties: properties)
        let replayed = ReplayedJob.message(from: dead, replayedAt: now)
        #expect(replayed.body == dead.body)
        #expect(replayed.properties.messageID == "job-1")
        #expect(replayed.properties.expiration == nil)
        #expect(replayed.properties.persistent)
        for header in [RetryHeaders.attempts, RetryHeaders.deferrals, RetryHeaders.copy, "x-delivery-count", DeadLetter.deadLetteredAtHeader] {
            #expect(replayed.properties.headers[header] == nil, "\(header)")
        }
        #expect(replayed.properties.headers["tenant"] == .string("acme"))
        #expect(replayed.properties.headers[ReplayedJob.replayedAtHeader] == .string("2027-01-15T08:00:00.000Z"))
    }
}
