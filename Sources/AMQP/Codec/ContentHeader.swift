internal import CRabbitMQ
internal import NIOCore

/// A content header frame: the body size that follows, and the message's properties.
struct ContentHeader: Equatable {
    var bodySize: UInt64
    var properties: AMQPProperties

    /// Class id, weight and body size before the property flags.
    static let prefixSize = 12

    /// Decodes a header frame's payload: the prefix here, the properties with rabbitmq-c
    /// (`amqp_decode_properties`, which checks each field against the bytes it is given).
    static func decode(_ payload: ByteBuffer, pool: DecodingPool, strings: inout RecentStrings) throws(FrameDecoder.Malformed) -> ContentHeader {
        guard payload.readableBytes >= prefixSize + 2,
              let classID = payload.getInteger(at: payload.readerIndex, as: UInt16.self),
              let bodySize = payload.getInteger(at: payload.readerIndex + 4, as: UInt64.self)
        else {
            throw FrameDecoder.Malformed(detail: "a content header of \(payload.readableBytes) bytes is too short")
        }
        guard classID == UInt16(AMQP_BASIC_CLASS) else {
            throw FrameDecoder.Malformed(detail: "a content header of class \(classID), not basic")
        }
        let properties = try pool.withPool { (pool) throws(FrameDecoder.Malformed) -> AMQPProperties in
            var decoded: UnsafeMutableRawPointer?
            let status = payload.withUnsafeReadableBytes { raw in
                let encoded = amqp_bytes_t(len: raw.count - prefixSize, bytes: UnsafeMutableRawPointer(mutating: raw.baseAddress! + prefixSize))
                return amqp_decode_properties(classID, pool, encoded, &decoded)
            }
            guard status == 0, let decoded else {
                throw FrameDecoder.Malformed(detail: "content properties do not decode: \(String(cString: amqp_error_string2(status)))")
            }
            return FieldDecoding.properties(decoded.assumingMemoryBound(to: amqp_basic_properties_t.self).pointee, strings: &strings)
        }
        return ContentHeader(bodySize: bodySize, properties: properties)
    }
}
