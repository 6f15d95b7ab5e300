import APNsCore
import Foundation
import TLS

/// Measures the cost of minting one provider token (ES256 signature + JWT encoding) and of verifying one,
/// the two crypto operations on the token path of the worker and the mock server.
struct JWTBenchmark {
    let batches: Int
    let perBatch: Int

    func run(keyPath: String, publicKeyPath: String) throws {
        let pem = try String(contentsOfFile: keyPath, encoding: .utf8)
        let signer = try ProviderTokenSigner(teamID: "TEAMID0001", keyID: "TESTKEY001", key: ES256PrivateKey(pemRepresentation: pem))
        let publicKey = try ES256PublicKey(pemRepresentation: String(contentsOfFile: publicKeyPath, encoding: .utf8))
        let key = try ES256PrivateKey(pemRepresentation: pem)
        let message = Array("eyJhbGciOiJFUzI1NiIsImtpZCI6IlRFU1RLRVkwMDEifQ.eyJpc3MiOiJURUFNSUQwMDAxIiwiaWF0IjoxODAwMDAwMDAwfQ".utf8)
        let signature = try key.signature(for: message)

        let timing = PerOperation(batches: batches, perBatch: perBatch)
        let mint = try timing.measure { _ = try signer.token(issuedAt: Date()) }
        let verify = timing.measure { precondition(publicKey.isValidSignature(signature, for: message)) }
        print("provider token (ES256 JWT), \(batches) batches × \(perBatch), medians per operation:")
        print(String(format: "  mint a token:   %7.1f µs  (%.0f tokens/s on one core; p10 %.1f, p90 %.1f µs)", mint.median, 1e6 / mint.median, mint.p10, mint.p90))
        print(String(format: "  verify a token: %7.1f µs  (%.0f verifications/s on one core; p10 %.1f, p90 %.1f µs)", verify.median, 1e6 / verify.median, verify.p10, verify.p90))
        print("  a connection mints at most one token per 20 minutes, so signing costs < 1e-6 of a core per connection")
    }
}
