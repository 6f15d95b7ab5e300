import Testing
@testable import HTTP2

@Suite("Common received field names as literals")
struct KnownFieldTextTests {
    static let known = [
        ":status", ":method", ":scheme", ":authority", ":path", "apns-id", "apns-unique-id", "apns-request-id",
        "apns-channel-id", "retry-after", "content-type", "content-length", "authorization", "apns-topic",
        "apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id",
    ]

    @Test("each known name comes back as itself", arguments: known)
    func knownNames(name: String) {
        #expect(Self.lookUp(name) == name)
    }

    @Test("a name of a known length that differs in one byte, or in case, is not taken for a known one", arguments: known)
    func nearMisses(name: String) {
        var bytes = Array(name.utf8)
        bytes[bytes.count - 1] ^= 0x01
        #expect(Self.lookUp(String(decoding: bytes, as: UTF8.self)) == nil)
        #expect(Self.lookUp(name.uppercased()) == nil)
    }

    @Test("other names, and the empty one, are decoded as before", arguments: ["", "x-custom", "apns-idx", ":statu"])
    func otherNames(name: String) {
        #expect(Self.lookUp(name) == nil)
    }

    @Test("only the value 200 is a literal")
    func values() {
        var text = "200"
        #expect(text.withUTF8 { KnownFieldText.value($0) } == "200")
        text = "201"
        #expect(text.withUTF8 { KnownFieldText.value($0) } == nil)
        text = "2000"
        #expect(text.withUTF8 { KnownFieldText.value($0) } == nil)
    }

    private static func lookUp(_ name: String) -> String? {
        var name = name
        return name.withUTF8 { KnownFieldText.name($0) }
    }
}
