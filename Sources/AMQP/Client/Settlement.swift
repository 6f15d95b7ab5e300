/// An ack or reject of one delivery, valid only in the generation that delivered it.
struct Settlement: Sendable {
    enum Kind: Sendable {
        case ack
        case reject(requeue: Bool)
    }

    var deliveryTag: UInt64
    var generation: UInt64
    var kind: Kind
}
