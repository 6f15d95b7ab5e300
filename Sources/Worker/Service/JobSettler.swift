import AMQP
import Foundation
import Logging
import Metrics

/// Hands a job's publications to the broker and settles its delivery: acked once the broker confirmed
/// every publication; otherwise published again (nacked), sent to the results exchange (a `reply_to`
/// queue gone), or given back to the queue, so nothing is lost.
///
/// One per shard, beside its ``JobProcessor``, which decides what to publish; this owns what happens
/// to it at the broker, with the logs that say when the broker does not take it.
final class JobSettler: Sendable {
    let broker: any JobBroker
    let metrics: WorkerMetrics
    let logger: Logger
    /// How long a job whose results cannot be routed waits before it is requeued.
    let unroutableBackoff: Duration
    /// How nacked publications are published again before their job is given back.
    let nackRetry: NackRetry
    /// Called when the broker refused a publication because its exchange does not exist (404): the
    /// service re-declares the topology, when it is allowed to.
    let onMissingExchange: @Sendable () async -> Void
    /// One nack line a second at most: a leader election nacks every job in flight at once.
    let nackLog = Throttle(every: .seconds(1))
    /// A lost connection fails every job in flight at once: one line a second says so.
    let connectionLossLog = Throttle(every: .seconds(1))
    /// Nacks outlasting every republish fail every job in flight at once: one line a second says so.
    let nackExhaustedLog = Throttle(every: .seconds(1))
    /// At most one reopened connection a minute: a queue that is really full nacks on any channel,
    /// and reopening for it every few seconds would only churn the jobs in flight.
    let reopenThrottle = Throttle(every: .seconds(60))
    /// One info line per retry tier at most every ten seconds (``confirmed(_:)``).
    let retryLog = RetryLog()

    init(
        broker: any JobBroker, metrics: WorkerMetrics, logger: Logger, unroutableBackoff: Duration, nackRetry: NackRetry,
        onMissingExchange: @escaping @Sendable () async -> Void
    ) {
        self.broker = broker
        self.metrics = metrics
        self.logger = logger
        self.unroutableBackoff = unroutableBackoff
        self.nackRetry = nackRetry
        self.onMissingExchange = onMissingExchange
    }

    /// A publish's outcome: the broker's verdict, or why there was none.
    typealias PublishResult = Result<AMQPPublishOutcome, any Error>

    /// Publishes everything for one job and acks it only if the broker confirmed all of it; a returned
    /// or nacked publish leaves the job unacked (requeued), so nothing is lost.
    ///
    /// The common case is one trip to the AMQP client's event loop: the messages and the ack go together, and
    /// the client writes the ack once every message is confirmed on the connection that delivered the
    /// job (a connection closed meanwhile means nothing is written: the broker requeued the job).
    ///
    /// `then` gets whether the job was acked: on the broker client's event loop when every message was
    /// confirmed, else on a task that settles the job (republishes, fallbacks, a requeue after a pause).
    func finish(_ delivery: AMQPDelivery, with publications: [Publication], then: @escaping @Sendable (Bool) -> Void) {
        let messages = publications.map { AMQPOutgoingMessage(exchange: $0.exchange, routingKey: $0.routingKey, message: $0.message) }
        let started = ContinuousClock.now
        broker.publish(messages, thenAck: delivery) { [self] batch in
            metrics.confirmDuration.record(duration: ContinuousClock.now - started)
            if batch.acked {
                metrics.acked.increment()
                confirmed(publications)
                then(true)
                return
            }
            Task { then(await settleUnacked(delivery, publications: publications, outcomes: batch.outcomes.map { $0.mapError { $0 } })) }
        }
    }

    /// Counts a job's confirmed publications, and says at info level, once per tier every
    /// ``RetryLog/interval``, that jobs went to a retry tier and why: otherwise retries show only in metrics.
    private func confirmed(_ publications: [Publication]) {
        for publication in publications {
            metrics.confirmed(publication)
            guard case .retry(let tier) = publication.kind, let held = retryLog.admit(tier: tier) else { continue }
            let headers = publication.message.properties.headers
            logger.info("jobs sent to a retry tier", metadata: [
                "tier": "\(tier)", "jobs_since_last_line": "\(held + 1)",
                "last_error": "\(headers[RetryHeaders.lastError].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? "")",
                "credential": "\(headers[RetryHeaders.credential].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? "")",
            ])
        }
    }

