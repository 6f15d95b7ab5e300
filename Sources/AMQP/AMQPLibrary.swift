internal import CRabbitMQ

/// Facts about the rabbitmq-c library this process loaded.
public enum AMQPLibrary {
    /// rabbitmq-c's version string, e.g. "0.11.0".
    public static var version: String { String(cString: amqp_version()) }
}
