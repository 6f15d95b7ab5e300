import APNsCore
import Foundation
import Testing

@Suite("Base64url")
struct Base64URLTests {
    /// Foundation's base64, translated to the url alphabet and unpadded: the oracle.
    static func foundation(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.last == "=" { text.removeLast() }
        return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }

    @Test("encodes as Foundation does, and decodes back, for every length remainder")
    func roundTrip() {
        for count in 0..<40 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 251) }
            #expect(Base64URL.encode(bytes) == Self.foundation(bytes))
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }

    @Test("uses - and _ rather than + and /")
    func alphabet() {
        #expect(Base64URL.decode(Array("-_8".utf8)) == [0xFB, 0xFF])
        #expect(Base64URL.decode(Array("+/8".utf8)) == nil)
    }

    @Test("refuses padding, foreign characters and impossible lengths", arguments: ["QQ==", "QQ=", "Q", "QUJD!", "QU JD", "QUJDR"])
    func refused(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }
}
