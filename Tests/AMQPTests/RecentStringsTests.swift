import Testing
@testable import AMQP

/// Sharing the names every delivery repeats: no I/O.
@Suite struct RecentStringsTests {
    static func decode(_ text: String, with strings: inout RecentStrings) -> String {
        Array(text.utf8).withUnsafeBytes { strings.string($0) }
    }

    /// Whether two strings share one heap buffer (short strings have none and never do).
    static func sameStorage(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in b.withUTF8 { y in x.baseAddress == y.baseAddress } }
    }

    @Test func aRepeatedNameIsDecodedOnceAndShared() {
        var strings = RecentStrings()
        let first = Self.decode("bench-1234.apns.jobs", with: &strings)
        let second = Self.decode("bench-1234.apns.jobs", with: &strings)
        #expect(first == "bench-1234.apns.jobs" && second == first)
        #expect(Self.sameStorage(first, second))
        #expect(Self.decode("application/json", with: &strings) == "application/json")
    }

    @Test func shortEmptyAndDifferentNamesComeOutAsGiven() {
        var strings = RecentStrings()
        #expect(Self.decode("", with: &strings) == "")
        #expect(Self.decode("send", with: &strings) == "send")
        #expect(Self.decode("result.rejected.Unregistered", with: &strings) == "result.rejected.Unregistered")
        #expect(Self.decode("result.rejected.BadDeviceToken", with: &strings) == "result.rejected.BadDeviceToken")
        #expect(Self.decode("ré-sumé with ünïcode", with: &strings) == "ré-sumé with ünïcode")
        let invalid: [UInt8] = [0xFF, 0xFE] + Array("not UTF-8 at all".utf8)
        #expect(invalid.withUnsafeBytes { strings.string($0) } == String(decoding: invalid, as: UTF8.self))
    }

    @Test func onlyTheMostRecentNamesAreKept() {
        var strings = RecentStrings()
        let names = (0..<(RecentStrings.capacity * 3)).map { "a-rather-long-queue-name-\($0)" }
        for name in names { #expect(Self.decode(name, with: &strings) == name) }
        // Still correct after the oldest entries were replaced.
        for name in names.reversed() { #expect(Self.decode(name, with: &strings) == name) }
    }
}
