import Testing
@testable import TLS

@Suite("SHA-256")
struct SHA256Tests {
    @Test("known answers (FIPS 180-2)")
    func knownAnswers() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0, radix: 16).leftPadded }.joined() }
        #expect(hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}

extension String {
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
