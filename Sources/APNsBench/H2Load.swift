import APNsCore
import Foundation
import TLS

/// Runs Debian's h2load with the same method, path, headers and body as the client benchmark.
struct H2Load {
    struct Result {
        let rate: Double
        let succeeded: Int
        let meanLatencyMilliseconds: Double?
        let output: String
    }

    let count: Int
    let payload: [UInt8]
    let deviceToken: String

    func run(connections: Int, streamsPerConnection: Int, port: Int) throws -> Result {
        let body = FileManager.default.temporaryDirectory.appendingPathComponent("apns-bench-body-\(getpid()).json")
        try Data(payload).write(to: body)
        defer { try? FileManager.default.removeItem(at: body) }
        let key = try ES256PrivateKey(pemRepresentation: String(contentsOfFile: "Tests/Fixtures/keys/AuthKey_TESTKEY001.p8", encoding: .utf8))
        let token = try ProviderTokenSigner(teamID: "TEAMID0001", keyID: "TESTKEY001", key: key).token(issuedAt: Date())
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/h2load")
        process.arguments = [
            "-n", String(count), "-c", String(connections), "-t", "1", "-m", String(streamsPerConnection), "--npn-list=h2",
            "-d", body.path,
            "-H", "authorization: \(token.bearerHeaderValue)",
            "-H", "apns-push-type: alert", "-H", "apns-topic: com.example.app", "-H", "apns-priority: 10",
            "-H", "content-type: application/json",
            "https://localhost:\(port)/3/device/\(deviceToken)",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        return Result(rate: Self.number(after: "finished in ", then: "s, ", in: text) ?? 0, succeeded: Self.succeeded(text), meanLatencyMilliseconds: Self.meanRequestTime(text), output: text)
    }

    /// "finished in 1.23s, 81234.56 req/s, …": the req/s figure.
    private static func number(after marker: String, then separator: String, in text: String) -> Double? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(marker) }) else { return nil }
        let fields = line.components(separatedBy: separator)
        guard fields.count > 1 else { return nil }
        return Double(fields[1].split(separator: " ").first ?? "")
    }

    private static func succeeded(_ text: String) -> Int {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("requests:") }) else { return 0 }
        let parts = line.components(separatedBy: ", ")
        return parts.first(where: { $0.hasSuffix("succeeded") }).flatMap { Int($0.split(separator: " ").first ?? "") } ?? 0
    }

    /// "time for request:   1.23ms  …  mean …": the mean column.
    private static func meanRequestTime(_ text: String) -> Double? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("time for request:") }) else { return nil }
        let values = line.dropFirst("time for request:".count).split(separator: " ")
        guard values.count >= 3 else { return nil }
        let mean = String(values[2])
        if mean.hasSuffix("ms") { return Double(mean.dropLast(2)) }
        if mean.hasSuffix("us") { return Double(mean.dropLast(2)).map { $0 / 1000 } }
        if mean.hasSuffix("s") { return Double(mean.dropLast(1)).map { $0 * 1000 } }
        return nil
    }
}
