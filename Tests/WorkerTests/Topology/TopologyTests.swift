import AMQP
import Foundation
import Testing
import TestSupport
@testable import Worker
import WorkerConfiguration

@Suite("Topology", .io)
struct TopologyTests {
    let topology = Topology(settings: TopologySection())

    @Test("the default names, arguments and bindings the issue asks for")
    func defaults() {
        #expect(topology.exchanges.map(\.name) == ["apns.jobs", "apns.retry", "apns.dead", "apns.results"])
        #expect(topology.exchanges.map(\.type) == [.direct, .direct, .fanout, .topic])
        let jobs = topology.queues.first { $0.name == "apns.jobs" }
        #expect(jobs?.arguments["x-queue-type"] == .string("quorum"))
        #expect(jobs?.arguments["x-dead-letter-strategy"] == .string("at-least-once"))
        #expect(jobs?.arguments["x-overflow"] == .string("reject-publish"))
        #expect(jobs?.arguments["x-dead-letter-exchange"] == .string("apns.dead"))
        #expect(jobs?.arguments["x-delivery-limit"] == .int(20))
        let tiers = topology.queues.filter { $0.name.hasPrefix("apns.retry.") && !$0.name.hasPrefix("apns.retry.urgent.") }
        #expect(tiers.map(\.name) == ["apns.retry.5s", "apns.retry.30s", "apns.retry.2m", "apns.retry.10m"])
        #expect(tiers.map { $0.arguments["x-message-ttl"] } == [.int(5000), .int(30000), .int(120_000), .int(600_000)])
        #expect(tiers.allSatisfy { $0.arguments["x-dead-letter-exchange"] == .string("") && $0.arguments["x-dead-letter-routing-key"] == .string("apns.jobs") })
        #expect(tiers.allSatisfy { $0.arguments["x-queue-type"] == .string("quorum") }, "a classic tier is gone while its node is down")
        #expect(tiers.allSatisfy { $0.arguments["x-dead-letter-strategy"] == .string("at-least-once") && $0.arguments["x-overflow"] == .string("reject-publish") })
        #expect(topology.bindings.contains(AMQPBindingDeclaration(queue: "apns.results", exchange: "apns.results", routingKey: "result.#")))
        // Dead letters and results wait for people who look at them many times: no broker default may drop them.
        for name in ["apns.dead", "apns.results"] {
            #expect(topology.queues.first { $0.name == name }?.arguments["x-delivery-limit"] == .int(Topology.unlimitedDeliveries), "\(name)")
        }
        #expect(topology.bindings.contains(AMQPBindingDeclaration(queue: "apns.jobs", exchange: "apns.jobs", routingKey: "send")))
    }

    @Test("the urgent lane: its queue on the jobs exchange under its routing key, and retry tiers of its own that hand jobs back to it")
    func urgentLane() {
        let urgent = topology.queues.first { $0.name == "apns.jobs.urgent" }
        #expect(urgent?.arguments["x-queue-type"] == .string("quorum"))
        #expect(urgent?.arguments["x-dead-letter-exchange"] == .string("apns.dead") && urgent?.arguments["x-delivery-limit"] == .int(20))
        #expect(topology.bindings.contains(AMQPBindingDeclaration(queue: "apns.jobs.urgent", exchange: "apns.jobs", routingKey: "urgent")))
        let tiers = topology.queues.filter { $0.name.hasPrefix("apns.retry.urgent.") }
        #expect(tiers.map(\.name) == ["apns.retry.urgent.5s", "apns.retry.urgent.30s", "apns.retry.urgent.2m", "apns.retry.urgent.10m"])
        #expect(tiers.allSatisfy { $0.arguments["x-dead-letter-routing-key"] == .string("apns.jobs.urgent") })
        #expect(topology.bindings.contains(AMQPBindingDeclaration(queue: "apns.retry.urgent.30s", exchange: "apns.retry", routingKey: "urgent.30s")))
        #expect(topology.bindings.contains(AMQPBindingDeclaration(queue: "apns.retry.30s", exchange: "apns.retry", routingKey: "30s")))

        var oneLane = TopologySection()
        oneLane.urgentQueue = nil
        let before = Topology(settings: oneLane)
        #expect(!before.queues.contains { $0.name.contains("urgent") } && !before.bindings.contains { $0.routingKey.contains("urgent") }, "lanes off: the topology as before them")
    }

    @Test("a team lane is a queue of its own under its name, with retry tiers that hand its jobs back to it")
    func teamLane() {
        var settings = TopologySection()
        settings.teamLanes = [TeamLane(name: "payments", queue: "apns.jobs.payments")]
        let topology = Topology(settings: settings)
        let queue = topology.queues.first { $0.name == "apns.jobs.payments" }
        #expect(queue?.arguments["x-queue-type"] == .string("quorum") && queue?.arguments["x-delivery-limit"] == .int(20))
        #expect(topology.bindings.contains(AMQPBindingDeclaration(queue: "apns.jobs.payments", exchange: "apns.jobs", routingKey: "payments")))
        let tiers = topology.queues.filter { $0.name.hasPrefix("apns.retry.payments.") }
        #expect(tiers.map(\.name) == ["apns.retry.payments.5s", "apns.retry.payments.30s", "apns.retry.payments.2m", "apns.retry.payments.10m"])
        #expect(tiers.allSatisfy { $0.arguments["x-dead-letter-routing-key"] == .string("apns.jobs.payments") })
        #expect(topology.bindings.contains(AMQPBindingDeclaration(queue: "apns.retry.payments.30s", exchange: "apns.retry", routingKey: "payments.30s")))
        #expect(settings.lane(ofQueue: "apns.jobs.payments") == .team("payments"))
        #expect(settings.lane(ofQueue: "apns.jobs") == .bulk)
        #expect(settings.replayRoutingKeys == ["urgent": "urgent", "apns.jobs.urgent": "urgent", "payments": "payments", "apns.jobs.payments": "payments"])
    }

