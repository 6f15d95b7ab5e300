/// Why a message cannot be published as it is: one property or header AMQP cannot carry.
public struct AMQPEncodingProblem: Hashable, Sendable, CustomStringConvertible {
    /// What is at fault.
    public enum Field: Hashable, Sendable, CustomStringConvertible {
        case exchange, routingKey
        case contentType, messageID, correlationID, replyTo, expiration, type, appID
        /// A header (by its key) whose key, or a key nested in its value, is over 255 bytes.
        case header(String)
        /// The content header as a whole: the properties are larger than a frame.
        case contentHeader

        public var description: String {
            switch self {
            case .exchange: "exchange"
            case .routingKey: "routing key"
            case .contentType: "content_type"
            case .messageID: "message_id"
            case .correlationID: "correlation_id"
            case .replyTo: "reply_to"
            case .expiration: "expiration"
            case .type: "type"
            case .appID: "app_id"
            case .header(let key): "header \(key.utf8.count > 64 ? "\(key.prefix(64))…" : key)"
            case .contentHeader: "content header"
            }
        }
    }

    public let field: Field
    /// Why, with the sizes involved.
    public let detail: String

    public var description: String { "\(field) \(detail)" }
}