    /// A job whose messages were not all confirmed: its connection is gone (nothing to do: the broker
    /// requeued it), a `reply_to` queue is gone (the result goes to the results exchange instead), or
    /// something cannot be routed (requeued after a pause).
    @inline(never)
    private func settleUnacked(_ delivery: AMQPDelivery, publications: [Publication], outcomes: [PublishResult]) async -> Bool {
        if delivery.generation != broker.generation {
            // Its connection closed while the job was processed, so the broker has requeued it already.
            metrics.superseded.increment()
            return false
        }
        var outcomes = outcomes
        if outcomes.contains(where: { if case .success(.returned) = $0 { true } else { false } }) {
            outcomes = await publishFallbacks(publications, outcomes: outcomes, on: delivery.generation)
        }
        if outcomes.contains(where: Self.isNack) {
            outcomes = await republishNacked(publications, outcomes: outcomes, on: delivery.generation)
        }
        if outcomes.allSatisfy({ if case .success(.confirmed) = $0 { true } else { false } }) {
            await broker.ack(delivery)
            metrics.acked.increment()
            confirmed(publications)
            return true
        }
        await requeue(delivery, after: outcomes)
        return false
    }

    /// Results the broker returned because their `reply_to` queue is gone go to the results exchange.
    @inline(never)
    private func publishFallbacks(_ publications: [Publication], outcomes: [PublishResult], on generation: UInt64) async -> [PublishResult] {
        var outcomes = outcomes
        for (index, publication) in publications.enumerated() {
            guard case .success(.returned) = outcomes[index], let fallback = publication.fallback else { continue }
            logger.warning("reply_to queue is gone; the result goes to the results exchange", metadata: ["reply-to": "\(publication.routingKey)"])
            outcomes[index] = await publish(publication.message, to: fallback, on: generation)
        }
        return outcomes
    }

    /// Publishes again, in place and with backoff, what the broker nacked (see ``NackRetry``), until
    /// the broker takes it all, the attempts run out, or the connection that delivered the job is gone.
    @inline(never)
    private func republishNacked(_ publications: [Publication], outcomes: [PublishResult], on generation: UInt64) async -> [PublishResult] {
        var outcomes = outcomes
        for attempt in 1...max(nackRetry.attempts, 1) {
            let nacked = outcomes.indices.filter { Self.isNack(outcomes[$0]) }
            guard !nacked.isEmpty, nackRetry.attempts > 0 else { break }
            metrics.nacked.increment(by: nacked.count)
            let delay = nackRetry.delay(before: attempt)
            if let held = nackLog.admit() {
                logger.warning(
                    "the broker nacked a publication (a quorum queue electing a leader, or a full queue?); publishing it again in place",
                    metadata: ["routing-key": "\(publications[nacked[0]].routingKey)", "attempt": "\(attempt)", "after": "\(delay)", "similar-lines-held-back": "\(held)"]
                )
            }
            try? await Task.sleep(for: delay)
            for index in nacked {
                let publication = publications[index]
                outcomes[index] = await publish(publication.message, to: Publication.Route(exchange: publication.exchange, routingKey: publication.routingKey), on: generation)
            }
        }
        return outcomes
    }

    private static func isNack(_ outcome: PublishResult) -> Bool {
        if case .success(.nacked) = outcome { true } else { false }
    }

