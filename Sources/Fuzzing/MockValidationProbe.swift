import APNsCore
import Foundation
import HTTP2
public import MockAPNs
import TLS

/// One fuzz input as a request to the mock APNs, through its validator, and what must hold: validation
/// ends with a verdict whose status and reason APNs documents, whatever the headers, token or body.
///
/// Input: header lines `name: value` up to a blank line, then the body. The validator knows the test
/// key TESTKEY001 (team TEAMID0001, topic com.example.app) and its clock stands at 1,800,000,000, so
/// seeds with a token issued then reach every check.
public struct MockValidationProbe: Sendable {
    let validator: RequestValidator

    /// `publicKeyPEM`: the public half of the test key (Tests/Fixtures/keys/AuthKey_TESTKEY001.pub.pem).
    public init(publicKeyPEM: String) throws {
        let key = MockSigningKey(keyID: "TESTKEY001", teamID: "TEAMID0001", publicKey: try ES256PublicKey(pemRepresentation: publicKeyPEM))
        let configuration = MockAPNsConfiguration(signingKeys: [key], teamTopics: ["TEAMID0001": ["com.example.app"]])
        validator = RequestValidator(configuration: configuration, clock: ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000)))
    }

    /// The verdict on the first of the two requests (for the corpus tests).
    @discardableResult
    public func run(_ input: [UInt8]) -> MockVerdict {
        let separator = input.indices.first { input[$0] == 0x0A && $0 + 1 < input.count && input[$0 + 1] == 0x0A }
        let head = separator.map { input[..<$0] } ?? input[...]
        let body = separator.map { Array(input[($0 + 2)...]) } ?? []
        let headers = head.split(separator: 0x0A).map { line -> HTTP2Header in
            let colon = line.firstIndex(of: UInt8(ascii: ":")).flatMap { $0 == line.startIndex ? line[($0 + 1)...].firstIndex(of: UInt8(ascii: ":")) : $0 }
            guard let colon else { return HTTP2Header(String(decoding: line, as: UTF8.self), "") }
            let value = line[(colon + 1)...].drop { $0 == 0x20 }
            return HTTP2Header(String(decoding: line[..<colon], as: UTF8.self), String(decoding: value, as: UTF8.self))
        }
        var auth = ConnectionAuthState(clientCertificateBundleID: nil)
        var verdicts: [MockVerdict] = []
        for _ in 0..<2 {  // twice: the second request meets the connection state the first one left
            let verdict = validator.validate(MockRequest(headers: headers, body: body), auth: &auth)
            if case .reject(let status, let reason, _) = verdict {
                require(reason.documentedStatus == status, "\(reason) answered with \(status)")
            }
            verdicts.append(verdict)
        }
        return verdicts[0]
    }
}
