import AMQP
import JSON

extension Topology {
    /// The topology as a RabbitMQ definitions document (`rabbitmqctl import_definitions`, or the
    /// management UI's import), for operators who provision brokers ahead of the workers. Every object
    /// names `virtualHost`: an import puts it there, whatever vhost the importing connection uses.
    public func definitions(virtualHost: String = "/") -> [UInt8] {
        let vhost = JSONValue.string(virtualHost)
        let document: JSONValue = [
            "exchanges": .array(exchanges.map { exchange in
                [
                    "name": .string(exchange.name), "vhost": vhost, "type": .string(exchange.type.rawValue), "durable": .bool(exchange.durable),
                    "auto_delete": false, "internal": false, "arguments": [:],
                ]
            }),
            "queues": .array(queues.map { queue in
                [
                    "name": .string(queue.name), "vhost": vhost, "durable": .bool(queue.durable), "auto_delete": false,
                    "arguments": .object(queue.arguments.mapValues(Self.json)),
                ]
            }),
            "bindings": .array(bindings.map { binding in
                [
                    "source": .string(binding.exchange), "vhost": vhost, "destination": .string(binding.destinationName),
                    "destination_type": .string(binding.destinationType), "routing_key": .string(binding.routingKey), "arguments": [:],
                ]
            }),
        ]
        return document.encodedForReading() + [0x0A]
    }

    private static func json(_ value: AMQPFieldValue) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .int(let number): .integer(number)
        case .bool(let flag): .bool(flag)
        case .double(let number): .number(number)
        case .array(let values): .array(values.map(json))
        case .table(let table): .object(table.mapValues(json))
        }
    }
}
