import Foundation
import Testing
import TestSupport
@testable import AMQP

@Suite("AMQP client: TLS options (openssl s_server)", .enabled(if: OpenSSLServer.isAvailable), .io)
struct AMQPTLSTests {
    static let peerVerifyFailed: Int32 = -0x0202
    static let hostnameVerifyFailed: Int32 = -0x0201
    /// rabbitmq-c's `AMQP_STATUS_TIMEOUT`.
    static let timedOut: Int32 = -0x000D
    /// Long enough for any refusal to arrive; only a server that wrongly accepts waits it out.
    static let refusalTimeout = TestTiming.milliseconds(10_000)

    /// Connects to `server` over TLS and returns the failure (the silent server never lets a login succeed).
    /// `timeout` bounds the whole attempt. A test that expects the login to time out keeps the short
    /// default; one that expects a refusal (the server's, or the client's own once the server's
    /// certificate arrives) passes `refusalTimeout`, because it waits on another process, which a
    /// loaded machine can delay past a second.
    static func connect(_ server: OpenSSLServer, host: String = "localhost", tls: AMQPTLSOptions, timeout: Duration = TestTiming.milliseconds(1000)) async -> AMQPError? {
        var options = TestBroker.options()
        options.endpoints = [AMQPEndpoint(host: host, port: server.port, usesTLS: true)]
        options.tls = tls
        options.connectTimeout = timeout
        let client = TestBroker.client(options)
        do {
            try await client.connect()
            Issue.record("connected to a server that cannot speak AMQP")
            await client.close()
            return nil
        } catch {
            return error as? AMQPError
        }
    }

    /// Whether `error` comes from after a successful TLS handshake (rabbitmq-c's TLS statuses are -0x02xx).
    static func passedTLS(_ error: AMQPError?) -> Bool {
        guard case .library(let status)? = error?.code else { return false }
        return !(-0x02FF ... -0x0200).contains(status)
    }

    @Test("peer verification is on by default: a certificate from an unknown CA is refused")
    func verifiesPeerByDefault() async throws {
        let server = try await OpenSSLServer()
        #expect(await Self.connect(server, tls: AMQPTLSOptions(), timeout: Self.refusalTimeout)?.code == .library(status: Self.peerVerifyFailed))
        #expect(await Self.connect(server, tls: AMQPTLSOptions(caFile: Fixtures.path("tls/untrusted-ca.pem")), timeout: Self.refusalTimeout)?.code == .library(status: Self.peerVerifyFailed))
    }

    @Test("the CA file makes the server trusted")
    func caFile() async throws {
        let server = try await OpenSSLServer()
        let error = await Self.connect(server, tls: AMQPTLSOptions(caFile: Fixtures.path("tls/ca.pem")))
        #expect(Self.passedTLS(error), "\(String(describing: error))")
    }

    @Test("hostname verification is on by default and can be turned off")
    func verifiesHostname() async throws {
        // This certificate names localhost but not 127.0.0.1, which the client connects to.
        let server = try await OpenSSLServer(certificate: "server-dns-only")
        let strict = await Self.connect(server, host: "127.0.0.1", tls: AMQPTLSOptions(caFile: Fixtures.path("tls/ca.pem")), timeout: Self.refusalTimeout)
        #expect(strict?.code == .library(status: Self.hostnameVerifyFailed), "\(String(describing: strict))")
        let relaxed = await Self.connect(server, host: "127.0.0.1", tls: AMQPTLSOptions(caFile: Fixtures.path("tls/ca.pem"), verifyHostname: false))
        #expect(Self.passedTLS(relaxed), "\(String(describing: relaxed))")
        let named = await Self.connect(server, host: "localhost", tls: AMQPTLSOptions(caFile: Fixtures.path("tls/ca.pem")))
        #expect(Self.passedTLS(named), "the name it does have passes: \(String(describing: named))")
    }

    @Test("peer verification can be turned off: an unknown CA is then accepted")
    func unverifiedPeer() async throws {
        let server = try await OpenSSLServer()
        let error = await Self.connect(server, tls: AMQPTLSOptions(caFile: Fixtures.path("tls/untrusted-ca.pem"), verifyPeer: false))
        #expect(Self.passedTLS(error), "\(String(describing: error))")
    }

    @Test("a client certificate is presented when configured")
    func clientCertificate() async throws {
        let server = try await OpenSSLServer(requireClientCertificate: true)
        // A key readable by others is refused, as every key the worker reads: the fixture is 0644 in git.
        let key = try TemporaryFile.write(String(contentsOfFile: Fixtures.path("tls/client.key"), encoding: .utf8), mode: 0o600)
        let withCertificate = await Self.connect(server, tls: AMQPTLSOptions(
            caFile: Fixtures.path("tls/ca.pem"), certificateFile: Fixtures.path("tls/client.pem"), keyFile: key
        ))
        #expect(withCertificate?.code == .library(status: Self.timedOut), "a timeout after TLS, got \(String(describing: withCertificate))")
        // With TLS 1.3 the server judges the certificate after the client's handshake ends, so its
        // refusal arrives as an alert on the first read: give it time to come.
        let without = await Self.connect(server, tls: AMQPTLSOptions(caFile: Fixtures.path("tls/ca.pem")), timeout: Self.refusalTimeout)
        #expect(without?.code != .library(status: Self.timedOut), "the server must refuse a client without a certificate, got \(String(describing: without))")
    }

    @Test("a client key other accounts can read is refused before connecting, saying how to fix it")
    func exposedClientKey() async throws {
        let server = try await OpenSSLServer(requireClientCertificate: true)
        let key = try TemporaryFile.write(String(contentsOfFile: Fixtures.path("tls/client.key"), encoding: .utf8), mode: 0o644)
        let error = await Self.connect(server, tls: AMQPTLSOptions(caFile: Fixtures.path("tls/ca.pem"), certificateFile: Fixtures.path("tls/client.pem"), keyFile: key))
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("chmod 600") == true, "\(String(describing: error))")
    }

    @Test("a missing CA file is reported with its path")
    func missingCAFile() async throws {
        let server = try await OpenSSLServer()
        let error = await Self.connect(server, tls: AMQPTLSOptions(caFile: "/nonexistent/ca.pem"))
        #expect(error?.operation.contains("/nonexistent/ca.pem") == true)
    }
}
