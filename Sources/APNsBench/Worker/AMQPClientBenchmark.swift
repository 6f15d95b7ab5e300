import Foundation

/// The AMQP client against bare rabbitmq-c (`apns-bench amqp`): the same pre-loaded jobs answered by
/// `bench/bare-limit.c` and by the limit loop (the project's client, answering on its event loop),
/// round after round, with CPU per job of each loop and of the broker; then one more run of each
/// under `strace -c -f` for the system calls per job. Figures only.
struct AMQPClientBenchmark {
    let count: Int
    let rounds: Int
    let prefetch: Int

    func run() async throws {
        let bench = WorkerBenchmark()
        func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        say("\(count) jobs, prefetch \(prefetch), \(rounds) rounds; CPU µs per job of each loop and of the broker during its run")
        say("")
        say("| round | bare C jobs/s | limit loop jobs/s | bare C loop µs | limit loop µs | loop ratio | broker µs, bare | broker µs, limit | broker ratio |")
        say("|---|---|---|---|---|---|---|---|---|")
        var loopRatios: [Double] = []
        var brokerRatios: [Double] = []
        for round in 1...rounds {
            let bare = try await bench.bareLimit(count: count, prefetch: prefetch)
            let limit = try await bench.brokerLimit(count: count, prefetch: prefetch)
            let (bareLoop, limitLoop) = (bare.cpuMicrosecondsPerJob["bare loop"] ?? .nan, limit.cpuMicrosecondsPerJob["limit loop"] ?? .nan)
            let (bareBroker, limitBroker) = (bare.cpuMicrosecondsPerJob["broker"] ?? .nan, limit.cpuMicrosecondsPerJob["broker"] ?? .nan)
            loopRatios.append(limitLoop / bareLoop)
            brokerRatios.append(limitBroker / bareBroker)
            say(String(format: "| %d | %.0f | %.0f | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f |", round, bare.rate, limit.rate, bareLoop, limitLoop, limitLoop / bareLoop, bareBroker, limitBroker, limitBroker / bareBroker))
        }
        say("")
        say(String(format: "median limit loop ÷ bare C loop, CPU per job: %.2f (target ≤ 1.5)", loopRatios.median))
        say(String(format: "median broker CPU per job under the limit loop ÷ under the bare C loop: %.2f (target ≤ 1.1)", brokerRatios.median))
        let traced = min(count, 20_000)
        let bareCalls = try await Syscalls.counted { _ = try await bench.bareLimit(count: traced, prefetch: prefetch, wrapper: $0) }
        let limitCalls = try await Syscalls.counted { _ = try await bench.brokerLimit(count: traced, prefetch: prefetch, wrapper: $0) }
        say("")
        say("system calls per job (strace -c -f, \(traced) jobs, all threads of the loop's process):")
        say("")
        say("| loop | calls per job | the most frequent |")
        say("|---|---|---|")
        for (name, calls) in [("bare C loop", bareCalls), ("limit loop", limitCalls)] {
            let total = calls.values.reduce(0, +)
            let top = calls.sorted { $0.value > $1.value }.prefix(5).map { String(format: "%@ %.2f", $0.key, Double($0.value) / Double(traced)) }
            say(String(format: "| %@ | %.2f | %@ |", name, Double(total) / Double(traced), top.joined(separator: ", ")))
        }
    }
}
