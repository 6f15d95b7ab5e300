import Testing
@testable import HTTP2

@Suite("Header blocks (no I/O)")
struct HTTP2HeaderBlockTests {
    @Test("a block of headers refuses exactly what the rules refuse, with the same words", arguments: [
        [HTTP2Header(":path", "/a"), HTTP2Header("apns-collapse-id", "a\r\nb")],
        [HTTP2Header("Apns-Topic", "x")],
        [HTTP2Header("", "x")],
        [HTTP2Header("x-value", " padded")],
        [HTTP2Header("x-value", "inner\ttab"), HTTP2Header("x-other", "fine")],
        [HTTP2Header("x-value", "fine"), HTTP2Header("x-del", "a\u{7F}")],
    ])
    func sameRules(headers: [HTTP2Header]) {
        let expected = headers.lazy.compactMap(HTTP2HeaderRules.problem(with:)).first
        #expect(HTTP2HeaderBlock(headers).problem == expected)
        #expect(HTTP2HeaderBlock(headers).headers == headers, "fields come back as they went in")
    }

    @Test("a value trusted by its type is written as a checked one is, prefix and flags included")
    func trustedValues() {
        var checked = HTTP2HeaderBlock()
        checked.append(":path", prefix: "/3/device/", "00fd", neverIndexed: true)
        checked.append("authorization", "bearer a.b.c", neverIndexed: true)
        var trusted = HTTP2HeaderBlock()
        trusted.append(":path", prefix: "/3/device/", trusted: "00fd", neverIndexed: true)
        trusted.append("authorization", trusted: "bearer a.b.c", neverIndexed: true)
        #expect(trusted.headers == checked.headers)
        #expect(trusted.headers == [HTTP2Header(":path", "/3/device/00fd", neverIndexed: true), HTTP2Header("authorization", "bearer a.b.c", neverIndexed: true)])
        #expect(trusted.problem == nil)
    }

    @Test("removing fields after the template forgets their problem, but not the template's")
    func removal() {
        var block = HTTP2HeaderBlock([HTTP2Header(":method", "POST")])
        block.append("apns-collapse-id", "a\nb")
        #expect(block.problem != nil)
        block.removeFields(after: 1)
        #expect(block.problem == nil)
        block.append("apns-topic", "com.example.app")
        #expect(block.headers == [HTTP2Header(":method", "POST"), HTTP2Header("apns-topic", "com.example.app")])

        var refused = HTTP2HeaderBlock()
        refused.append(":authority", "host\r\n:1")
        refused.append("apns-topic", "fine")
        refused.removeFields(after: 1)
        #expect(refused.problem != nil, "a refused template field refuses every request built on it")
    }

    @Test("numbers are written in decimal, a path from its prefix and value", arguments: [Int64(0), 5, 10, 1_767_225_600, Int64.max, -42])
    func decimal(number: Int64) {
        var block = HTTP2HeaderBlock()
        block.append("apns-expiration", decimal: number)
        block.append(":path", prefix: "/3/device/", "ab01", neverIndexed: true)
        #expect(block.headers == [HTTP2Header("apns-expiration", String(number)), HTTP2Header(":path", "/3/device/ab01", neverIndexed: true)])
    }
}
