import Testing
@testable import APNsCore

@Suite("Device tokens")
struct DeviceTokenTests {
    static let typical = String(repeating: "ab", count: 32)

    @Test("tokens of any even length are accepted and normalised to lowercase", arguments: [1, 32, 54, 100, 512])
    func variableLength(bytes: Int) throws {
        let token = try DeviceToken(hex: String(repeating: "A1", count: bytes))
        #expect(token.byteCount == bytes)
        #expect(token.hexString == String(repeating: "a1", count: bytes))
    }

    @Test(
        "malformed tokens are BadDeviceToken",
        arguments: ["", "abc", "zz" + typical, typical + " ", "0x" + typical, String(repeating: "00", count: 513)]
    )
    func malformed(hex: String) {
        let error = #expect(throws: NotificationError.self) { try DeviceToken(hex: hex) }
        #expect(error?.code == .badDeviceToken)
        #expect(error?.code.reason == .badDeviceToken)
    }

    @Test("an odd-length token says so")
    func oddLength() {
        let error = #expect(throws: NotificationError.self) { try DeviceToken(hex: "abcde") }
        #expect(error?.detail.contains("odd number") == true)
    }

    @Test("descriptions show only a prefix")
    func redacted() throws {
        let token = try DeviceToken(hex: Self.typical)
        for text in ["\(token)", String(reflecting: token), token.redacted] {
            #expect(!text.contains(Self.typical))
            #expect(text.contains("abababab"))
        }
    }

    @Test("a validation error about a token never contains the token")
    func errorsDoNotLeakTokens() {
        let hex = String(repeating: "ab", count: 32) + "g"
        let error = #expect(throws: NotificationError.self) { try DeviceToken(hex: hex) }
        #expect(error.map { !"\($0)".contains(hex) } == true)
    }
}
