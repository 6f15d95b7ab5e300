import Foundation
import Testing
import TestSupport
import TLS

/// A client certificate's `notAfter`, read by the worker for its expiry gauge and `check-config`,
/// against what the `openssl` command line reads from the same certificate.
@Suite("Client certificate expiry", .io)
struct CertificateExpiryTests {
    /// `openssl x509 -enddate` of the fixture certificate, parsed.
    static func opensslNotAfter() throws -> Date {
        let output = try ProcessRun.blocking("/usr/bin/openssl", ["x509", "-enddate", "-noout", "-in", Fixtures.path("tls/client.pem")]).output
        let text = output.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "notAfter=", with: "")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "MMM d HH:mm:ss yyyy zzz"
        return try #require(formatter.date(from: text.replacingOccurrences(of: "  ", with: " ")), "cannot parse \(text)")
    }

    @Test("PKCS#12 and PEM identities give the certificate's notAfter; no identity gives nil")
    func notAfter() throws {
        let expected = try Self.opensslNotAfter()
        let identities: [TLSIdentity] = [
            .pkcs12(path: try Fixtures.privateCopy(of: "tls/client.p12"), password: "test-only-password"),
            .pem(certificatePath: Fixtures.path("tls/client.pem"), privateKeyPath: try Fixtures.privateCopy(of: "tls/client.key")),
        ]
        for identity in identities {
            let context = try TLSContext(client: TLSClientConfiguration(trustsSystemStore: false, additionalTrustedCAFile: Fixtures.path("tls/ca.pem"), identity: identity))
            #expect(context.clientCertificateNotAfter == expected)
        }
        let anonymous = try TLSContext(client: TLSClientConfiguration(trustsSystemStore: false, additionalTrustedCAFile: Fixtures.path("tls/ca.pem")))
        #expect(anonymous.clientCertificateNotAfter == nil)
    }

    @Test("the system trust store holds the USERTrust RSA root that Apple's servers chain to since 2025")
    func userTrustRoot() throws {
        // The worker trusts OpenSSL's default verify paths (Debian's ca-certificates, /etc/ssl/certs).
        let listing = try ProcessRun.blocking("/bin/sh", [
            "-c", "/usr/bin/openssl crl2pkcs7 -nocrl -certfile /etc/ssl/certs/ca-certificates.crt | /usr/bin/openssl pkcs7 -print_certs -noout",
        ]).output
        let subjects = listing.split(separator: "\n").filter { $0.hasPrefix("subject=") }
        #expect(subjects.count > 100, "the bundle has \(subjects.count) certificates")
        #expect(subjects.contains { $0.contains("CN = USERTrust RSA Certification Authority") && $0.contains("O = The USERTRUST Network") })
    }
}
