internal import NIOCore

/// One AMQP 0-9-1 frame as it travels: its type, its channel and its payload, which is a slice of the
/// bytes read (no copy).
struct AMQPFrame {
    /// The frame types of AMQP 0-9-1 (RabbitMQ never sends any other).
    enum Kind: UInt8 {
        case method = 1
        case header = 2
        case body = 3
        case heartbeat = 8
    }

    var kind: Kind
    var channel: UInt16
    var payload: ByteBuffer

    /// Type, channel and size before the payload.
    static let headerSize = 7
    /// The byte every frame ends with.
    static let endMarker: UInt8 = 0xCE
    /// A frame's bytes besides its payload: the header and the end marker.
    static let overhead = headerSize + 1
    /// The frame size every peer must accept, and the limit before `connection.tune` (AMQP's
    /// frame-min-size; RabbitMQ 4.1 allows 8192 before authentication, older releases 4096).
    static let minimumSize = 4096
    /// What a client sends first: "AMQP", then 0, 0, 9, 1.
    static let protocolHeader: [UInt8] = [0x41, 0x4D, 0x51, 0x50, 0, 0, 9, 1]
}
