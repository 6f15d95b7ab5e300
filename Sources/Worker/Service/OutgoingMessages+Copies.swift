package import AMQP

/// A job copied back to the broker (a retry, a dead letter) keeps its body byte for byte and every
/// property that can travel. What cannot — a property the broker carried but a copy cannot (a
/// `message_id` whose bad UTF-8 grew past 255 bytes once decoded, a header key too long, headers grown
/// past a frame) — is dropped and named in the `dropped-properties` header, so the copy is published
/// and the job is never stuck; an operator still sees what was lost.
extension OutgoingMessages {
    /// Names what a copy had to leave behind.
    static let droppedHeader = "dropped-properties"
    /// Headers RabbitMQ routes by on publish (sender-selected distribution): a copy goes where the
    /// worker sends it and nowhere else.
    static let routingHeaders = ["CC", "BCC"]
    /// The worker's own headers, kept whatever else goes.
    static let ownHeaders = RetryHeaders.names.union([ResultContext.publishedAtHeader, droppedHeader, RetryHeaders.deadLetteredAt])

    /// `message` with whatever AMQP cannot carry removed (normally nothing).
    package static func carriable(_ message: AMQPMessage) -> AMQPMessage {
        var message = message
        for header in routingHeaders { message.properties.headers[header] = nil }
        var dropped: [String] = []
        // Each round removes what the problems name; a header too large as a whole loses its largest
        // foreign entry per round. Bounded: every round removes something, or the loop ends.
        while case let problems = message.encodingProblems(), !problems.isEmpty {
            let before = dropped.count
            for problem in problems { drop(problem.field, from: &message, recording: &dropped) }
            guard dropped.count > before else { break }
        }
        if !dropped.isEmpty {
            message.properties.headers[droppedHeader] = .string(String(dropped.joined(separator: ", ").prefix(500)))
        }
        return message
    }

    private static func drop(_ field: AMQPEncodingProblem.Field, from message: inout AMQPMessage, recording dropped: inout [String]) {
        var properties = message.properties
        switch field {
        case .contentType: properties.contentType = nil
        case .messageID: properties.messageID = nil
        case .correlationID: properties.correlationID = nil
        case .replyTo: properties.replyTo = nil
        case .expiration: properties.expiration = nil
        case .type: properties.type = nil
        case .appID: properties.appID = nil
        case .header(let key): properties.headers[key] = nil
        case .contentHeader:
            let foreign = properties.headers.filter { !ownHeaders.contains($0.key) }
            guard let largest = foreign.max(by: { $0.value.encodedSize < $1.value.encodedSize }) else { return }
            properties.headers[largest.key] = nil
            dropped.append("header \(largest.key.prefix(64))")
            message.properties = properties
            return
        case .exchange, .routingKey:
            return  // the worker's own names, valid by configuration
        }
        guard properties != message.properties else { return }
        message.properties = properties
        dropped.append(field.description)
    }
}
