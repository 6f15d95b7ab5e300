import Testing
import TestSupport
@testable import TLS

@Suite("TLS over memory BIOs")
struct TLSConnectionTests {
    static let serverConfiguration = TLSServerConfiguration(
        certificateChainFile: Fixtures.path("tls/server.pem"),
        privateKeyFile: Fixtures.path("tls/server.key"),
        clientCAFile: Fixtures.path("tls/ca.pem")
    )

    func pair(
        client configuration: TLSClientConfiguration = TLSClientConfiguration(trustsSystemStore: false, additionalTrustedCAFile: Fixtures.path("tls/ca.pem")),
        serverName: String = "localhost",
        server: TLSServerConfiguration = Self.serverConfiguration
    ) throws -> TLSPair {
        TLSPair(
            client: try TLSConnection(context: TLSContext(client: configuration), serverName: serverName),
            server: try TLSConnection(context: TLSContext(server: server))
        )
    }

    @Test("client and server agree on h2 and carry bytes both ways")
    func roundTrip() throws {
        let pair = try pair()
        try pair.handshake()
        #expect(pair.client.negotiatedProtocol == "h2")
        #expect(pair.server.negotiatedProtocol == "h2")
        let message = Array("PRI * HTTP/2.0".utf8) + [UInt8](repeating: 7, count: 40_000)
        try message.withUnsafeBytes { try pair.client.writePlaintext($0) }
        pair.pump()
        var received: [UInt8] = []
        try pair.server.readPlaintext { received += $0 }
        #expect(received == message)
        try [UInt8]([1, 2, 3]).withUnsafeBytes { try pair.server.writePlaintext($0) }
        pair.pump()
        var reply: [UInt8] = []
        try pair.client.readPlaintext { reply += $0 }
        #expect(reply == [1, 2, 3])
    }

    @Test("the IP address in the certificate verifies too")
    func ipAddress() throws {
        let pair = try pair(serverName: "127.0.0.1")
        try pair.handshake()
        #expect(pair.client.isHandshakeComplete)
    }

    @Test("a server certificate from an untrusted CA fails verification")
    func untrustedCA() throws {
        let pair = try pair(client: TLSClientConfiguration(trustsSystemStore: true, additionalTrustedCAFile: Fixtures.path("tls/untrusted-ca.pem")))
        let error = #expect(throws: TLSError.self) { try pair.handshake() }
        #expect(error?.code == .certificateVerificationFailed)
    }

    @Test("a host name the certificate does not name fails verification")
    func wrongHostName() throws {
        let pair = try pair(serverName: "api.push.apple.com")
        let error = #expect(throws: TLSError.self) { try pair.handshake() }
        #expect(error?.code == .hostNameMismatch)
        #expect(error?.message.contains("mismatch") == true)
    }

    @Test("a client without h2 in ALPN is refused")
    func alpn() throws {
        let pair = try pair(client: TLSClientConfiguration(trustsSystemStore: false, additionalTrustedCAFile: Fixtures.path("tls/ca.pem"), applicationProtocols: ["http/1.1"]))
        #expect(throws: TLSError.self) { try pair.handshake() }
    }

    @Test("client certificates from PKCS#12 and from PEM reach the server with their UID")
    func clientCertificates() throws {
        let keyPath = try Fixtures.privateCopy(of: "tls/client.key")
        let identities: [TLSIdentity] = [
            .pkcs12(path: try Fixtures.privateCopy(of: "tls/client.p12"), password: "test-only-password"),
            .pem(certificatePath: Fixtures.path("tls/client.pem"), privateKeyPath: keyPath),
        ]
        for identity in identities {
            let pair = try pair(client: TLSClientConfiguration(trustsSystemStore: false, additionalTrustedCAFile: Fixtures.path("tls/ca.pem"), identity: identity))
            try pair.handshake()
            #expect(pair.server.peerCertificate?.userID == "com.example.app")
        }
        // Without an identity the handshake still succeeds, with no peer certificate.
        let anonymous = try pair()
        try anonymous.handshake()
        #expect(anonymous.server.peerCertificate == nil)
    }

    @Test("a wrong PKCS#12 password is a configuration error that does not echo the password")
    func wrongPassword() throws {
        let path = try Fixtures.privateCopy(of: "tls/client.p12")
        let identity = TLSIdentity.pkcs12(path: path, password: "hunter2-wrong")
        let error = #expect(throws: TLSError.self) {
            try TLSContext(client: TLSClientConfiguration(additionalTrustedCAFile: Fixtures.path("tls/ca.pem"), identity: identity))
        }
        #expect(error?.code == .configuration)
        #expect(error.map { !"\($0)".contains("hunter2") } == true)
        #expect(!"\(identity)".contains("hunter2"))
        var dumped = ""
        dump(identity, to: &dumped)
        #expect(!dumped.contains("hunter2"))
    }

    @Test("a client context with no trust anchors at all is refused")
    func noTrust() {
        #expect(throws: TLSError.self) { try TLSContext(client: TLSClientConfiguration(trustsSystemStore: false)) }
    }
}
