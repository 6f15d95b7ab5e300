import AMQP

/// One fuzz input as bytes a broker sent, through the client's inbound decoder (frame lengths checked
/// in Swift, then rabbitmq-c's method and property decoders, then content assembly), and what must
/// hold: decoding ends (no crash, no hang), and how the bytes were cut into reads changes nothing —
/// the same events, and the same first error, whether they came at once or in three pieces at
/// positions the input's first two bytes choose.
public enum AMQPFramesProbe {
    public static func run(_ input: [UInt8]) {
        let whole = InboundDecoding.summary(of: input, cuts: [], maximumFrameSize: 8192)
        guard input.count > 2 else { return }
        let cuts = [Int(input[0]) * input.count / 256, Int(input[1]) * input.count / 256]
        let pieces = InboundDecoding.summary(of: input, cuts: cuts, maximumFrameSize: 8192)
        require(pieces == whole, "cut at \(cuts) the bytes decode differently: \(pieces.suffix(2)) against \(whole.suffix(2))")
    }
}
