import AMQP
import APNsCore
import JSON

/// A multicast job's message with fewer tokens: what its retry copy and its dead letter carry.
enum MulticastBody {
    /// `message` with its body's `device_tokens` replaced by `tokens`; every other byte (the id, the
    /// payload, the producer's own fields) and every property stay as they were, so the copy is the
    /// same job (same id, same apns-ids) for the tokens it still holds.
    static func message(_ message: AMQPMessage, holding tokens: [DeviceToken]) -> AMQPMessage {
        let body = message.body
        // The job was decoded from this body, so the member is there; should it not be, the copy is
        // the whole job (a token sent twice beats a token lost).
        guard let span = JSONReader.readObject(body).members["device_tokens"]?.span else { return message }
        // Hex digits need no escaping: each token goes in as it is, between quotes.
        let list = JSONArrayWriter.write(tokens, capacity: tokens.count * 67) { token, bytes in
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: token.hexString.utf8)
            bytes.append(UInt8(ascii: "\""))
        }
        var copy = message
        copy.body = Array(body[..<span.lowerBound]) + list + Array(body[span.upperBound...])
        return copy
    }
}
