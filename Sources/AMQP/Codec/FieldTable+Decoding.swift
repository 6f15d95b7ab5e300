internal import CRabbitMQ

/// Copies rabbitmq-c's decoded tables and properties (pointing into its frame buffers) into Swift values.
enum FieldDecoding {
    /// Tables and arrays nested deeper than this are not copied: a publisher can nest thousands of
    /// levels in one header frame, and copying them recursively would exhaust the event loop thread's
    /// stack. Real headers (`x-death` is the deepest) nest three or four.
    static let maximumDepth = 32
    /// What stands in for a value nested too deep, so a copy of the message says something was cut.
    static let tooDeepMarker = AMQPFieldValue.string("<nested deeper than \(maximumDepth) levels: not copied>")

    static func table(_ table: amqp_table_t, depth: Int = 1) -> [String: AMQPFieldValue] {
        var result: [String: AMQPFieldValue] = [:]
        guard let entries = table.entries else { return result }
        for index in 0..<Int(table.num_entries) {
            let entry = entries[index]
            if let value = value(entry.value, depth: depth) {
                result[String(amqpBytes: entry.key)] = value
            }
        }
        return result
    }

    /// The nearest ``AMQPFieldValue`` for any AMQP field kind; nil for void. `depth` counts the tables
    /// and arrays this value is inside.
    static func value(_ field: amqp_field_value_t, depth: Int = 1) -> AMQPFieldValue? {
        let kind = UInt32(field.kind)
        if depth >= maximumDepth, kind == AMQP_FIELD_KIND_ARRAY.rawValue || kind == AMQP_FIELD_KIND_TABLE.rawValue {
            return tooDeepMarker
        }
        return switch kind {
        case AMQP_FIELD_KIND_BOOLEAN.rawValue: .bool(field.value.boolean != 0)
        case AMQP_FIELD_KIND_I8.rawValue: .int(Int64(field.value.i8))
        case AMQP_FIELD_KIND_U8.rawValue: .int(Int64(field.value.u8))
        case AMQP_FIELD_KIND_I16.rawValue: .int(Int64(field.value.i16))
        case AMQP_FIELD_KIND_U16.rawValue: .int(Int64(field.value.u16))
        case AMQP_FIELD_KIND_I32.rawValue: .int(Int64(field.value.i32))
        case AMQP_FIELD_KIND_U32.rawValue: .int(Int64(field.value.u32))
        case AMQP_FIELD_KIND_I64.rawValue: .int(field.value.i64)
        case AMQP_FIELD_KIND_U64.rawValue, AMQP_FIELD_KIND_TIMESTAMP.rawValue: .int(Int64(clamping: field.value.u64))
        case AMQP_FIELD_KIND_F32.rawValue: .double(Double(field.value.f32))
        case AMQP_FIELD_KIND_F64.rawValue: .double(field.value.f64)
        case AMQP_FIELD_KIND_DECIMAL.rawValue: .double(decimal(field.value.decimal))
        case AMQP_FIELD_KIND_UTF8.rawValue, AMQP_FIELD_KIND_BYTES.rawValue: .string(String(amqpBytes: field.value.bytes))
        case AMQP_FIELD_KIND_ARRAY.rawValue: .array(array(field.value.array, depth: depth + 1))
        case AMQP_FIELD_KIND_TABLE.rawValue: .table(table(field.value.table, depth: depth + 1))
        default: nil
        }
    }

    /// The properties of a content header; the ones shared by many messages (content type, reply-to
    /// queue, type, app id) come from `strings`, the per-message ids do not.
    static func properties(_ c: amqp_basic_properties_t, strings: inout RecentStrings) -> AMQPProperties {
        func text(_ flag: Int32, _ bytes: amqp_bytes_t) -> String? {
            c._flags & amqp_flags_t(flag) != 0 ? String(amqpBytes: bytes) : nil
        }
        func shared(_ flag: Int32, _ bytes: amqp_bytes_t) -> String? {
            c._flags & amqp_flags_t(flag) != 0 ? strings.string(bytes) : nil
        }
        var properties = AMQPProperties()
        properties.contentType = shared(AMQP_BASIC_CONTENT_TYPE_FLAG, c.content_type)
        properties.messageID = text(AMQP_BASIC_MESSAGE_ID_FLAG, c.message_id)
        properties.correlationID = text(AMQP_BASIC_CORRELATION_ID_FLAG, c.correlation_id)
        properties.replyTo = shared(AMQP_BASIC_REPLY_TO_FLAG, c.reply_to)
        properties.expiration = text(AMQP_BASIC_EXPIRATION_FLAG, c.expiration)
        properties.type = shared(AMQP_BASIC_TYPE_FLAG, c.type)
        properties.appID = shared(AMQP_BASIC_APP_ID_FLAG, c.app_id)
        properties.persistent = c._flags & amqp_flags_t(AMQP_BASIC_DELIVERY_MODE_FLAG) != 0 && c.delivery_mode == 2
        if c._flags & amqp_flags_t(AMQP_BASIC_TIMESTAMP_FLAG) != 0 {
            properties.timestamp = Int64(clamping: c.timestamp)
        }
        if c._flags & amqp_flags_t(AMQP_BASIC_HEADERS_FLAG) != 0 {
            properties.headers = table(c.headers)
        }
        return properties
    }

    private static func array(_ array: amqp_array_t, depth: Int) -> [AMQPFieldValue] {
        guard let entries = array.entries else { return [] }
        return (0..<Int(array.num_entries)).compactMap { value(entries[$0], depth: depth) }
    }

    private static func decimal(_ decimal: amqp_decimal_t) -> Double {
        var value = Double(decimal.value)
        for _ in 0..<decimal.decimals { value /= 10 }
        return value
    }
}
