import AMQP
import Foundation
import WorkerConfiguration

/// Builds the messages the worker publishes: results, retry copies, dead letters.
package struct OutgoingMessages {
    let topology: Topology

    /// AMQP short strings (routing keys, ids) hold at most this many bytes.
    static let shortStringLimit = 255

    /// A result, to the job's `reply_to` queue (through the default exchange) or the results exchange.
    func result(_ result: JobResult, replyTo: String?) -> Publication {
        var properties = AMQPProperties()
        properties.contentType = "application/json"
        // An id that breaks the id rules still travels in the result's body, where any text fits.
        properties.correlationID = result.id.flatMap { JobIdentifier.isCarriable($0) ? $0 : nil }
        properties.persistent = true
        properties.type = "apns.result"
        properties.appID = "apns-worker"
        properties.timestamp = Int64(result.completedAt.timeIntervalSince1970)
        let message = AMQPMessage(body: result.encoded(), properties: properties)
        // A metric label: a server's reason is made a short word, as in the routing key.
        let kind = Publication.Kind.result(status: result.status.rawValue, reason: result.reason.map(JobResult.routingWord), credential: result.credential)
        let results = Publication.Route(exchange: topology.settings.resultsExchange, routingKey: result.routingKey)
        // A reply_to that cannot be a routing key (bad UTF-8 grown past 255 bytes once decoded) is
        // treated as absent: the result goes to the results exchange rather than nowhere.
        if let replyTo, !replyTo.isEmpty, replyTo.utf8.count <= Self.shortStringLimit {
            return Publication(exchange: "", routingKey: replyTo, message: message, kind: kind, fallback: results)
        }
        return Publication(exchange: results.exchange, routingKey: results.routingKey, message: message, kind: kind)
    }

    /// The lane `delivery` waited in: urgent when it came from the urgent queue.
    func lane(of delivery: AMQPDelivery) -> Lane {
        topology.settings.lane(ofQueue: delivery.queue)
    }

    /// The job again, to its lane's retry tier that holds it for `delay` (shortened from the tier's TTL
    /// by jitter), which hands it back to its lane's queue.
    func retry(
        _ original: AMQPMessage, lane: Lane, tier: Int, delay: Duration, attempts: Int, deferrals: Int = 0, lastError: String, credential: String?
    ) -> Publication {
        var message = annotated(original, RetryHeaders(attempts: attempts, deferrals: deferrals), lastError: lastError, credential: credential)
        message.properties.expiration = String(max(0, delay.milliseconds))
        message.properties.headers[RetryHeaders.copy] = .string(RetryHeaders.newCopyName())
        let tierName = topology.settings.retryRoutingKey(forTier: topology.settings.retryTiers[tier], lane: lane)
        return Publication(exchange: topology.settings.retryExchange, routingKey: tierName, message: Self.carriable(message), kind: .retry(tier: tierName))
    }

    /// The job as it came, plus why and when it ended here, to the dead-letter exchange, with its lane's
    /// routing key (the exchange is a fanout): a replay puts it back in the lane it came from.
    func deadLetter(_ original: AMQPMessage, lane: Lane, attempts: Int, lastError: String, at time: Date, credential: String?) -> Publication {
        var message = annotated(original, RetryHeaders(attempts: attempts), lastError: lastError, credential: credential)
        message.properties.expiration = nil
        message.properties.headers[RetryHeaders.deadLetteredAt] = .int(Int64(time.timeIntervalSince1970 * 1000))
        let reason = JobResult.routingWord(RetryHeaders.code(ofLastError: lastError))
        return Publication(exchange: topology.settings.deadExchange, routingKey: topology.settings.routingKey(of: lane), message: Self.carriable(message), kind: .deadLetter(reason: reason))
    }

    /// The copy with its counts, why it is here, and the credential the worker chose for it (by name or
    /// by topic): an operator selects dead letters by credential, and a job that names none has it
    /// nowhere else.
    private func annotated(_ original: AMQPMessage, _ retry: RetryHeaders, lastError: String, credential: String?) -> AMQPMessage {
        var message = original
        message.properties.persistent = true
        retry.write(into: &message.properties.headers, lastError: lastError)
        if let credential { message.properties.headers[RetryHeaders.credential] = .string(credential) }
        return message
    }
}