    /// A job whose publications were not all confirmed goes back to the queue. Its own function, so
    /// the frame of this rare path is not part of every job's.
    @inline(never)
    private func requeue(_ delivery: AMQPDelivery, after outcomes: [PublishResult]) async {
        metrics.requeued.increment()
        // Returned, or the broker closed the channel with 404 because the exchange is gone: the results
        // cannot be stored, which is an operator's problem (alert on amqp_unroutable_total).
        let refused = outcomes.filter { outcome in
            switch outcome {
            case .success(let result): result != .confirmed && result != .nacked
            case .failure(let error): Self.isRefusal(error)
            }
        }.count
        let stillNacked = outcomes.filter(Self.isNack).count
        let problems = outcomes.compactMap { outcome -> String? in
            switch outcome {
            case .success(.confirmed): nil
            case .success(let other): "\(other)"
            case .failure(let error): "\(error)"
            }
        }
        if refused == 0 && stillNacked > 0 {
            // Nacked through every republish: the broker is still not taking messages. Back to the
            // queue after a pause, like an unroutable result, but said for what it is, and, before
            // RabbitMQ 3.12.5, on a new connection: those releases bind a channel's first publish to a
            // quorum queue to the leader its record named then, and a channel that met a leader on a
            // stopped node is nacked for as long as that node stays down, though the queue elected a new
            // leader long ago (cluster-stale-leader). Later releases find the leader anew; a new
            // connection there would only churn the jobs in flight. An unknown release gets the reopen.
            metrics.nackExhausted.increment()
            if let held = nackExhaustedLog.admit() {
                logger.error(
                    "the broker kept nacking a publication through every republish; the job goes back to the queue (before RabbitMQ 3.12.5 by way of a new connection, at most once a minute)",
                    metadata: ["problems": "\(problems)", "similar-lines-held-back": "\(held)"]
                )
            }
            try? await Task.sleep(for: unroutableBackoff)
            if broker.serverVersion?.bindsChannelsToRecordedLeaders ?? true, reopenThrottle.admit() != nil {
                await broker.reopen(ifGeneration: delivery.generation, because: "publications nacked through every republish")
            }
            await broker.reject(delivery, requeue: true)
            return
        }
        guard refused > 0 else {
            // The connection went away: the broker requeues the delivery by itself; this reject is a no-op.
            if let held = connectionLossLog.admit() {
                logger.warning(
                    "the broker connection dropped before every publish was confirmed; the job will be redelivered",
                    metadata: ["problems": "\(problems)", "similar-lines-held-back": "\(held)"]
                )
            }
            await broker.reject(delivery, requeue: true)
            return
        }
        metrics.unroutable.increment(by: refused)
        if outcomes.contains(where: { if case .failure(let error) = $0 { (error as? AMQPError)?.brokerReplyCode == 404 } else { false } }) {
            await onMissingExchange()
        }
        logger.error("results or copies cannot be routed (missing exchange or queue?); the job stays queued", metadata: ["problems": "\(problems)"])
        // Requeueing at once would redeliver, re-send the push and fail again in a tight loop until the
        // delivery limit; holding the delivery a moment (it keeps its prefetch slot) spaces the retries.
        try? await Task.sleep(for: unroutableBackoff)
        await broker.reject(delivery, requeue: true)
    }

    /// A failure that is about the message, not the connection: the exchange is missing (the broker
    /// closed the channel with 404), or the client refused to encode it (which the checks at the
    /// boundary should make impossible). Retrying at once would fail the same way.
    private static func isRefusal(_ error: any Error) -> Bool {
        guard let error = error as? AMQPError else { return false }
        return error.brokerReplyCode == 404 || error.code == .invalidArgument
    }

    /// How long a job whose results cannot be routed waits before it is requeued (by default).
    static let defaultUnroutableBackoff = Duration.seconds(2)

    /// One confirmed, mandatory publish, timed; sent only on the connection that delivered the job, since
    /// after a reconnect the broker has requeued it and its redelivery publishes instead.
    private func publish(_ message: AMQPMessage, to route: Publication.Route, on generation: UInt64) async -> PublishResult {
        let started = ContinuousClock.now
        defer { metrics.confirmDuration.record(duration: ContinuousClock.now - started) }
        do {
            return .success(try await broker.publish(exchange: route.exchange, routingKey: route.routingKey, message: message, mandatory: true, generation: generation))
        } catch {
            return .failure(error)
        }
    }
}
