import Testing
@testable import MockAPNs

@Suite("JSON scanner")
struct JSONScannerTests {
    static func members(_ text: String) -> [String: JSONScalar]? {
        JSONScanner.scalarMembers(of: Array(text.utf8))
    }

    @Test("strings and integers are decoded; other values are only validated")
    func scalars() {
        let members = Self.members(#"{"s":"a\"b\\c\/\n\u00e9\ud83d\ude00","i":-42,"f":1.5,"e":1e3,"b":true,"n":null,"o":{"x":[1]}}"#)
        #expect(members?["s"] == .string("a\"b\\c/\né😀"))
        #expect(members?["i"] == .integer(-42))
        #expect(members?["f"] == .other)
        #expect(members?["e"] == .other)
        #expect(members?["b"] == .other)
        #expect(members?["n"] == .other)
        #expect(members?["o"] == .other)
        #expect(Self.members("{}") == [:])
    }

    @Test("an integer too big for 64 bits is not an integer")
    func overflow() {
        #expect(Self.members(#"{"i":99999999999999999999}"#)?["i"] == .other)
    }

    @Test("a repeated key is valid JSON, but ambiguous as a JWT member and so refused there")
    func repeatedKey() {
        #expect(JSONScanner.isObject(Array(#"{"a":1,"a":2}"#.utf8)))
        #expect(Self.members(#"{"a":1,"a":2}"#) == nil)
    }

    @Test("malformed objects and lone surrogates are refused", arguments: [
        "", "[]", #"{"a":"\ud83d"}"#, #"{"a":"\x"}"#, #"{"a":01}"#, #"{"a":-}"#, #"{"a":1.}"#,
        #"{"a":1e}"#, #"{a:1}"#, #"{"a" 1}"#, "{\"a\":\"\u{01}\"}", #"{"a":1} x"#, #"{"a":tru}"#,
    ])
    func refused(text: String) {
        #expect(Self.members(text) == nil)
        #expect(!JSONScanner.isObject(Array(text.utf8)))
    }

    @Test("nesting deeper than the limit is refused")
    func depth() {
        let shallow = String(repeating: "[", count: 62) + String(repeating: "]", count: 62)
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(JSONScanner.isObject(Array(#"{"a":\#(shallow)}"#.utf8)))
        #expect(!JSONScanner.isObject(Array(#"{"a":\#(deep)}"#.utf8)))
    }
}
