internal import CRabbitMQ

extension MethodID {
    /// rabbitmq-c's name for method `id` ("AMQP_BASIC_DELIVER_METHOD"), nil for a number it does not
    /// know: how a test holds the numbers above to the library's.
    static func libraryName(_ id: UInt32) -> String? {
        amqp_method_name(id).map { String(cString: $0) }
    }
}
