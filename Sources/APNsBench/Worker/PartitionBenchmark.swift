import AMQP
import Foundation
import WorkerConfiguration

/// `apns-bench partitions`: one jobs queue against several (`topology.partitions`) on the local
/// three-node cluster (`scripts/rabbitmq-cluster.sh start`). The same jobs, the same three worker
/// processes (each connected to another node first), once per partition count; jobs/s and the CPU
/// per job of each node, of the workers and of the mock.
///
/// Two cores cannot show the scaling itself (the three nodes share them): what this measures is what
/// a partition costs the broker per job, and where each queue's leader sits.
struct PartitionBenchmark {
    /// The cluster's nodes, as `scripts/rabbitmq-cluster.sh` starts them.
    static let urls = (1...3).map { "amqp://guest:guest@127.0.0.1:\(5680 + $0)/" }

    struct Run {
        let partitions: Int
        let throughput: WorkerBenchmark.Throughput
        /// Queue → the node that leads it.
        let leaders: [String: String]
    }

    let count: Int
    let workers: Int
    let prefetch: Int

    func run(partitions: Int) async throws -> Run {
        var environment = try BenchEnvironment(prefetch: prefetch, connections: 2, urls: Self.urls)
        environment.settings.topology.partitions = partitions
        let loader = try await environment.client("loader")
        try await JobLoader.load(count, into: loader, topology: environment.settings.topology)
        await loader.close()
        let leaders = Self.leaders(of: environment.settings.topology.jobsQueueNames)
        let started = ContinuousClock.now
        let processes = try (0..<workers).map { index in
            var settings = environment.settings
            settings.amqp.urls = Array(Self.urls[(index % 3)...] + Self.urls[..<(index % 3)])
            return try WorkerProcess(settings: settings)
        }
        var cpu = WorkerBenchmark.CPUMeter()
        // Each node on its own: the one leading the jobs queue (and, with one partition, everything)
        // is the one that runs out of core first.
        for (index, pid) in Self.nodePIDs.enumerated() { cpu.start("rabbit\(index + 1)", pids: [pid]) }
        cpu.start("worker", pids: processes.map(\.process.processIdentifier))
        cpu.start("mock", pids: [environment.mock.process.processIdentifier])
        _ = try await WorkerBenchmark.waitUntilAcked(count, by: processes, since: started)
        let seconds = (ContinuousClock.now - started).seconds
        let cpuPerJob = cpu.perJob(count)
        for process in processes { process.stop() }
        await environment.tearDown()
        return Run(partitions: partitions, throughput: .init(jobs: count, seconds: seconds, cpuMicrosecondsPerJob: cpuPerJob), leaders: leaders)
    }

    /// The three nodes' Erlang VMs.
    static var nodePIDs: [Int32] {
        (1...3).compactMap { node in
            (try? String(contentsOfFile: ".scratch/cluster/node\(node)/rabbitmq.pid", encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }

    /// Which node leads each of `queues` (`rabbitmqctl list_queues name leader` through the script).
    static func leaders(of queues: [String]) -> [String: String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["scripts/rabbitmq-cluster.sh", "ctl", "1", "-q", "list_queues", "name", "leader"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return [:] }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var leaders: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t").map(String.init)
            if fields.count == 2, queues.contains(fields[0]) { leaders[fields[0]] = fields[1] }
        }
        return leaders
    }
}
