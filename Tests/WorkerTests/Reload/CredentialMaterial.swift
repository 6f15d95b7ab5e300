import Foundation
import MockAPNs
import TestSupport
import TLS

/// Keys and certificates made during a test with the openssl command, as an operator makes new ones.
enum CredentialMaterial {
    /// A new P-256 `.p8` key (mode 600) and its public key in PEM.
    static func tokenKey() async throws -> (keyFile: String, publicPEM: String) {
        let keyFile = try TemporaryFile.write("", mode: 0o600)
        try await openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", keyFile])
        let publicFile = keyFile + ".pub.pem"
        try await openssl(["pkey", "-in", keyFile, "-pubout", "-out", publicFile])
        return (keyFile, try String(contentsOfFile: publicFile, encoding: .utf8))
    }

    /// A mock setup that also accepts provider tokens signed with `publicPEM` as key ROTATED001 of
    /// TEAMID0001: the new key an operator rotates team-one to.
    static func mockTrusting(_ publicPEM: String) -> (inout MockServerConfiguration) -> Void {
        { configuration in
            if let key = try? ES256PublicKey(pemRepresentation: publicPEM) {
                configuration.apns.signingKeys.append(MockSigningKey(keyID: "ROTATED001", teamID: "TEAMID0001", publicKey: key))
            }
        }
    }

    /// A new client certificate for com.example.app from the test CA, as a PKCS#12 written over
    /// `p12File` (the test password), the way a renewed certificate replaces the old file.
    static func replaceCertificate(at p12File: String) async throws {
        let base = p12File + ".new"
        try await openssl(["req", "-new", "-nodes", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-keyout", base + ".key", "-out", base + ".csr",
                           "-subj", "/CN=Apple Push Services: com.example.app/UID=com.example.app"])
        let extensions = try TemporaryFile.write("extendedKeyUsage=clientAuth\n", mode: 0o600)
        try await openssl(["x509", "-req", "-in", base + ".csr", "-CA", Fixtures.path("tls/ca.pem"), "-CAkey", Fixtures.path("tls/ca.key"),
                           "-set_serial", "\(Int.random(in: 1000...999_999))", "-days", "30", "-out", base + ".pem", "-extfile", extensions])
        try await openssl(["pkcs12", "-export", "-in", base + ".pem", "-inkey", base + ".key", "-certfile", Fixtures.path("tls/ca.pem"),
                           "-out", base + ".p12", "-passout", "pass:test-only-password"])
        try Data(contentsOf: URL(fileURLWithPath: base + ".p12")).write(to: URL(fileURLWithPath: p12File), options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: p12File)
    }

    /// Runs through ``ProcessRun/run(_:_:input:in:timeout:)``: a test must not hold a thread of the
    /// two-thread cooperative pool while openssl works.
    private static func openssl(_ arguments: [String]) async throws {
        let run = try await ProcessRun.run("/usr/bin/openssl", arguments)
        guard run.succeeded else { throw HarnessError("openssl \(arguments.first ?? "") failed: \(run.transcript)") }
    }
}
