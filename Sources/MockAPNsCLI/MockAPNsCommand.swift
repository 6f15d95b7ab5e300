import APNsCore
import ArgumentParser
import Foundation
import Logging
import MockAPNs
import NIOCore
import TLS

/// `mock-apns`: the mock APNs server as its own process (test-only; listens on loopback by default).
///
/// Defaults use the committed test fixtures, found from the working directory or from the checkout the
/// binary was built in, so `mock-apns` runs from anywhere in a checkout. docs/mock.md describes its
/// faults and controls.
@main
struct MockAPNsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mock-apns",
        abstract: "A validating, fault-injecting mock of the APNs provider API, for tests and benchmarks.",
        discussion: """
            Prints "mock-apns listening on HOST:PORT" once ready. Steer it while it runs over HTTP/2: \
            GET /_mock/stats, GET|POST /_mock/faults (JSON), POST /_mock/reset, POST /_mock/clock \
            ({"advanceSeconds":N}, with --manual-clock). docs/mock.md lists every fault (--faults takes the same JSON).
            """
    )

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port (0 picks one).") var port = 2197
    @Option(help: "Server certificate chain (PEM).") var certificate = "Tests/Fixtures/tls/server.pem"
    @Option(help: "Server private key (PEM).") var privateKey = "Tests/Fixtures/tls/server.key"
    @Option(help: "CA that issues accepted client (provider) certificates.") var clientCA = "Tests/Fixtures/tls/ca.pem"
    @Option(help: "KEYID:TEAMID:public-key.pem, repeatable: keys whose tokens are accepted.")
    var signingKey: [String] = [
        "TESTKEY001:TEAMID0001:Tests/Fixtures/keys/AuthKey_TESTKEY001.pub.pem",
        "TESTKEY002:TEAMID0002:Tests/Fixtures/keys/AuthKey_TESTKEY002.pub.pem",
    ]
    @Option(help: "TEAMID=bundle[,bundle…], repeatable: the topics each team may push to.")
    var topics: [String] = ["TEAMID0001=com.example.app", "TEAMID0002=com.example.other"]
    @Option(help: "SETTINGS_MAX_CONCURRENT_STREAMS after the first accepted push.") var maxStreams: UInt32 = 1000
    @Option(help: "production or development (development adds apns-unique-id).") var environment = "development"
    @Flag(help: "Answer BadDeviceToken for tokens not listed (by default every well-formed token is a device).") var closedRegistry = false
    @Option(help: "Lower a connection's SETTINGS_MAX_CONCURRENT_STREAMS to this after a rejection (APNs was seen dropping to 1).") var streamsAfterRejection: UInt32?
    @Option(help: "Faults to start with, as MockFaults JSON.") var faults: String?
    @Flag(help: "Judge token ages on a clock that only /_mock/clock moves.") var manualClock = false
    @Flag(help: "Log each connection event.") var verbose = false
    @Option(help: "Event-loop threads (default: one per core). Benchmarks use 1, so the stand-in for Apple's servers takes less of the cores it shares with what is measured.")
    var threads: Int?

    func run() async throws {
        if let threads {
            guard threads > 0 else { throw ValidationError("--threads must be at least 1") }
            // Read once, when the server first uses the shared event-loop group.
            NIOSingletons.groupLoopCountSuggestion = threads
        }
        var logger = Logger(label: "mock-apns")
        logger.logLevel = verbose ? .debug : .warning
        var configuration = MockServerConfiguration(
            apns: MockAPNsConfiguration(
                signingKeys: try signingKey.map(Self.parseKey),
                teamTopics: try Dictionary(uniqueKeysWithValues: topics.map(Self.parseTopics)),
                registry: DeviceRegistry(acceptsUnknownDevices: !closedRegistry),
                environment: APNsEnvironment(rawValue: environment) ?? .development,
                maxConcurrentStreams: maxStreams,
                streamsAfterRejection: streamsAfterRejection
            ),
            tls: TLSServerConfiguration(
                certificateChainFile: try FixturePath.resolve(certificate, option: "--certificate"),
                privateKeyFile: try FixturePath.resolve(privateKey, option: "--private-key"),
                clientCAFile: try FixturePath.resolve(clientCA, option: "--client-ca")
            )
        )
        configuration.host = host
        configuration.port = port
        if let faults {
            configuration.faults = try JSONDecoder().decode(MockFaults.self, from: Data(faults.utf8))
        }
        if manualClock { configuration.clock = ManualWallClock(Date()) }
        let server = try MockAPNsServer(configuration: configuration, logger: logger)
        let boundPort = try await server.start()
        // Scripts wait for this line; write it unbuffered.
        FileHandle.standardOutput.write(Data("mock-apns listening on \(host):\(boundPort)\n".utf8))
        while true { try await Task.sleep(for: .seconds(3600)) }
    }

    static func parseKey(_ text: String) throws -> MockSigningKey {
        let parts = text.split(separator: ":", maxSplits: 2).map(String.init)
        guard parts.count == 3 else { throw ValidationError("--signing-key must be KEYID:TEAMID:path, not \(text)") }
        let pem = try String(contentsOfFile: try FixturePath.resolve(parts[2], option: "--signing-key"), encoding: .utf8)
        return MockSigningKey(keyID: parts[0], teamID: parts[1], publicKey: try ES256PublicKey(pemRepresentation: pem))
    }

    static func parseTopics(_ text: String) throws -> (String, Set<String>) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw ValidationError("--topics must be TEAMID=bundle[,bundle], not \(text)") }
        return (parts[0], Set(parts[1].split(separator: ",").map(String.init)))
    }
}
