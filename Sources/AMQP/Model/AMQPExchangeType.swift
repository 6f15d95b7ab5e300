/// The routing algorithm of an exchange.
public enum AMQPExchangeType: String, Sendable {
    case direct, topic, fanout, headers
    /// Each message to one bound queue at random, whatever its routing key: RabbitMQ's
    /// `rabbitmq_random_exchange` plugin (it ships with RabbitMQ; `rabbitmq-plugins enable` it).
    case random = "x-random"
}
