import AMQP
import APNsCore
import Foundation
import Logging
import Metrics

/// What the processor publishes for each verdict, and the ack that waits for the broker's confirms.
extension JobProcessor {
    /// The result of `verdict`, with a retry or dead-letter copy where the verdict calls for one.
    func complete(_ verdict: Verdict, job: Job, credential: String, attempts: Int, deferrals: Int = 0, context: ResultContext) -> [Publication] {
        var result = context.result(status: .failed, attempts: attempts, completedAt: now())
        result.credential = credential
        switch verdict {
        case .delivered(let acceptance):
            result.status = .delivered
            result.httpStatus = 200
            result.apnsID = acceptance.apnsID ?? job.request.apnsID?.value
            result.apnsUniqueID = acceptance.uniqueID
        case .rejected(let rejection):
            result.status = .rejected
            result.apply(rejection)
        case .failed(let code, let detail, let rejection):
            if let rejection { result.apply(rejection) }
            // The failure code, even when APNs gave no reason (then it is "HTTP<status>").
            result.reason = code
            result.detail = detail
            return [messages.result(result, replyTo: context.replyTo), messages.deadLetter(context.delivery.message, attempts: attempts, lastError: "\(code): \(detail)")]
        case .expired(let lastError):
            result.status = .expired
            result.detail = lastError
            return [messages.result(result, replyTo: context.replyTo), messages.deadLetter(context.delivery.message, attempts: attempts, lastError: "expired: \(lastError)")]
        case .retry(let tier, let delay, let lastError):
            logger.debug("retrying job", metadata: ["job": "\(job.id)", "attempts": "\(attempts)", "tier": "\(tier)", "error": "\(lastError)"])
            return [messages.retry(context.delivery.message, tier: tier, delay: delay, attempts: attempts, deferrals: deferrals, lastError: lastError)]
        case .credentialRefused(let lastError):
            return [postpone(context.delivery, job: job, for: credentialBackoff.seconds, reason: lastError)]
        }
        if result.apnsID == nil { result.apnsID = job.request.apnsID?.value }
        return [messages.result(result, replyTo: context.replyTo)]
    }

    /// A job that cannot be sent: a `failed` result (when it has an id) and a dead letter.
    func malformed(_ error: JobError, attempts: Int, context: ResultContext) -> [Publication] {
        var publications = [messages.deadLetter(context.delivery.message, attempts: attempts, lastError: "\(error.code): \(error.detail)")]
        if error.jobID != nil {
            var result = context.result(status: .failed, attempts: attempts, completedAt: now())
            result.id = error.jobID
            result.reason = error.code
            result.detail = error.detail
            publications.insert(messages.result(result, replyTo: context.replyTo), at: 0)
        }
        return publications
    }

    /// The job back to a retry tier at least `seconds` long, its attempts unchanged.
    func postpone(_ delivery: AMQPDelivery, job: Job, for seconds: TimeInterval, reason: String) -> Publication {
        let (tier, delay) = policy.schedule(attempts: 1, retryAfter: .seconds(max(0, seconds)), jitter: 1)
        return messages.retry(delivery.message, tier: tier, delay: delay, attempts: job.previousAttempts, deferrals: job.previousDeferrals, lastError: reason)
    }

    /// Publishes everything for one job and acks it only if the broker confirmed all of it; a returned
    /// or nacked publish leaves the job unacked (requeued), so nothing is lost.
    func finish(_ delivery: AMQPDelivery, with publications: [Publication]) async {
        var outcomes = await withTaskGroup(of: (Int, Result<AMQPPublishOutcome, any Error>).self) { group in
            for (index, publication) in publications.enumerated() {
                group.addTask { (index, await publish(publication.message, to: .init(exchange: publication.exchange, routingKey: publication.routingKey))) }
            }
            var outcomes = [Result<AMQPPublishOutcome, any Error>](repeating: .success(.confirmed), count: publications.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes
        }
        for (index, publication) in publications.enumerated() {
            guard case .success(.returned) = outcomes[index], let fallback = publication.fallback else { continue }
            logger.warning("reply_to queue is gone; the result goes to the results exchange", metadata: ["reply-to": "\(publication.routingKey)"])
            outcomes[index] = await publish(publication.message, to: fallback)
        }
        if outcomes.allSatisfy({ if case .success(.confirmed) = $0 { true } else { false } }) {
            await broker.ack(delivery)
            metrics.acked.increment()
            for publication in publications { metrics.confirmed(publication) }
            return
        }
        metrics.requeued.increment()
        // Returned or nacked, or the broker closed the channel with 404 because the exchange is gone:
        // the results cannot be stored, which is an operator's problem (alert on amqp_unroutable_total).
        let refused = outcomes.filter { outcome in
            switch outcome {
            case .success(let result): result != .confirmed
            case .failure(let error): (error as? AMQPError)?.brokerReplyCode == 404
            }
        }.count
        let problems = outcomes.compactMap { outcome -> String? in
            switch outcome {
            case .success(.confirmed): nil
            case .success(let other): "\(other)"
            case .failure(let error): "\(error)"
            }
        }
        guard refused > 0 else {
            // The connection went away: the broker requeues the delivery by itself; this reject is a no-op.
            logger.warning("the broker connection dropped before every publish was confirmed; the job will be redelivered", metadata: ["problems": "\(problems)"])
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
        try? await Task.sleep(for: Self.unroutableBackoff)
        await broker.reject(delivery, requeue: true)
    }

    /// How long a job whose results cannot be routed waits before it is requeued.
    static let unroutableBackoff = Duration.seconds(2)

    /// One confirmed, mandatory publish, timed.
    private func publish(_ message: AMQPMessage, to route: Publication.Route) async -> Result<AMQPPublishOutcome, any Error> {
        let started = ContinuousClock.now
        defer { metrics.confirmDuration.record(duration: ContinuousClock.now - started) }
        do {
            return .success(try await broker.publish(exchange: route.exchange, routingKey: route.routingKey, message: message, mandatory: true))
        } catch {
            return .failure(error)
        }
    }
}

extension JobResult {
    mutating func apply(_ rejection: APNsRejection) {
        httpStatus = rejection.status
        reason = rejection.reason.name
        timestamp = rejection.timestampMilliseconds
        if let id = rejection.apnsID { apnsID = id }
    }
}
