/// Finds what rabbitmq-c would fail to encode, or encode wrong, before a publish touches the connection.
///
/// rabbitmq-c sends a publish as a method frame, a content header and body frames. If the header then
/// fails to encode (a short string over 255 bytes, a header larger than a frame), the method frame has
/// gone out already and the channel is broken: the only way on is a new connection, and with it every
/// delivery in flight is requeued. A header-table key over 255 bytes is worse: its length is written
/// truncated to one byte and the broker closes the connection on the garbled frame. And the broker
/// itself closes the channel for an `expiration` that is not a whole number of milliseconds. So every
/// publish is checked here first, and a message that cannot be carried fails alone.
enum EncodingCheck {
    /// AMQP short strings (names, ids, table keys) hold at most 255 bytes.
    static let shortStringLimit = 255
    /// A content header frame's bytes besides the properties: frame type, channel, size and end marker
    /// (8), class id and weight (4), body size (8), property flags (2).
    static let headerFrameOverhead = 22
    /// RabbitMQ's largest per-message TTL, in milliseconds (2^32 - 1).
    static let maximumExpiration: UInt64 = 4_294_967_295

    static func problems(
        exchange: String? = nil,
        routingKey: String? = nil,
        properties: AMQPProperties,
        extraHeaders: [String: AMQPFieldValue] = [:],
        frameMax: Int
    ) -> [AMQPEncodingProblem] {
        var problems: [AMQPEncodingProblem] = []
        func shortString(_ value: String?, _ field: AMQPEncodingProblem.Field) {
            guard let value, value.utf8.count > shortStringLimit else { return }
            problems.append(AMQPEncodingProblem(field: field, detail: "has \(value.utf8.count) bytes; an AMQP short string holds at most \(shortStringLimit)"))
        }
        shortString(exchange, .exchange)
        shortString(routingKey, .routingKey)
        shortString(properties.contentType, .contentType)
        shortString(properties.messageID, .messageID)
        shortString(properties.correlationID, .correlationID)
        shortString(properties.replyTo, .replyTo)
        shortString(properties.expiration, .expiration)
        shortString(properties.type, .type)
        shortString(properties.appID, .appID)
        if let expiration = properties.expiration, !isValidExpiration(expiration) {
            problems.append(AMQPEncodingProblem(field: .expiration, detail: "must be a whole number of milliseconds up to \(maximumExpiration)"))
        }
        for (key, value) in properties.headers where key.utf8.count > shortStringLimit || nestedKeyTooLong(value) {
            problems.append(AMQPEncodingProblem(field: .header(key), detail: "has a table key over \(shortStringLimit) bytes"))
        }
        // Without headers the properties are a few short strings: far below any frame. Most publishes
        // (results) are such, and summing sizes for each would cost more than the rest of this check.
        if properties.headers.isEmpty, extraHeaders.count <= 1, frameMax >= 4096 { return problems }
        let size = headerFrameOverhead + propertiesSize(properties, extraHeaders: extraHeaders)
        if size > frameMax {
            problems.append(AMQPEncodingProblem(field: .contentHeader, detail: "needs \(size) bytes; a frame holds at most \(frameMax)"))
        }
        return problems
    }

    /// The encoded size of the properties (without the flags), as rabbitmq-c writes them.
    static func propertiesSize(_ properties: AMQPProperties, extraHeaders: [String: AMQPFieldValue] = [:]) -> Int {
        let strings = [properties.contentType, properties.messageID, properties.correlationID, properties.replyTo, properties.expiration, properties.type, properties.appID]
        var size = strings.reduce(0) { $0 + ($1.map { 1 + $0.utf8.count } ?? 0) }
        size += 1  // delivery mode, always sent
        if properties.timestamp != nil { size += 8 }
        let headers = properties.headers.merging(extraHeaders) { _, extra in extra }
        if !headers.isEmpty { size += tableSize(headers) }
        return size
    }

    static func tableSize(_ table: [String: AMQPFieldValue]) -> Int {
        table.reduce(4) { $0 + 1 + $1.key.utf8.count + valueSize($1.value) }
    }

    /// A field value's kind byte and payload, in the types ``EncodingArena`` encodes (`S l t d A F`).
    static func valueSize(_ value: AMQPFieldValue) -> Int {
        switch value {
        case .string(let text): 1 + 4 + text.utf8.count
        case .int, .double: 1 + 8
        case .bool: 1 + 1
        case .array(let values): values.reduce(1 + 4) { $0 + valueSize($1) }
        case .table(let table): 1 + tableSize(table)
        }
    }

    private static func nestedKeyTooLong(_ value: AMQPFieldValue) -> Bool {
        switch value {
        case .array(let values): values.contains(where: nestedKeyTooLong)
        case .table(let table): table.contains { $0.key.utf8.count > shortStringLimit || nestedKeyTooLong($0.value) }
        default: false
        }
    }

    private static func isValidExpiration(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } && (UInt64(text).map { $0 <= maximumExpiration } ?? false)
    }
}
