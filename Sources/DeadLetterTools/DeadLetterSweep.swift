public import AMQP
public import Foundation

/// One pass over the dead-letter queue: looks at each dead letter in order, and lists, replays or
/// purges the ones the plan selects.
///
/// What is not taken stays in the queue in its order: every letter looked at is held unacknowledged
/// and, at the end, handed back (`basic.reject` with requeue, in the order it came, 32 at a time;
/// RabbitMQ puts returned messages ahead of the rest). A replayed letter is removed only after the broker confirmed
/// its copy to the jobs exchange; a copy the broker returns or refuses leaves the letter where it was.
/// Interrupted anywhere — a signal, a lost connection, `kill -9` — the broker hands back what was held,
/// so nothing is lost; a letter whose copy was confirmed but whose removal did not reach the broker is
/// replayed again next time (at-least-once, like every job).
///
/// The pass looks at the letters ready when it starts, and at most 65,535 held at once (the AMQP
/// prefetch limit): a larger queue takes more passes, and the report says so.
public struct DeadLetterSweep: Sendable {
    public enum Action: String, Sendable {
        case list, replay, purge
    }

    /// What happened to one dead letter.
    public enum Outcome: String, Sendable {
        /// Selected by `list`; left in place.
        case listed
        case replayed
        case purged
        /// Selected, but `--dry-run`: left in place.
        case wouldReplay = "would-replay"
        case wouldPurge = "would-purge"
        /// Not selected; left in place.
        case kept
        /// Selected for replay, but the broker did not confirm the copy: left in place.
        case failed
    }

    public struct Plan: Sendable {
        public var action: Action
        public var filter = DeadLetterFilter()
        /// At most this many letters selected.
        public var limit: Int?
        /// At most this many letters replayed or purged per second.
        public var rate: Double?
        public var dryRun = false
        /// A pass ends when no letter arrived for this long (another consumer took the rest, say).
        public var idleTimeout: Duration = .seconds(5)

        public init(action: Action) {
            self.action = action
        }
    }

    public struct Report: Sendable {
        /// Ready in the queue when the pass began.
        public var ready = 0
        public var looked = 0
        public var counts: [Outcome: Int] = [:]
        /// Why the pass ended before it looked at every letter ready at its start; `nil` when it did.
        public var stoppedEarly: String?
        /// A failed replay's last error.
        public var lastFailure: String?

        public subscript(outcome: Outcome) -> Int { counts[outcome, default: 0] }
    }

    public let queue: String
    public let jobsExchange: String
    public let jobsRoutingKey: String
    /// The routing key a letter's replay is published with, by the routing key it carries
    /// (``TopologySection/replayRoutingKeys``): so a letter that left the urgent lane or a team lane
    /// goes back to it. Letters with any other key are replayed with ``jobsRoutingKey``.
    public let replayRoutingKeys: [String: String]
    public let plan: Plan
    public let now: @Sendable () -> Date

    public init(
        queue: String, jobsExchange: String, jobsRoutingKey: String, replayRoutingKeys: [String: String] = [:], plan: Plan,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.queue = queue
        self.jobsExchange = jobsExchange
        self.jobsRoutingKey = jobsRoutingKey
        self.replayRoutingKeys = replayRoutingKeys
        self.plan = plan
        self.now = now
    }