    @Test("config/rabbitmq/definitions.json is what the worker declares (regenerate: apns-worker declare --print-definitions --config config/worker.local.yaml)")
    func committedDefinitions() throws {
        let committed = try Data(contentsOf: Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config/rabbitmq/definitions.json"))
        #expect(Array(committed) == topology.definitions())
    }

    @Test("a retry tier an earlier version declared as a classic queue is kept, with a warning that says how to migrate it")
    func classicRetryTierFromAnEarlierVersion() async throws {
        let harness = try await WorkerHarness.make()
        let topology = Topology(settings: harness.settings.topology)
        let client = try await FaultRun.client(of: harness, name: "migration")
        let old = try #require(topology.retryQueues.first)
        try await client.declare(queues: [AMQPQueueDeclaration(name: old.name, arguments: [
            "x-message-ttl": old.arguments["x-message-ttl"]!, "x-dead-letter-exchange": .string(""),
            "x-dead-letter-routing-key": .string(harness.settings.topology.jobsQueue),
        ])])
        let warnings = try await topology.declare(on: client)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("\(old.name) exists as a classic queue") == true)
        #expect(try await topology.declare(on: client).count == 1, "declaring again changes nothing")
        await client.close()
        await harness.tearDown()
    }

    @Test("a dead-letter or results queue an earlier version declared without a delivery limit is kept, with the policy that fixes it")
    func keptQueueFromAnEarlierVersion() async throws {
        let harness = try await WorkerHarness.make()
        let topology = Topology(settings: harness.settings.topology)
        let client = try await FaultRun.client(of: harness, name: "kept-queue")
        try await client.declare(queues: [AMQPQueueDeclaration(name: harness.settings.topology.deadQueue, arguments: ["x-queue-type": .string("quorum")])])
        let warnings = try await topology.declare(on: client)
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.contains("exists without a delivery limit") == true)
        #expect(warnings.first?.contains("rabbitmqctl set_policy apns-keep") == true && warnings.first?.contains(#"\.dead$"#) == true, "\(warnings)")
        await client.close()
        await harness.tearDown()
    }

    @Test("a fleet starting at once on a fresh broker: every client declares the same new topology and none fails")
    func fleetDeclaresAtOnce() async throws {
        let harness = try await WorkerHarness.make()
        let topology = Topology(settings: harness.settings.topology)
        var clients: [AMQPClient] = []
        for index in 0..<8 { clients.append(try await FaultRun.client(of: harness, name: "fleet-\(index)")) }
        let failures = await withTaskGroup(of: String?.self) { group in
            for client in clients {
                group.addTask {
                    do { _ = try await topology.declare(on: client); return nil } catch { return "\(error)" }
                }
            }
            return await group.reduce(into: [String]()) { if let failure = $1 { $0.append(failure) } }
        }
        #expect(failures.isEmpty, "\(failures)")
        for client in clients { await client.close() }
        await harness.tearDown()
    }

    @Test("`declare --print-definitions` names the vhost of amqp.urls; the file imports there, and the worker's own declarations then match it exactly")
    func importIntoBroker() async throws {
        let vhost = try await RabbitMQControl.makeVirtualHost("defs")
        defer { Task { _ = try? await RabbitMQControl.run(["delete_vhost", vhost]) } }
        // As an operator makes the file: the command, its configuration naming the vhost in the URL.
        let harness = try await WorkerHarness.make(setup: { $0.amqp.urls = ["amqp://guest:guest@127.0.0.1:\(TestBrokerPort.value)/\(vhost)"] })
        let settings = harness.settings.amqp
        let topology = Topology(settings: harness.settings.topology)
        let config = try TemporaryFile.write(harness.settings.yaml, mode: 0o600)
        let printed = try await ProcessRun.run(WorkerCommandLine.binary, ["declare", "--print-definitions", "--config", config])
        #expect(printed.status == 0)
        #expect(printed.output.contains("\"vhost\": \"\(vhost)\"") && !printed.output.contains("\"vhost\": \"/\""), "\(printed.output.prefix(400))")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(vhost).json")
        try Data(printed.output.utf8).write(to: file)
        _ = try await RabbitMQControl.run(["import_definitions", file.path])
        // RabbitMQ 4 imports in the background: wait (30 s at most) for the queues to appear.
        var queues = ""
        try await Condition.wait("the imported queues in \(vhost)", interval: .milliseconds(200), context: { queues }) {
            queues = try await RabbitMQControl.run(["-q", "list_queues", "-p", vhost, "name"])
            return queues.contains(harness.settings.topology.jobsQueue)
        }
        let client = AMQPClient(options: try settings.clientOptions(), logger: WorkerHarness.quietLogger("definitions"))
        try await client.connect()
        // Any difference in a queue's arguments would make this a 406 PRECONDITION_FAILED.
        try await client.declare(exchanges: topology.exchanges, queues: topology.queues, bindings: topology.bindings)
        let outcome = try await client.publish(exchange: harness.settings.topology.jobsExchange, routingKey: "send", message: AMQPMessage(body: Array("{}".utf8)), mandatory: true)
        #expect(outcome == .confirmed)
        await client.close()
        await harness.tearDown()
    }
}
