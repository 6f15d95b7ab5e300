import Testing
@testable import MockAPNs

@Suite("Base64url decoding")
struct Base64URLDecoderTests {
    @Test("decodes what base64url encoding produced, for every length remainder")
    func roundTrip() {
        for count in 0..<40 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 251) }
            #expect(Base64URLDecoder.decode(Array(ValidationHarness.base64URL(bytes).utf8)) == bytes)
        }
    }

    @Test("uses - and _ rather than + and /")
    func alphabet() {
        #expect(Base64URLDecoder.decode(Array("-_8".utf8)) == [0xFB, 0xFF])
        #expect(Base64URLDecoder.decode(Array("+/8".utf8)) == nil)
    }

    @Test("refuses padding, foreign characters and impossible lengths", arguments: ["QQ==", "QQ=", "Q", "QUJD!", "QU JD", "QUJDR"])
    func refused(text: String) {
        #expect(Base64URLDecoder.decode(Array(text.utf8)) == nil)
    }
}
