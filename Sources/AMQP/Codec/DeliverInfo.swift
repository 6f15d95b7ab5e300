/// The arguments of a `basic.deliver`.
struct DeliverInfo: Equatable {
    var consumerTag: String
    var deliveryTag: UInt64
    var redelivered: Bool
    var exchange: String
    var routingKey: String
}
