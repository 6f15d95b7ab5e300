import Worker
import AMQP
import APNsClient
import APNsCore
import Foundation
import Logging
import NIOCore
import Synchronization
import WorkerConfiguration

/// The most any worker could do on this machine: the limit loop plus one HTTP/2 request per job to the
/// mock APNs, through the same client and connections as the worker, with nothing decoded, checked
/// or built. The same processes share the cores as in the worker run (broker, mock, one client), so
/// ceiling ÷ limit is what the mock and the HTTP/2 exchange alone leave of the broker's limit, and
/// worker ÷ ceiling is the share of that the worker keeps. Of the two ceilings, the one on callbacks
/// runs as the worker's single jobs do now, and is the one `make bench` reports; the one with a task
/// per delivery runs as they did before (docs/decisions.md, shards).
extension WorkerBenchmark {
    func ceiling(count: Int, prefetch: Int, connections: Int) async throws -> Throughput {
        let setup = try await CeilingSetup(count: count, prefetch: prefetch, connections: connections)
        defer { setup.apns.shutdown() }
        let (amqp, apns, credential, endpoint, requests) = (setup.amqp, setup.apns, setup.credential, setup.endpoint, setup.requests)
        let topology = setup.environment.settings.topology
        return try await Self.answer(count, on: amqp, in: setup.environment, loop: "ceiling loop") { delivery in
            _ = try? await apns.send(requests[Int(delivery.deliveryTag % 1_000)], credential: credential, endpoint: endpoint)
            await Self.answerLikeTheLimit(delivery, on: amqp, topology: topology)
        }
    }

    /// The ceiling as the worker's single-device jobs now run: no task and no continuation. Each
    /// delivery is sent from the consumer's callback on the AMQP loop, and the answer's callback, on its
    /// connection's loop, publishes the result and acks (``ceiling(count:prefetch:connections:)`` gives
    /// each delivery a task, which awaits the answer and then the confirm, as the worker once did).
    func ceilingOnCallbacks(count: Int, prefetch: Int, connections: Int) async throws -> Throughput {
        let setup = try await CeilingSetup(count: count, prefetch: prefetch, connections: connections)
        defer { setup.apns.shutdown() }
        let (amqp, apns, credential, endpoint, requests) = (setup.amqp, setup.apns, setup.credential, setup.endpoint, setup.requests)
        let result = LimitLoop.answer(exchange: setup.environment.settings.topology.resultsExchange)
        let answered = Atomic(0)
        let done = amqp.eventLoop.makePromise(of: Void.self)
        let started = ContinuousClock.now
        let cpu = CPUMeter.started(loop: "ceiling loop", environment: setup.environment)
        try await amqp.consume(queues: [setup.environment.settings.topology.jobsQueue], prefetch: UInt16(min(prefetch, 65_535)), onLoop: { batch in
            for delivery in batch {
                apns.send(requests[Int(delivery.deliveryTag % 1_000)], credential: credential, endpoint: endpoint) { _ in
                    amqp.publish([result], thenAck: delivery) { _ in
                        if answered.add(1, ordering: .relaxed).newValue == count { done.succeed() }
                    }
                }
            }
        })
        try await done.futureResult.get()
        return await Self.finish(count, started: started, cpu: cpu, client: amqp, environment: setup.environment)
    }
}

/// What both ceilings share, ready before the clock starts: the jobs loaded, the AMQP client, the APNs
/// client with its connections open and their stream limits ramped (as the worker's first jobs do),
/// and realistic alerts to a fixed device, each with an apns-id as the worker's requests have.
private struct CeilingSetup {
    let environment: BenchEnvironment
    let amqp: AMQPClient
    let apns: APNsClient
    let credential: APNsCredential
    let endpoint: APNsEndpoint
    let requests: [NotificationRequest]

    init(count: Int, prefetch: Int, connections: Int) async throws {
        environment = try BenchEnvironment(prefetch: prefetch, connections: connections)
        amqp = try await environment.client("ceiling")
        try await JobLoader.load(count, into: amqp, topology: environment.settings.topology)
        var logger = Logger(label: "ceiling")
        logger.logLevel = .error
        apns = APNsClient(configuration: environment.settings.clientConfiguration, logger: logger)
        credential = try ClientBenchmark.credential()
        endpoint = APNsEndpoint(host: "localhost", port: environment.mock.port)
        let payload = JobLoader.payload(index: 1)
        requests = try (0..<1_000).map { _ in
            try NotificationRequest(deviceToken: DeviceToken(hex: String(repeating: "ab", count: 32)), topic: "com.example.app", apnsID: APNsID.random(), payload: payload)
        }
        for _ in 0..<(connections * 4) { _ = try await apns.send(requests[0], credential: credential, endpoint: endpoint) }
    }
}