    /// Runs the pass on `amqp` (connected, not consuming), calling `each` for every letter looked at.
    /// `stop` is polled: once it answers true, the pass ends as it would at the end of the queue.
    public func run(
        on amqp: AMQPClient,
        stop: @escaping @Sendable () -> Bool = { false },
        each: (DeadLetter, Outcome, Report) -> Void = { _, _, _ in }
    ) async throws -> Report {
        var report = Report()
        report.ready = try await amqp.readyMessageCount(inQueue: queue)
        guard report.ready > 0, plan.limit != 0 else { return report }
        let prefetch = min(report.ready, Int(UInt16.max))
        let deliveries = try await amqp.consume(queue: queue, prefetch: UInt16(prefetch))
        let watchdog = SweepWatchdog(idleTimeout: plan.idleTimeout, stop: stop, amqp: amqp)
        var held: [AMQPDelivery] = []
        var pacer = Pacer(rate: plan.rate)
        var selected = 0
        var generation: UInt64?
        for await delivery in deliveries {
            watchdog.arrived()
            guard generation == nil || generation == delivery.generation else {
                // The broker took back what was held when the connection dropped; what comes now was
                // looked at already, so a second look would count (and replay) it twice.
                report.stoppedEarly = "the connection to the broker was lost; what was held went back to the queue"
                held.append(delivery)
                break
            }
            generation = delivery.generation
            report.looked += 1
            let letter = DeadLetter(delivery.message)
            let chosen = plan.filter.selects(letter, now: now())
            if chosen { selected += 1 }
            let outcome = await handle(delivery, on: amqp, chosen: chosen, held: &held, pacer: &pacer, report: &report)
            watchdog.waiting()
            report.counts[outcome, default: 0] += 1
            each(letter, outcome, report)
            if report.looked >= report.ready { break }
            if let limit = plan.limit, selected >= limit {
                report.stoppedEarly = "the limit of \(limit) was reached"
                break
            }
            if held.count >= prefetch {
                report.stoppedEarly = "\(held.count) letters are held, as many as one pass can hold; narrow the filter or run again"
                break
            }
            if stop() {
                report.stoppedEarly = "interrupted"
                break
            }
        }
        if report.stoppedEarly == nil, report.looked < report.ready {
            report.stoppedEarly = stop() ? "interrupted" : "no letter arrived for \(plan.idleTimeout) (another consumer took the rest?)"
        }
        await watchdog.finish()
        // Deliveries that arrived before the cancel took effect are held too: they go back after the
        // rest, which keeps them in order.
        for await late in deliveries { held.append(late) }
        // Letters of a connection that dropped are back in the queue already.
        held.removeAll { $0.generation != amqp.generation }
        var ready = held.isEmpty ? 0 : (try? await amqp.readyMessageCount(inQueue: queue)) ?? 0
        var start = held.startIndex
        while start < held.endIndex {
            let chunk = held[start..<min(start + Self.orderedReturns, held.endIndex)]
            for delivery in chunk { await amqp.reject(delivery, requeue: true) }
            ready += chunk.count
            await settle(until: ready, on: amqp)
            start = chunk.endIndex
        }
        return report
    }

    /// Letters handed back together, each group applied before the next: a quorum queue applies the
    /// returns that reach it together as one command, in the order of an Erlang map of their ids,
    /// which is their own order up to 32 and a hashed one beyond (RabbitMQ 3.10 batches a channel's
    /// returns while earlier ones are unapplied; a fast client's 200 came back scrambled).
    static let orderedReturns = 32

    /// Waits (up to five seconds) until the broker shows every letter handed back so far as ready
    /// again (`ready` in all).
    /// RabbitMQ 3.10 applies a quorum queue's settlements after the channel has sent them: a channel
    /// closed before then makes the broker return what it still held ahead of the letters returned
    /// first (out of order), and can lose the acks just before (replaying those letters again later).
    private func settle(until ready: Int, on amqp: AMQPClient) async {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            guard let count = try? await amqp.readyMessageCount(inQueue: queue), count < ready else { return }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    private func handle(_ delivery: AMQPDelivery, on amqp: AMQPClient, chosen: Bool, held: inout [AMQPDelivery], pacer: inout Pacer, report: inout Report) async -> Outcome {
        guard chosen else {
            held.append(delivery)
            return .kept
        }
        switch (plan.action, plan.dryRun) {
        case (.list, _):
            held.append(delivery)
            return .listed
        case (.replay, true), (.purge, true):
            held.append(delivery)
            return plan.action == .replay ? .wouldReplay : .wouldPurge
        case (.purge, false):
            await pacer.wait()
            await amqp.ack(delivery)
            return .purged
        case (.replay, false):
            await pacer.wait()
            let copy = ReplayedJob.message(from: delivery.message, replayedAt: now())
            do {
                let lane = replayRoutingKeys[delivery.routingKey] ?? jobsRoutingKey
                let outcome = try await amqp.publish(exchange: jobsExchange, routingKey: lane, message: copy, mandatory: true)
                if case .confirmed = outcome {
                    await amqp.ack(delivery)
                    return .replayed
                }
                report.lastFailure = "\(outcome)"
            } catch {
                report.lastFailure = "\(error)"
            }
            held.append(delivery)
            return .failed
        }
    }
}
