import Foundation
import Testing
import TestSupport
@testable import AMQP

@Suite("AMQP endpoint URLs")
struct AMQPEndpointTests {
    @Test("amqp:// defaults: port 5672, vhost /, guest/guest, no TLS")
    func defaults() throws {
        let endpoint = try AMQPEndpoint(url: "amqp://rabbit.internal")
        #expect(endpoint == AMQPEndpoint(host: "rabbit.internal", port: 5672, virtualHost: "/", user: "guest", password: "guest", usesTLS: false))
    }

    @Test("amqps:// means TLS on port 5671; an explicit port wins; the scheme is case-insensitive")
    func tlsAndPorts() throws {
        let tls = try AMQPEndpoint(url: "AMQPS://rabbit.internal/")
        #expect(tls.usesTLS && tls.port == 5671)
        #expect(try AMQPEndpoint(url: "amqps://rabbit.internal:15671").port == 15671)
        #expect(try AMQPEndpoint(url: "amqp://127.0.0.1:5673/").port == 5673)
    }

    @Test(
        "vhosts: none and / are the default vhost, %2F is / too, others are percent-decoded",
        arguments: [
            ("amqp://h", "/"), ("amqp://h/", "/"), ("amqp://h/%2f", "/"), ("amqp://h/%2F", "/"),
            ("amqp://h/foo", "foo"), ("amqp://h/a%2Fb", "a/b"), ("amqp://h/caf%C3%A9", "café"), ("amqp://h:1234/jobs?heartbeat=5", "jobs"),
        ]
    )
    func virtualHosts(url: String, expected: String) throws {
        #expect(try AMQPEndpoint(url: url).virtualHost == expected)
    }

    @Test("user and password are percent-decoded; a user alone has an empty password")
    func credentials() throws {
        let endpoint = try AMQPEndpoint(url: "amqp://wor%40ker:p%3Ass%2Fw%40rd@h/")
        #expect(endpoint.user == "wor@ker")
        #expect(endpoint.password == "p:ss/w@rd")
        let userOnly = try AMQPEndpoint(url: "amqp://worker@h")
        #expect(userOnly.user == "worker" && userOnly.password == "")
    }

    @Test("IPv6 hosts in brackets, with and without a port")
    func ipv6() throws {
        #expect(try AMQPEndpoint(url: "amqp://[::1]:5673/").host == "::1")
        #expect(try AMQPEndpoint(url: "amqp://[::1]:5673/").port == 5673)
        #expect(try AMQPEndpoint(url: "amqps://[fe80::1]").port == 5671)
    }

    @Test(
        "malformed URLs are invalid arguments that never quote the secret",
        arguments: [
            "http://user:s3cr3t-XYZ@h/", "user:s3cr3t-XYZ@h", "amqp://user:s3cr3t-XYZ@h:port/", "amqp://user:s3cr3t-XYZ@h:0/",
            "amqp://user:s3cr3t-XYZ@h:65536/", "amqp://user:s3cr3t-XYZ@/", "amqp://user:s3cr3t-XYZ@h/a/b", "amqp://user:s3cr3t-XYZ%zz@h/",
            "amqp://user:s3cr3t-XYZ@[::1/", "amqp://user:s3/cr3t-XYZ@h/", "amqp://u:s3cr3t-XYZ:@h:12x/",
        ]
    )
    func malformed(url: String) {
        let error = #expect(throws: AMQPError.self) { try AMQPEndpoint(url: url) }
        #expect(error?.code == .invalidArgument)
        #expect(error.map { !"\($0)".contains("s3cr3t") && !"\($0)".contains("XYZ") } == true, "\(String(describing: error))")
    }

    @Test("a wrong scheme is named in the error")
    func wrongScheme() {
        let error = #expect(throws: AMQPError.self) { try AMQPEndpoint(url: "http://h/") }
        #expect(error?.message.contains("\"http\"") == true)
    }

    @Test("the description shows user, host, port and vhost, never the password")
    func description() throws {
        let endpoint = try AMQPEndpoint(url: "amqps://worker:hunter2-\(UUID().uuidString)@rabbit:5671/jobs%2Fprod")
        #expect(endpoint.description == "amqps://worker@rabbit:5671/jobs%2Fprod")
        #expect(!"\(endpoint)".contains("hunter2"))
        #expect(!String(reflecting: endpoint).contains("hunter2"))
        var dumped = ""
        dump(endpoint, to: &dumped)
        #expect(!dumped.contains("hunter2") && dumped.contains("rabbit"))
        var options = AMQPClientOptions(endpoints: [endpoint])
        options.connectionName = "x"
        #expect(!"\(options)".contains("hunter2") && !String(reflecting: options).contains("hunter2"))
        #expect(AMQPEndpoint(host: "::1").description == "amqp://guest@[::1]:5672/")
    }

    @Test("a password file replaces the URL's password; its first line only")
    func passwordFile() throws {
        let path = try TemporaryFile.write("from-file\nignored\n", mode: 0o600)
        let endpoint = try AMQPEndpoint(url: "amqp://worker:from-url@h/", passwordFile: path)
        #expect(endpoint.password == "from-file")
        #expect(endpoint.user == "worker")
        let missing = #expect(throws: AMQPError.self) { try AMQPEndpoint(url: "amqp://h/", passwordFile: "/nonexistent/\(UUID().uuidString)") }
        #expect(missing?.code == .invalidArgument)
    }

    @Test("percent-encoding round-trips through description and parsing")
    func roundTrip() throws {
        let endpoint = AMQPEndpoint(host: "h", port: 1234, virtualHost: "a/b c", user: "u@x", password: "p", usesTLS: true)
        var parsed = try AMQPEndpoint(url: endpoint.description)
        parsed.password = "p"
        #expect(parsed == endpoint)
    }
}
