import Foundation
import Testing
@testable import AMQP

/// The broker the test command starts (`scripts/rabbitmq.sh`), as host and port.
enum TestBroker {
    static let port = Int(ProcessInfo.processInfo.environment["APNS_RABBITMQ_PORT"] ?? "") ?? 5673
    static let endpoint = AMQPConnection.Endpoint(host: "127.0.0.1", port: port)
}

@Suite("AMQP connection (real RabbitMQ)")
struct AMQPConnectionTests {
    @Test("the library is rabbitmq-c 0.11 or newer")
    func version() {
        #expect(AMQPLibrary.version.hasPrefix("0.1"))
    }

    @Test("logs in through the PLAIN shim and opens a channel")
    func login() throws {
        let connection = try AMQPConnection(endpoint: TestBroker.endpoint)
        connection.close()
    }

    @Test("a wrong password is a broker refusal, and the password is in no description")
    func wrongPassword() throws {
        var endpoint = TestBroker.endpoint
        endpoint.password = "not-the-password-\(UUID().uuidString)"
        let error = #expect(throws: AMQPError.self) { try AMQPConnection(endpoint: endpoint) }
        #expect(error.map { !"\($0)".contains(endpoint.password) } == true)
        #expect(!"\(endpoint)".contains(endpoint.password))
    }

    @Test("nothing listening is a library socket error naming the endpoint")
    func refused() {
        let endpoint = AMQPConnection.Endpoint(host: "127.0.0.1", port: 1)
        let error = #expect(throws: AMQPError.self) { try AMQPConnection(endpoint: endpoint, timeoutSeconds: 2) }
        guard case .library = error?.code else { Issue.record("expected a library error, got \(String(describing: error))"); return }
        #expect(error?.operation.contains("127.0.0.1:1") == true)
        #expect(error?.isConnectionLevel == true)
    }
}
