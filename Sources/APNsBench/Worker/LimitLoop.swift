import AMQP
import Foundation
import Logging
import NIOCore

/// The limit loop's process (`apns-bench limit-loop`, started by the benchmarks): consumes `count`
/// pre-loaded jobs and answers each on the client's event loop as it is read — a same-sized result
/// (420 bytes, persistent JSON) published with confirms, then the ack, through ``AMQPClient/onLoop``
/// (no task, no continuation), as the bare C loop answers in its own read loop. Prints the seconds
/// and the process's CPU seconds from the first delivery asked for to the last answer confirmed.
enum LimitLoop {
    /// The answer to each job, as every benchmark loop publishes it: a same-sized result (420 bytes,
    /// persistent JSON) to `exchange`, routed as a delivered one.
    static func answer(exchange: String) -> AMQPOutgoingMessage {
        var properties = AMQPProperties()
        properties.contentType = "application/json"
        properties.persistent = true
        let body = [UInt8](repeating: UInt8(ascii: "r"), count: 420)
        return AMQPOutgoingMessage(exchange: exchange, routingKey: "result.delivered", message: AMQPMessage(body: body, properties: properties))
    }

    static func run(url: String, queue: String, exchange: String, count: Int, prefetch: Int) async throws {
        var logger = Logger(label: "limit-loop")
        logger.logLevel = .critical
        let client = AMQPClient(options: AMQPClientOptions(endpoints: [try AMQPEndpoint(url: url)]), logger: logger)
        try await client.connect()
        let answer = Self.answer(exchange: exchange)
        let done = client.eventLoop.makePromise(of: Void.self)
        let answered = NIOLoopBoundBox.makeBoxSendingValue(0, eventLoop: client.eventLoop)
        let started = ContinuousClock.now
        let cpuStarted = ProcFS.cpuSeconds(pid: getpid()) ?? 0
        try await client.consume(queues: [queue], prefetch: UInt16(min(prefetch, 65_535)), onLoop: { batch in
            let onLoop = client.onLoop
            for delivery in batch {
                onLoop.publish([answer], thenAck: delivery) { _ in
                    answered.value += 1
                    if answered.value == count { done.succeed() }
                }
            }
        })
        try await done.futureResult.get()
        let seconds = (ContinuousClock.now - started).seconds
        let cpu = (ProcFS.cpuSeconds(pid: getpid()) ?? .nan) - cpuStarted
        await client.cancelConsuming()
        await client.close()
        print(seconds, cpu)
    }
}
