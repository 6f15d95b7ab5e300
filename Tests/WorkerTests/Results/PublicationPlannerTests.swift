import AMQP
import APNsCore
import Foundation
import JSON
import Logging
import Testing
import TestSupport
@testable import Worker
import WorkerConfiguration

/// The decision core as a table: each verdict, for each kind of job, and exactly the messages it
/// publishes: where each goes, what the result says, and what counts each copy carries.
@Suite("Publication planner: what each verdict publishes (no I/O)")
struct PublicationPlannerTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let topology = TopologySection()
    static let arrivedWith = Tries(attempts: 1, deferrals: 2)
    /// The counts after this try, which a retry copy and a dead letter carry. Apart from
    /// ``arrivedWith`` in both counts (no single try moves both), so that a copy given the wrong ones shows.
    static let afterTry = Tries(attempts: 2, deferrals: 3)

    static func planner() -> PublicationPlanner {
        var logger = Logger(label: "unit")
        logger.logLevel = .critical
        return PublicationPlanner(
            messages: OutgoingMessages(topology: Topology(settings: topology)),
            policy: RetryPolicy(tiers: topology.retryTiers, maxAttempts: 5),
            credentialBackoff: .seconds(60), logger: logger, now: { now }
        )
    }

    /// A delivery of `body` carrying the counts it arrived with, as a retry copy's headers.
    static func context(_ body: String) -> ResultContext {
        var properties = AMQPProperties()
        properties.headers = [RetryHeaders.attempts: .int(Int64(arrivedWith.attempts)), RetryHeaders.deferrals: .int(Int64(arrivedWith.deferrals))]
        let delivery = AMQPDelivery(
            message: AMQPMessage(body: Array(body.utf8), properties: properties), deliveryTag: 1, redelivered: false,
            exchange: topology.jobsExchange, routingKey: "send", queue: topology.jobsQueue, generation: 1
        )
        return ResultContext(delivery: delivery, lane: .bulk, received: now, replyTo: nil, workerName: "unit")
    }

    static func job(multicast: Multicast? = nil) throws -> Job {
        let request = try NotificationRequest(deviceToken: DeviceToken(hex: "aa01"), topic: "com.example.app", payload: Array("{}".utf8))
        return Job(
            id: "j-1", request: request, credentialName: nil, environment: nil, deadline: nil, replyTo: nil,
            previousAttempts: arrivedWith.attempts, previousDeferrals: arrivedWith.deferrals, multicast: multicast
        )
    }

    /// One publication as a test reads it.
    struct Published: Equatable, CustomStringConvertible {
        let exchange: String
        /// A copy's routing key (its retry tier) and expiration (its wait there); nil for a result.
        var routingKey: String?
        var expiration: String?
        /// The result's status, for a result.
        var status: String?
        var reason: String?
        /// A copy's `retry-attempt` and `retry-deferred` headers.
        var attempts: Int64?
        var deferrals: Int64?
        var lastError: String?

        init(_ publication: Publication) {
            exchange = publication.exchange
            if exchange == PublicationPlannerTests.topology.resultsExchange, let result = try? JobResult.decode(publication.message.body) {
                status = result.status.rawValue
                reason = result.reason
                return
            }
            routingKey = publication.routingKey
            expiration = publication.message.properties.expiration
            let headers = publication.message.properties.headers
            if case .int(let count)? = headers[RetryHeaders.attempts] { attempts = count }
            if case .int(let count)? = headers[RetryHeaders.deferrals] { deferrals = count }
            if case .string(let text)? = headers[RetryHeaders.lastError] { lastError = text }
        }

        init(
            exchange: String, routingKey: String? = nil, expiration: String? = nil, status: String? = nil, reason: String? = nil,
            attempts: Int64? = nil, deferrals: Int64? = nil, lastError: String? = nil
        ) {
            (self.exchange, self.routingKey, self.expiration, self.status, self.reason) = (exchange, routingKey, expiration, status, reason)
            (self.attempts, self.deferrals, self.lastError) = (attempts, deferrals, lastError)
        }

        var description: String {
            "\(exchange) \(routingKey ?? "-") expires \(expiration ?? "-") \(status ?? "-") \(reason ?? "-") attempts \(attempts.map(String.init) ?? "-") deferrals \(deferrals.map(String.init) ?? "-") \(lastError ?? "")"
        }
    }

    static func result(_ status: String, reason: String? = nil) -> Published { Published(exchange: topology.resultsExchange, status: status, reason: reason) }
    /// A dead letter: this try's attempts; its deferrals as the job arrived (a dead letter writes none).
    static func deadLetter(_ lastError: String) -> Published {
        Published(exchange: topology.deadExchange, routingKey: topology.routingKey(of: .bulk), attempts: Int64(afterTry.attempts), deferrals: Int64(arrivedWith.deferrals), lastError: lastError)
    }

    /// A retry copy to the tier `seconds` long, held there that long.
    static func retry(_ tries: Tries, tier seconds: Int64, _ lastError: String) -> Published {
        Published(
            exchange: topology.retryExchange, routingKey: topology.retryRoutingKey(forTier: .seconds(seconds), lane: .bulk), expiration: String(seconds * 1000),
            attempts: Int64(tries.attempts), deferrals: Int64(tries.deferrals), lastError: lastError
        )
    }

    static let refusal = APNsRejection(status: 403, reason: APNsReason(name: "InvalidProviderToken"))
    static let unavailable = APNsRejection(status: 503, reason: APNsReason(name: "ServiceUnavailable"))

    /// Every verdict and what it publishes: a single-device job's and a channel job's alike.
    static let table: [(verdict: Verdict, expected: [Published])] = [
        (.delivered(APNsAcceptance(apnsID: "A", uniqueID: nil)), [result("delivered")]),
        (.rejected(APNsRejection(status: 410, reason: APNsReason(name: "Unregistered"))), [result("rejected", reason: "Unregistered")]),
        (.failed(code: "ServiceUnavailable", detail: "retries used up", rejection: unavailable),
         [result("failed", reason: "ServiceUnavailable"), deadLetter("ServiceUnavailable: retries used up")]),
        (.expired(lastError: "deadline passed"), [result("expired"), deadLetter("expired: deadline passed")]),
        (.retry(tier: 1, delay: .seconds(30), lastError: "ServiceUnavailable: try later"), [retry(afterTry, tier: 30, "ServiceUnavailable: try later")]),
        // Not an attempt: the job goes back with the counts it came with, to the first tier as long as
        // the credential's pause (60 s: the 120 s tier).
        (.credentialRefused(lastError: "InvalidProviderToken: refused"), [retry(arrivedWith, tier: 120, "InvalidProviderToken: refused")]),
    ]

    @Test("a single-device job", arguments: table)
    func notification(_ verdict: Verdict, _ expected: [Published]) throws {
        let publications = Self.planner().notification(verdict, job: try Self.job(), credential: "team-one", tries: Self.afterTry, context: Self.context("{}"))
        #expect(publications.map(Published.init) == expected)
    }

    @Test("a channel job: the same messages as a notification's", arguments: table)
    func channel(_ verdict: Verdict, _ expected: [Published]) throws {
        let body = #"{"id":"j-1","bundle_id":"com.example.app","channel_action":"create","message_storage_policy":1}"#
        guard case .success(.channel(let job)) = JobDecoder.decodeAny(JobEnvelope(body: Array(body.utf8), messageID: nil, replyTo: nil, previousAttempts: Self.arrivedWith.attempts, previousDeferrals: Self.arrivedWith.deferrals)) else {
            Issue.record("the channel job did not decode")
            return
        }
        let publications = Self.planner().channel(verdict, job: job, credential: "team-one", tries: Self.afterTry, context: Self.context(body))
        #expect(publications.map(Published.init) == expected)
    }

    @Test("a channel create: its result carries the new channel's id and APNs' request id, and no apns-id")
    func channelAnswer() throws {
        let body = #"{"id":"j-1","bundle_id":"com.example.app","channel_action":"create","message_storage_policy":1}"#
        guard case .success(.channel(let job)) = JobDecoder.decodeAny(JobEnvelope(body: Array(body.utf8))) else {
            Issue.record("the channel job did not decode")
            return
        }
        var acceptance = APNsAcceptance(apnsID: "not-for-channels", uniqueID: nil)
        acceptance.status = 201
        acceptance.channelID = "dHN0LXRvcGljLWNoYW5uZWw="
        acceptance.requestID = "5f2a1d9e-0000-4000-8000-000000000001"
        let publications = Self.planner().channel(.delivered(acceptance), job: job, credential: "team-one", tries: Tries(attempts: 1), context: Self.context(body))
        let result = try JobResult.decode(try #require(publications.first).message.body)
        #expect(publications.count == 1)
        #expect(result.status == .delivered && result.httpStatus == 201)
        #expect(result.channelID == "dHN0LXRvcGljLWNoYW5uZWw=")
        #expect(result.requestID == "5f2a1d9e-0000-4000-8000-000000000001")
        #expect(result.apnsID == nil)
        #expect(result.channelAction == "create")
    }

    @Test("a multicast pass: one summary result, a dead letter of only the dead tokens, a retry copy per kind of try")
    func multicast() throws {
        let tokens = try ["01", "02", "03", "04", "05"].map { try DeviceToken(hex: $0) }
        let job = try Self.job(multicast: Multicast(tokens: tokens))
        let registry = try CredentialRegistry.load(JobProcessorTests.settings())
        let entry = try #require(registry.entry(named: "team-one"))
        let body = #"{"id":"j-1","topic":"com.example.app","payload":{},"device_tokens":[\#(tokens.map { "\"\($0.hexString)\"" }.joined(separator: ","))]}"#
        let pending = PendingSend(job: job, context: Self.context(body), credential: entry.credential, credentialName: "team-one", endpoint: entry.endpoint)
        let planner = Self.planner()
        var tally = MulticastTally(starting: try #require(job.multicast))
        func record(_ token: DeviceToken, _ outcome: Result<APNsResponse, APNsSendError>, attempts: Int) {
            let tries = job.previousTries.after(processed: outcome.processedByAPNs)
            let verdict = planner.policy.verdict(for: outcome, job: job, attempts: attempts, deferrals: tries.deferrals, now: Self.now, jitter: 1)
            tally.record(token, apnsID: APNsID.derived(fromJobID: job.id, token: token), outcome: outcome, verdict: verdict)
        }
        record(tokens[0], .success(.accepted(APNsAcceptance(apnsID: nil, uniqueID: nil))), attempts: 2)
        record(tokens[1], .success(.rejected(APNsRejection(status: 410, reason: APNsReason(name: "Unregistered")))), attempts: 2)
        record(tokens[2], .success(.rejected(Self.unavailable)), attempts: 2)  // retried: an attempt
        record(tokens[3], .success(.rejected(Self.unavailable)), attempts: 5)  // the last attempt: dead
        record(tokens[4], .failure(APNsSendError(.timedOut, .notProcessed, "no stream became free")), attempts: 1)  // a deferral

        let publications = planner.multicast(pending, tally: tally)
        let exchanges = publications.map(\.exchange)
        #expect(exchanges == [Self.topology.resultsExchange, Self.topology.deadExchange, Self.topology.retryExchange, Self.topology.retryExchange])
        let result = try JobResult.decode(publications[0].message.body)
        #expect(result.status == .partial)
        #expect(result.tokens?.delivered == 1 && result.tokens?.rejected == 1 && result.tokens?.failed == 1 && result.tokens?.retrying == 2)
        #expect(try Self.tokens(in: publications[1].message) == [tokens[3].hexString])
        #expect(Published(publications[1]).attempts == Int64(Self.arrivedWith.attempts + 1), "the pass was an attempt")
        #expect(try publications[2...].map { try Self.tokens(in: $0.message) } == [[tokens[2].hexString], [tokens[4].hexString]])
        #expect(publications[2...].map { Published($0).attempts } == [Int64(Self.arrivedWith.attempts + 1), Int64(Self.arrivedWith.attempts)])
        // Both copies wait as long as the longest wait any of their tokens asked for: the 503's second attempt, 30 s.
        #expect(publications[2...].map(\.routingKey) == Array(repeating: Self.topology.retryRoutingKey(forTier: .seconds(30), lane: .bulk), count: 2))
        #expect(publications[2...].map { Published($0).deferrals } == [Int64(Self.arrivedWith.deferrals), Int64(Self.arrivedWith.deferrals + 1)])
    }

    /// The `device_tokens` a copy of a multicast job holds.
    static func tokens(in message: AMQPMessage) throws -> [String] {
        guard case .object(let fields) = try JSONReader.parse(message.body), case .array(let items)? = fields["device_tokens"] else { return [] }
        return items.compactMap { if case .string(let token) = $0 { token } else { nil } }
    }
}
