import Testing
@testable import HTTP2

@Suite("Header fields HTTP/2 can carry")
struct HTTP2HeaderRulesTests {
    @Test("values with NUL, CR, LF or other control characters, or whitespace at either end, are refused", arguments: [
        "a\r\nb", "a\nb", "a\rb", "nul\u{0}", "\u{1}", "del\u{7F}", " lead", "trail ", "\ttab", "tab\t",
    ])
    func badValues(value: String) {
        let problem = HTTP2HeaderRules.problem(with: HTTP2Header("apns-collapse-id", value))
        #expect(problem != nil)
        #expect(problem.map { !$0.contains(value) } == true, "the value is never quoted")
    }

    @Test("inner spaces and tabs, and any UTF-8, are fine in a value", arguments: ["a b", "a\tb", "東京 😀", "", "bearer x.y.z"])
    func goodValues(value: String) {
        #expect(HTTP2HeaderRules.problem(with: HTTP2Header("x-value", value)) == nil)
    }

    @Test("a control character anywhere in a long value is found, whatever its place in a word of eight bytes")
    func controlCharactersEverywhere() {
        let clean = "bearer " + String(repeating: "eyJhbGciOiJFUzI1NiJ9", count: 10)
        #expect(HTTP2HeaderRules.problem(with: HTTP2Header("authorization", clean)) == nil)
        let bytes = Array(clean.utf8)
        for position in 1..<(bytes.count - 1) {
            for control: UInt8 in [0x00, 0x0A, 0x0D, 0x1F, 0x7F] {
                var changed = bytes
                changed[position] = control
                #expect(HTTP2HeaderRules.problem(with: HTTP2Header("authorization", String(decoding: changed, as: UTF8.self))) != nil, "0x\(control) at \(position)")
            }
            var tabbed = bytes
            tabbed[position] = 0x09
            #expect(HTTP2HeaderRules.problem(with: HTTP2Header("authorization", String(decoding: tabbed, as: UTF8.self))) == nil, "an inner tab at \(position)")
        }
    }

    @Test("names are lowercase tokens; pseudo-headers start with one colon", arguments: ["Apns-Topic", "apns topic", "", ":", "a:b", "é"])
    func badNames(name: String) {
        #expect(HTTP2HeaderRules.problem(with: HTTP2Header(name, "v")) != nil)
    }

    @Test("a refused request leaves the session as it was: nothing sent, the next request goes through")
    func refusedAlone() throws {
        let pair = try SessionPair()
        let error = #expect(throws: HTTP2Error.self) {
            try pair.client.submitRequest(headers: SessionPair.request(extra: [HTTP2Header("apns-collapse-id", "a\r\nb")]), body: [1])
        }
        #expect(error?.isInvalidHeader == true)
        let stream = try pair.client.submitRequest(headers: SessionPair.request(extra: [HTTP2Header("apns-collapse-id", "ok")]), body: [1])
        try pair.exchange()
        #expect(pair.requests.map(\.streamID) == [stream])
        #expect(pair.client.openStreamCount == 1)
    }

    @Test("a server sees a malformed field a client sent anyway, and nghttp2 resets that stream")
    func serverSeesMalformed() throws {
        let pair = try SessionPair()
        let bad = try pair.client.submitUncheckedRequest(headers: SessionPair.request(extra: [HTTP2Header("apns-collapse-id", "a\r\nb")]), body: [1])
        try pair.exchange()
        #expect(pair.serverEvents.contains(.invalidHeader(streamID: bad, name: "apns-collapse-id")))
        #expect(pair.requests.isEmpty, "the request is not served with the field silently dropped")
        #expect(pair.clientClosures[bad] == .protocolError)
        #expect(pair.server.openStreamCount == 0)
    }
}
