import AMQP
import Worker

/// One fuzz input as the property bytes of a content header, decoded as a delivery's would be, and
/// what must hold: decoding ends (headers nested thousands deep included); the worker's copy of the
/// message (a retry or a dead letter) is always one AMQP can carry; and rabbitmq-c encodes that copy to
/// exactly the size the client's check predicts, and decodes it back to the same bytes.
public enum AMQPContentProbe {
    public static func run(_ input: [UInt8]) {
        guard let properties = PropertiesCodec.decode(input) else { return }
        let copy = OutgoingMessages.carriable(AMQPMessage(body: [], properties: properties))
        require(copy.encodingProblems().isEmpty, "a copy AMQP cannot carry: \(copy.encodingProblems())")
        guard case .success(let encoded) = PropertiesCodec.encode(copy.properties) else {
            preconditionFailure("fuzz invariant broken: rabbitmq-c refuses a copy the check passed")
        }
        // Compared as bytes, not values: a NaN header is faithfully copied yet never equal to itself.
        let again = PropertiesCodec.decode(encoded).map { PropertiesCodec.encode($0) }
        require((try? again?.get()) == encoded, "the copy does not decode and encode back to the same bytes")
    }
}
