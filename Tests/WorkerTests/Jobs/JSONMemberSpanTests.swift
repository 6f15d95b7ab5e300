import Testing
@testable import Worker

@Suite("Raw JSON member spans")
struct JSONMemberSpanTests {
    func span(_ name: String, _ json: String) -> String? {
        let bytes = Array(json.utf8)
        return JSONMemberSpan.value(of: name, in: bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    @Test("finds nested values exactly, skipping strings that look like structure")
    func values() {
        let json = #"{"a":"x,}\"y","payload" : {"k":[1,"]}",{"z":null}]} ,"n":-1.5e3,"t":true}"#
        #expect(span("payload", json) == #"{"k":[1,"]}",{"z":null}]}"#)
        #expect(span("a", json) == #""x,}\"y""#)
        #expect(span("n", json) == "-1.5e3")
        #expect(span("t", json) == "true")
        #expect(span("missing", json) == nil)
    }

    @Test("a repeated key takes its last value; non-objects have no members")
    func edges() {
        #expect(span("p", #"{"p":1,"p":{"x":2}}"#) == #"{"x":2}"#)
        #expect(span("p", "[1]") == nil)
        #expect(span("p", "{}") == nil)
    }
}
