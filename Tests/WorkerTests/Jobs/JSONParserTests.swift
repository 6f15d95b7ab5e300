import Foundation
import Testing
@testable import Worker

@Suite("JSON parser")
struct JSONParserTests {
    func parse(_ text: String) -> JSONValue? {
        try? JSONParser.parse(Array(text.utf8))
    }

    @Test("values of every kind, with integers kept apart from other numbers")
    func values() {
        #expect(parse(#" {"a":1,"b":-2.5e3,"c":"x","d":true,"e":null,"f":[1,{"g":false}],"h":{}} "#) == .object([
            "a": .integer(1), "b": .number(-2500), "c": .string("x"), "d": .bool(true), "e": .null,
            "f": .array([.integer(1), .object(["g": .bool(false)])]), "h": .object([:]),
        ]))
        #expect(parse("[]") == .array([]))
        #expect(parse("0") == .integer(0))
        #expect(parse("1.0") == .number(1))
        #expect(parse("99999999999999999999") == .number(1e20))
    }

    @Test("escapes, including surrogate pairs, decode to the right text")
    func escapes() {
        #expect(parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\n\té😀"))
        #expect(parse(#""plain ünïcödé""#) == .string("plain ünïcödé"))
    }

    @Test("what RFC 8259 forbids is refused", arguments: [
        "", "{", "{\"a\":1,}", "[1,]", "01", "-", "1.", ".5", "1e", "tru", "nul", "\"unterminated", "\"bad \\x escape\"",
        "\"lone \\ud800 surrogate\"", "\"tab\there\"", "{\"a\" 1}", "{1:2}", "[1] x", "'single'", "NaN",
    ])
    func refused(text: String) {
        #expect(parse(text) == nil, "\(text.debugDescription)")
    }

    @Test("nesting is limited to 64 levels")
    func depth() {
        #expect(parse(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)) != nil)
        #expect(parse(String(repeating: "[", count: 65) + String(repeating: "]", count: 65)) == nil)
    }

    @Test("containers below the kept depth are checked just as strictly but come back empty")
    func keptDepth() {
        let document = #"{"id":"j","n":2,"payload":{"aps":{"alert":"hi","badge":3}},"list":[1,{"x":"y"}]}"#
        #expect((try? JSONParser.parse(Array(document.utf8), keptDepth: 1)) == .object([
            "id": .string("j"), "n": .integer(2), "payload": .object([:]), "list": .array([]),
        ]))
        for text in ["{\"payload\":{\"alert\":\"tab\there\"}}", #"{"payload":{"a":01}}"#, #"{"payload":{"a":[1,]}}"#, #"{"payload":{"a":"\ud800"}}"#] {
            #expect((try? JSONParser.parse(Array(text.utf8), keptDepth: 1)) == nil, "\(text)")
        }
        let deep = #"{"a":"# + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}"
        #expect((try? JSONParser.parse(Array(deep.utf8), keptDepth: 1)) == nil, "the nesting limit still holds")
    }

    @Test("agrees with Foundation on what is valid, for a corpus of documents")
    func agreesWithFoundation() throws {
        let corpus = [
            #"{"id":"x","payload":{"aps":{"alert":{"title":"t","body":"b"},"badge":3}},"n":[1,2.5,-0,true,null]}"#,
            #"{"a":"\u0041\u00df\u6771"}"#, "[[[[]]]]", #"{"k":1e-7}"#, #"{"k":"\ud83d\ude00"}"#,
        ]
        for text in corpus {
            let ours = parse(text) != nil
            let foundation = (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil
            #expect(ours == foundation, "\(text)")
        }
    }
}
