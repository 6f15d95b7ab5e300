/// A value in an AMQP field table (message headers, queue arguments).
///
/// Encoding uses RabbitMQ's types: `S` long string, `l` signed 64-bit, `t` boolean, `d` double, `A` array,
/// `F` table. Decoding maps every other kind to the nearest case: integers of all widths and timestamps to
/// ``int(_:)`` (unsigned 64-bit values above `Int64.max` are clamped), floats and decimals to
/// ``double(_:)``, byte arrays to ``string(_:)`` (as UTF-8, with replacement characters if need be).
/// Void entries are dropped.
public enum AMQPFieldValue: Sendable, Hashable {
    case string(String)
    case int(Int64)
    case bool(Bool)
    case double(Double)
    case array([AMQPFieldValue])
    case table([String: AMQPFieldValue])
}
