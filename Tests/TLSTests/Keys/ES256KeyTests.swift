import Testing
import TestSupport
@testable import TLS

@Suite("ES256 keys")
struct ES256KeyTests {
    let privateKey: ES256PrivateKey
    let publicKey: ES256PublicKey

    init() throws {
        privateKey = try ES256PrivateKey(pemRepresentation: Fixtures.text("keys/AuthKey_TESTKEY001.p8"))
        publicKey = try ES256PublicKey(pemRepresentation: Fixtures.text("keys/AuthKey_TESTKEY001.pub.pem"))
    }

    @Test("a signature is 64 raw bytes and verifies with the matching public key")
    func signAndVerify() throws {
        let message = Array("header.claims".utf8)
        let signature = try privateKey.signature(for: message)
        #expect(signature.count == 64)
        #expect(publicKey.isValidSignature(signature, for: message))
    }

    @Test("a changed message, a changed signature or another key does not verify")
    func verificationFailsClosed() throws {
        let message = Array("header.claims".utf8)
        var signature = try privateKey.signature(for: message)
        #expect(!publicKey.isValidSignature(signature, for: Array("header.claimz".utf8)))
        let other = try ES256PublicKey(pemRepresentation: Fixtures.text("keys/AuthKey_TESTKEY002.pub.pem"))
        #expect(!other.isValidSignature(signature, for: message))
        signature[10] ^= 0x01
        #expect(!publicKey.isValidSignature(signature, for: message))
        #expect(!publicKey.isValidSignature(signature.prefix(63), for: message))
    }

    @Test("the derived public key is the one openssl wrote")
    func derivedPublicKey() throws {
        let derived = try privateKey.publicKey
        let message = Array("x".utf8)
        #expect(derived.isValidSignature(try privateKey.signature(for: message), for: message))
    }

    @Test("signatures are randomised (ECDSA), yet each verifies")
    func signaturesDiffer() throws {
        let message = Array("same".utf8)
        let first = try privateKey.signature(for: message)
        let second = try privateKey.signature(for: message)
        #expect(first != second)
        #expect(publicKey.isValidSignature(second, for: message))
    }

    @Test(
        "keys ES256 cannot use are refused with a specific code",
        arguments: [
            ("keys/p384.p8", KeyError.Code.wrongCurve),
            ("keys/rsa.p8", KeyError.Code.notEllipticCurve),
            ("keys/malformed.p8", KeyError.Code.malformedKey),
        ]
    )
    func unusableKeys(file: String, code: KeyError.Code) throws {
        let error = #expect(throws: KeyError.self) {
            try ES256PrivateKey(pemRepresentation: Fixtures.text(file))
        }
        #expect(error?.code == code)
    }

    @Test("text that is not PEM at all is a malformed key")
    func notPEM() {
        let error = #expect(throws: KeyError.self) { try ES256PrivateKey(pemRepresentation: "hello") }
        #expect(error?.code == .malformedKey)
        let publicError = #expect(throws: KeyError.self) { try ES256PublicKey(pemRepresentation: "") }
        #expect(publicError?.code == .malformedKey)
    }

    @Test("an error never quotes the key text")
    func errorsDoNotLeakKeys() throws {
        let pem = try Fixtures.text("keys/p384.p8")
        let body = pem.split(separator: "\n")[1]
        do {
            _ = try ES256PrivateKey(pemRepresentation: pem)
            Issue.record("a P-384 key was accepted")
        } catch {
            #expect(!String(describing: error).contains(body))
        }
    }
}
