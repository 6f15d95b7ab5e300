import AMQP
import Foundation
import WorkerConfiguration

/// Publishes realistic jobs (random 32-byte tokens, a ~300-byte alert) with confirms.
enum JobLoader {
    static func body(index: Int) -> [UInt8] {
        body(index: index, id: "job-\(index)", topic: "com.example.app")
    }

    /// A job with its own `id` and `topic`.
    static func body(index: Int, id: String, topic: String) -> [UInt8] {
        let fields = #"{"id":"\#(id)","device_token":"\#(randomToken())","topic":"\#(topic)","payload":"#
        return Array(fields.utf8) + payload(index: index) + [UInt8(ascii: "}")]
    }

    /// A random 32-byte device token in hex, starting with `a` as the benchmarks always have. Built
    /// from bytes: 200,000 tokens for a multicast backlog took the benchmark seconds as strings.
    static func randomToken() -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: [UInt8(ascii: "a")] + (0..<63).map { _ in digits.randomElement()! }, as: UTF8.self)
    }

    /// A job the worker refuses (`BadDeviceToken`: three hex digits): a producer's bug, answered with
    /// a result and a dead letter, and logged as a warning.
    static func malformedBody(index: Int) -> [UInt8] {
        Array(#"{"id":"bad-\#(index)","device_token":"abc","topic":"com.example.app","payload":"#.utf8) + payload(index: index) + [UInt8(ascii: "}")]
    }

    /// The notification payload of job `index`: an order-shipped alert.
    static func payload(index: Int) -> [UInt8] {
        Array(
            #"{"aps":{"alert":{"title":"Your order has shipped","body":"Order #\#(index) is on its way and should arrive on Thursday. Tap to follow it on the map."},"badge":3,"sound":"default","thread-id":"orders"},"order_id":"\#(index)"}"#.utf8
        )
    }

    /// Publishes `count` stamped jobs at `rate` per second, every 2 ms the jobs due by then: a steady
    /// offered load (in 10 ms batches the bursts themselves doubled the median latency). Confirms are
    /// awaited alongside, at most `window` outstanding, never a batch's before the next: until
    /// 2026-11-30 each batch waited for its own, so a busy broker's confirm round trip set the pace,
    /// and a run asked for 10,000 jobs/s offered about 6,500. A tick that comes late (or waits for a
    /// full window) publishes what it owes at once; each job is stamped when it is handed over, as a
    /// producer that fell behind would stamp it.
    ///
    /// - Returns: the rate achieved: `count` over the time until the last job was handed over.
    @discardableResult
    static func publishSteadily(
        _ count: Int, rate: Double, into client: AMQPClient, topology: TopologySection, routingKey: String? = nil, replyTo: String? = nil,
        times: ResultLatencies.PublishTimes? = nil, window: Int = 2000, body: (Int) -> [UInt8] = JobLoader.body(index:)
    ) async throws -> Double {
        let tick = Duration.milliseconds(2)
        let clock = ContinuousClock()
        let start = clock.now
        let routingKey = routingKey ?? topology.jobsRoutingKey
        var handedOver = start
        try await withThrowingTaskGroup(of: AMQPPublishOutcome.self) { group in
            var sent = 0
            var outstanding = 0
            while sent < count {
                // What the schedule owes by now, so a tick that ran late catches up instead of lowering the rate.
                let due = min(count, Int((rate * (clock.now - start).seconds).rounded(.up)))
                while sent < due {
                    if outstanding >= window {
                        try confirmed(try await group.next())
                        outstanding -= 1
                    }
                    let message = jobMessage(body(sent), replyTo: replyTo)
                    times?.record(sent)
                    group.addTask { try await client.publish(exchange: topology.jobsExchange, routingKey: routingKey, message: message, mandatory: true) }
                    sent += 1
                    outstanding += 1
                }
                if sent == count { break }
                try await clock.sleep(until: start + .seconds(Double(sent) / rate) + tick)
            }
            handedOver = clock.now
            for try await outcome in group { try confirmed(outcome) }
        }
        return Double(count) / (handedOver - start).seconds
    }

    private static func jobMessage(_ body: [UInt8], replyTo: String?, stamp: Bool = true) -> AMQPMessage {
        var properties = AMQPProperties()
        properties.contentType = "application/json"
        properties.persistent = true
        properties.replyTo = replyTo
        if stamp { properties.headers["published-at"] = .int(Int64(Date().timeIntervalSince1970 * 1000)) }
        return AMQPMessage(body: body, properties: properties)
    }

    private static func confirmed(_ outcome: AMQPPublishOutcome?) throws {
        guard let outcome, outcome != .confirmed else { return }
        throw BenchError("job not confirmed: \(outcome)")
    }

    /// Publishes `count` jobs (`body` of each index: ``body(index:)`` by default), at most `window`
    /// awaiting confirms; `stamp` adds a `published-at` header (milliseconds) so results carry
    /// end-to-end latency; `routingKey` is the jobs exchange's (the urgent lane's, say) instead of
    /// the bulk one; `replyTo` the queue each job's result goes to instead of the results exchange;
    /// `times` records when each job was handed to the broker.
    static func load(
        _ count: Int, into client: AMQPClient, topology: TopologySection, from start: Int = 0, window: Int = 2000, stamp: Bool = false,
        routingKey: String? = nil, replyTo: String? = nil, times: ResultLatencies.PublishTimes? = nil, body: (Int) -> [UInt8] = JobLoader.body(index:)
    ) async throws {
        let routingKey = routingKey ?? topology.jobsRoutingKey
        try await withThrowingTaskGroup(of: AMQPPublishOutcome.self) { group in
            for index in start..<(start + count) {
                if index - start >= window { try confirmed(try await group.next()) }
                let message = jobMessage(body(index), replyTo: replyTo, stamp: stamp)
                times?.record(index)
                group.addTask {
                    try await client.publish(exchange: topology.jobsExchange, routingKey: routingKey, message: message, mandatory: true)
                }
            }
            for try await outcome in group { try confirmed(outcome) }
        }
    }
}
