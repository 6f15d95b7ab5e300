public import APNsClient
public import APNsCore
public import Foundation
public import MockAPNs
public import TLS

/// A mock APNs on loopback with the test-only fixtures, and the client side to talk to it.
///
/// Keys: TESTKEY001 belongs to team TEAMID0001 (topic com.example.app), TESTKEY002 to TEAMID0002
/// (topic com.example.other). The client certificate names com.example.app.
public struct MockHarness: Sendable {
    public let server: MockAPNsServer
    public let endpoint: APNsEndpoint
    public let clock: ManualWallClock

    /// Starts a server; `adjust` may change its configuration first (faults, limits, registry).
    public static func start(_ adjust: (inout MockServerConfiguration) -> Void = { _ in }) async throws -> MockHarness {
        try TestTier.requireIO("the mock APNs server")
        let clock = ManualWallClock(Date())
        var configuration = MockServerConfiguration(
            apns: MockAPNsConfiguration(
                signingKeys: [
                    MockSigningKey(keyID: "TESTKEY001", teamID: "TEAMID0001", publicKey: try ES256PublicKey(pemRepresentation: Fixtures.text("keys/AuthKey_TESTKEY001.pub.pem"))),
                    MockSigningKey(keyID: "TESTKEY002", teamID: "TEAMID0002", publicKey: try ES256PublicKey(pemRepresentation: Fixtures.text("keys/AuthKey_TESTKEY002.pub.pem"))),
                ],
                teamTopics: ["TEAMID0001": ["com.example.app"], "TEAMID0002": ["com.example.other"]]
            ),
            tls: TLSServerConfiguration(
                certificateChainFile: Fixtures.path("tls/server.pem"),
                privateKeyFile: Fixtures.path("tls/server.key"),
                clientCAFile: Fixtures.path("tls/ca.pem")
            )
        )
        configuration.clock = clock
        adjust(&configuration)
        let server = try MockAPNsServer(configuration: configuration)
        let port = try await server.start()
        return MockHarness(server: server, endpoint: APNsEndpoint(host: "localhost", port: port), clock: clock)
    }

    /// A client configuration that trusts the test CA and reconnects quickly.
    public static func clientConfiguration(_ adjust: (inout APNsClientConfiguration) -> Void = { _ in }) -> APNsClientConfiguration {
        var configuration = APNsClientConfiguration()
        configuration.trustsSystemStore = false
        configuration.additionalTrustedCAFile = Fixtures.path("tls/ca.pem")
        configuration.minimumConnectInterval = .milliseconds(10)
        configuration.initialReconnectDelay = .milliseconds(20)
        configuration.maximumReconnectDelay = .milliseconds(200)
        // Generous: a loaded machine's first handshake can outlast 5 s, and a test that means a timeout
        // sets its own (ClientFaultTests, ClientFlowControlTests).
        configuration.requestTimeout = .seconds(30)
        adjust(&configuration)
        return configuration
    }

    /// A token credential for `keyID` (TESTKEY001 or TESTKEY002) on the harness's clock.
    public func tokenCredential(keyID: String = "TESTKEY001", name: String? = nil, refreshAge: TimeInterval = ProviderTokenPolicy.defaultRefreshAge) throws -> APNsCredential {
        let team = keyID == "TESTKEY001" ? "TEAMID0001" : "TEAMID0002"
        let key = try ES256PrivateKey(pemRepresentation: Fixtures.text("keys/AuthKey_\(keyID).p8"))
        let source = ProviderTokenSource(
            signer: try ProviderTokenSigner(teamID: team, keyID: keyID, key: key),
            policy: try ProviderTokenPolicy(refreshAge: refreshAge),
            clock: clock
        )
        return APNsCredential(name: name ?? keyID, authentication: .token(source))
    }

    /// The PKCS#12 client-certificate credential for com.example.app.
    public func certificateCredential(name: String = "certificate") throws -> APNsCredential {
        APNsCredential(name: name, authentication: .certificate(.pkcs12(path: try Fixtures.privateCopy(of: "tls/client.p12"), password: "test-only-password")))
    }

    /// A valid alert for `device` (a random 32-byte token by default) to com.example.app.
    public static func alert(device: String? = nil, topic: String = "com.example.app", apnsID: APNsID? = APNsID.random()) throws -> NotificationRequest {
        // A leading "a": a random token starting "dead" or "bad0" (1 in 32,768) would meet the mock's
        // unregistered or unknown prefixes and fail a test that expects a delivery.
        let hex = device ?? "a" + (0..<63).map { _ in String("0123456789abcdef".randomElement()!) }.joined()
        return try NotificationRequest(
            deviceToken: DeviceToken(hex: hex),
            topic: topic,
            apnsID: apnsID,
            payload: Array(#"{"aps":{"alert":{"title":"Hello","body":"From the tests"}}}"#.utf8)
        )
    }
}

/// Loads the test-only signing keys by key id.
public enum ES256PrivateKeyLoader {
    public static func load(_ keyID: String) throws -> ES256PrivateKey {
        try ES256PrivateKey(pemRepresentation: Fixtures.text("keys/AuthKey_\(keyID).p8"))
    }
}
