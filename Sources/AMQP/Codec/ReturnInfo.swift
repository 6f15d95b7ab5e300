/// The arguments of a `basic.return`.
struct ReturnInfo: Equatable {
    var replyCode: UInt16
    var replyText: String
    var exchange: String
    var routingKey: String
}
