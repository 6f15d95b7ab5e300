import Foundation

/// `apns-bench`: prints figures; never a pass/fail test.
///   apns-bench jwt [--key PATH --public-key PATH] [--batches N] [--per-batch N]
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
default:
    FileHandle.standardError.write(Data("usage: apns-bench jwt [--key PATH] [--public-key PATH] [--batches N] [--per-batch N]\n".utf8))
    exit(2)
}
