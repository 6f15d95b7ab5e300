import Foundation

/// `apns-bench`: prints figures; never a pass/fail test. Run from the repository root (it reads the
/// test fixtures and starts `mock-apns` from the same build folder).
///   apns-bench jwt [--batches N] [--per-batch N]
///   apns-bench client [--count N] [--streams N] [--rounds N]
let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String, default value: String) -> String {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return value }
    return arguments[index + 1]
}

switch arguments.first {
case "jwt":
    let benchmark = JWTBenchmark(batches: Int(option("--batches", default: "31"))!, perBatch: Int(option("--per-batch", default: "500"))!)
    try benchmark.run(
        keyPath: option("--key", default: "Tests/Fixtures/keys/AuthKey_TESTKEY001.p8"),
        publicKeyPath: option("--public-key", default: "Tests/Fixtures/keys/AuthKey_TESTKEY001.pub.pem")
    )
case "client":
    try await ClientComparison(
        count: Int(option("--count", default: "200000"))!,
        streams: Int(option("--streams", default: "1000"))!,
        rounds: Int(option("--rounds", default: "3"))!
    ).run()
case "client-only":
    // Drives an already running mock (for profiling the client alone).
    let result = try await ClientBenchmark(count: Int(option("--count", default: "100000"))!, payload: ClientComparison.payload, deviceToken: ClientComparison.deviceToken)
        .run(connections: Int(option("--connections", default: "1"))!, streamsPerConnection: Int(option("--streams", default: "1000"))!, port: Int(option("--port", default: "2197"))!)
    print(String(format: "%.0f notifications/s, p50 %.2f ms, p99 %.2f ms, %.1f µs CPU each, %d failures", result.rate, result.latency.p50, result.latency.p99, result.cpuMicrosecondsPerNotification, result.failures))
default:
    FileHandle.standardError.write(Data("usage: apns-bench jwt [--batches N] [--per-batch N] | client [--count N] [--streams N] [--rounds N] | client-only --port P\n".utf8))
    exit(2)
}
