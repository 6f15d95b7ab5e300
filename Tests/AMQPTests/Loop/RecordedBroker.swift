import Foundation
import NIOCore
import TestSupport
@testable import AMQP

/// What a real RabbitMQ sent one client (`scripts/record-amqp.py`): every frame, in order, to replay
/// one at a time (moved to the channel a test needs) to a client with no socket.
struct RecordedBroker {
    struct Frame {
        var kind: AMQPFrame.Kind
        var channel: UInt16
        var payload: ByteBuffer
        /// The method id of a method frame.
        var method: UInt32? { kind == .method ? payload.getInteger(at: payload.readerIndex, as: UInt32.self) : nil }
    }

    let version: String
    let frames: [Frame]

    /// The recording of RabbitMQ `version` ("3.10" or "4.0") under Tests/Fixtures/amqp.
    init(version: String) throws {
        self.version = version
        var bytes = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("amqp/rabbitmq-\(version).bin"))))
        var decoder = FrameDecoder(maximumFrameSize: 1 << 20)
        var frames: [Frame] = []
        while let frame = try decoder.next(from: &bytes) {
            frames.append(Frame(kind: frame.kind, channel: frame.channel, payload: frame.payload))
        }
        guard bytes.readableBytes == 0 else { throw TestFailure("\(bytes.readableBytes) bytes of the recording are no frame") }
        self.frames = frames
    }

    /// The `occurrence`-th frame of method `id`, as it came.
    func method(_ id: UInt32, occurrence: Int = 0) throws -> Frame {
        let matching = frames.filter { $0.method == id }
        guard occurrence < matching.count else { throw TestFailure("the \(version) recording has \(matching.count) method 0x\(String(id, radix: 16)) frame(s)") }
        return matching[occurrence]
    }

    /// The `occurrence`-th method `id` with the content frames that follow it.
    func content(_ id: UInt32, occurrence: Int = 0) throws -> [Frame] {
        let starts = frames.indices.filter { frames[$0].method == id }
        guard occurrence < starts.count else { throw TestFailure("the \(version) recording has \(starts.count) method 0x\(String(id, radix: 16)) frame(s)") }
        let start = starts[occurrence]
        let rest = frames[(start + 1)...].prefix { ($0.kind == .header || $0.kind == .body) && $0.channel == frames[start].channel }
        return [frames[start]] + rest
    }

    /// The bytes of `frames` on `channel` (their own when nil), with `patch` applied to each payload.
    static func bytes(_ frames: [Frame], channel: UInt16? = nil, patch: (inout ByteBuffer) -> Void = { _ in }) -> ByteBuffer {
        var buffer = ByteBuffer()
        for frame in frames {
            var payload = frame.payload
            patch(&payload)
            buffer.writeInteger(frame.kind.rawValue)
            buffer.writeInteger(channel ?? frame.channel)
            buffer.writeInteger(UInt32(payload.readableBytes))
            buffer.writeBuffer(&payload)
            buffer.writeInteger(AMQPFrame.endMarker)
        }
        return buffer
    }
}
