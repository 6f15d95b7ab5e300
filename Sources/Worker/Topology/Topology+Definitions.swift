import AMQP
import Foundation

extension Topology {
    /// The topology as a RabbitMQ definitions document (`rabbitmqctl import_definitions`, or the
    /// management UI's import), for operators who provision brokers ahead of the workers. Every object
    /// names `virtualHost`: an import puts it there, whatever vhost the importing connection uses.
    public func definitions(virtualHost: String = "/") -> [UInt8] {
        let document: [String: Any] = [
            "exchanges": exchanges.map { exchange in
                [
                    "name": exchange.name, "vhost": virtualHost, "type": exchange.type.rawValue, "durable": exchange.durable,
                    "auto_delete": false, "internal": false, "arguments": [String: Any](),
                ] as [String: Any]
            },
            "queues": queues.map { queue in
                [
                    "name": queue.name, "vhost": virtualHost, "durable": queue.durable, "auto_delete": false,
                    "arguments": queue.arguments.mapValues(Self.json),
                ] as [String: Any]
            },
            "bindings": bindings.map { binding in
                [
                    "source": binding.exchange, "vhost": virtualHost, "destination": binding.destinationName, "destination_type": binding.destinationType,
                    "routing_key": binding.routingKey, "arguments": [String: Any](),
                ] as [String: Any]
            },
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return Array(data) + [0x0A]
    }

    private static func json(_ value: AMQPFieldValue) -> Any {
        switch value {
        case .string(let text): text
        case .int(let number): number
        case .bool(let flag): flag
        case .double(let number): number
        case .array(let values): values.map(json)
        case .table(let table): table.mapValues(json)
        }
    }
}
