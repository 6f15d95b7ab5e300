internal import CRabbitMQ

extension EncodingArena {
    /// An `amqp_table_t` for `table` in key order (so the same values always encode to the same bytes),
    /// then `extra`, whose value replaces `table`'s under the same key. One optional pair rather than a
    /// collection: every publish adds its sequence number, and a one-pair `KeyValuePairs` is an array
    /// allocated per publish.
    func table(_ table: [String: AMQPFieldValue], extra: (key: String, value: AMQPFieldValue)? = nil) -> amqp_table_t {
        let count = table.count + (extra == nil ? 0 : 1)
        guard count > 0 else { return amqp_table_t(num_entries: 0, entries: nil) }
        let entries = allocate(amqp_table_entry_t.self, count: count)
        var index = 0
        func add(_ key: String, _ value: AMQPFieldValue) {
            entries.advanced(by: index).initialize(to: amqp_table_entry_t(key: bytes(key), value: fieldValue(value)))
            index += 1
        }
        let replaced = { (key: String) in extra?.key == key }
        if table.count == 1, let only = table.first {
            if !replaced(only.key) { add(only.key, only.value) }
        } else {
            for key in table.keys.sorted() where !replaced(key) { add(key, table[key]!) }
        }
        if let extra { add(extra.key, extra.value) }
        return amqp_table_t(num_entries: Int32(index), entries: entries)
    }

    /// An `amqp_field_value_t` in RabbitMQ's types (`S`, `l`, `t`, `d`, `A`, `F`).
    func fieldValue(_ value: AMQPFieldValue) -> amqp_field_value_t {
        var field = amqp_field_value_t()
        switch value {
        case .string(let text):
            field.kind = UInt8(AMQP_FIELD_KIND_UTF8.rawValue)
            field.value.bytes = bytes(text)
        case .int(let number):
            field.kind = UInt8(AMQP_FIELD_KIND_I64.rawValue)
            field.value.i64 = number
        case .bool(let flag):
            field.kind = UInt8(AMQP_FIELD_KIND_BOOLEAN.rawValue)
            field.value.boolean = flag ? 1 : 0
        case .double(let number):
            field.kind = UInt8(AMQP_FIELD_KIND_F64.rawValue)
            field.value.f64 = number
        case .array(let values):
            let entries = allocate(amqp_field_value_t.self, count: values.count)
            for (index, element) in values.enumerated() {
                entries.advanced(by: index).initialize(to: fieldValue(element))
            }
            field.kind = UInt8(AMQP_FIELD_KIND_ARRAY.rawValue)
            field.value.array = amqp_array_t(num_entries: Int32(values.count), entries: values.isEmpty ? nil : entries)
        case .table(let nested):
            field.kind = UInt8(AMQP_FIELD_KIND_TABLE.rawValue)
            field.value.table = table(nested)
        }
        return field
    }

    /// `amqp_basic_properties_t` for `properties`, with `extraHeader` after its own headers (the
    /// publish sequence number).
    func properties(_ properties: AMQPProperties, extraHeader: (key: String, value: AMQPFieldValue)? = nil) -> amqp_basic_properties_t {
        var c = amqp_basic_properties_t()
        var flags = amqp_flags_t(AMQP_BASIC_DELIVERY_MODE_FLAG)
        c.delivery_mode = properties.persistent ? 2 : 1
        func set(_ value: String?, _ flag: Int32, _ field: WritableKeyPath<amqp_basic_properties_t, amqp_bytes_t>) {
            guard let value else { return }
            c[keyPath: field] = bytes(value)
            flags |= amqp_flags_t(flag)
        }
        set(properties.contentType, AMQP_BASIC_CONTENT_TYPE_FLAG, \.content_type)
        set(properties.messageID, AMQP_BASIC_MESSAGE_ID_FLAG, \.message_id)
        set(properties.correlationID, AMQP_BASIC_CORRELATION_ID_FLAG, \.correlation_id)
        set(properties.replyTo, AMQP_BASIC_REPLY_TO_FLAG, \.reply_to)
        set(properties.expiration, AMQP_BASIC_EXPIRATION_FLAG, \.expiration)
        set(properties.type, AMQP_BASIC_TYPE_FLAG, \.type)
        set(properties.appID, AMQP_BASIC_APP_ID_FLAG, \.app_id)
        if let timestamp = properties.timestamp {
            c.timestamp = UInt64(bitPattern: timestamp)
            flags |= amqp_flags_t(AMQP_BASIC_TIMESTAMP_FLAG)
        }
        if !properties.headers.isEmpty || extraHeader != nil {
            c.headers = table(properties.headers, extra: extraHeader)
            flags |= amqp_flags_t(AMQP_BASIC_HEADERS_FLAG)
        }
        c._flags = flags
        return c
    }
}
