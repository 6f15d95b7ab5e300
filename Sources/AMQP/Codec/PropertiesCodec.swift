internal import CRabbitMQ

/// A message's properties through rabbitmq-c's own content-header codec, with no connection: how the
/// tests hold ``EncodingCheck`` to what the library really writes, and how the fuzzer feeds the
/// decoding of hostile headers.
package enum PropertiesCodec {
    /// The properties as rabbitmq-c encodes them in a content header (flags first), or the library's
    /// status when it refuses. Written into a buffer of `capacity` bytes, as into a frame.
    package static func encode(_ properties: AMQPProperties, capacity: Int = AMQPMessage.defaultFrameMax) -> Result<[UInt8], AMQPError> {
        let arena = EncodingArena()
        var c = arena.properties(properties)
        var buffer = [UInt8](repeating: 0, count: capacity)
        let written = withExtendedLifetime(arena) {
            buffer.withUnsafeMutableBytes { raw in
                amqp_encode_properties(UInt16(AMQP_BASIC_CLASS), &c, amqp_bytes_t(len: raw.count, bytes: raw.baseAddress))
            }
        }
        guard written >= 0 else {
            return .failure(AMQPError(.library(status: written), operation: "encode properties", message: String(cString: amqp_error_string2(written))))
        }
        return .success(Array(buffer.prefix(Int(written))))
    }

    /// Properties decoded from a content header's property bytes, as a delivery would carry them; nil
    /// when rabbitmq-c refuses the bytes.
    package static func decode(_ bytes: [UInt8]) -> AMQPProperties? {
        var pool = amqp_pool_t()
        init_amqp_pool(&pool, 4096)
        defer { empty_amqp_pool(&pool) }
        var decoded: UnsafeMutableRawPointer?
        var strings = RecentStrings()
        return bytes.withUnsafeBytes { raw -> AMQPProperties? in
            let input = amqp_bytes_t(len: raw.count, bytes: UnsafeMutableRawPointer(mutating: raw.baseAddress))
            guard amqp_decode_properties(UInt16(AMQP_BASIC_CLASS), &pool, input, &decoded) == 0, let decoded else { return nil }
            return FieldDecoding.properties(decoded.assumingMemoryBound(to: amqp_basic_properties_t.self).pointee, strings: &strings)
        }
    }
}
