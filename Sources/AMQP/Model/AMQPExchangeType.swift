/// The routing algorithm of an exchange.
public enum AMQPExchangeType: String, Sendable {
    case direct, topic, fanout, headers
}
