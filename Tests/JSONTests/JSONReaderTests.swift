import JSON
import Testing

@Suite("Strict JSON reader")
struct JSONReaderTests {
    func parse(_ text: String) -> JSONValue? {
        try? JSONReader.parse(Array(text.utf8))
    }

    func problem(_ bytes: [UInt8]) -> JSONSyntaxError? {
        do {
            try JSONReader.validate(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test("values of every kind, with integers kept apart from other numbers")
    func values() {
        #expect(parse(#" {"a":1,"b":-2.5e3,"c":"x","d":true,"e":null,"f":[1,{"g":false}],"h":{}} "#) == .object([
            "a": .integer(1), "b": .number(-2500), "c": .string("x"), "d": .bool(true), "e": .null,
            "f": .array([.integer(1), .object(["g": .bool(false)])]), "h": .object([:]),
        ]))
        #expect(parse("[]") == .array([]))
        #expect(parse("0") == .integer(0))
        #expect(parse("-0") == .integer(0))
        #expect(parse("1.0") == .number(1))
        #expect(parse("99999999999999999999") == .number(1e20))
        #expect(parse("1e-400") == .number(0))
    }

    @Test("escapes, including surrogate pairs, decode to the right text; raw UTF-8 passes through")
    func escapes() {
        #expect(parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00\u0000""#) == .string("a\"b\\c/d\n\té😀\u{0}"))
        #expect(parse(#""plain ünïcödé 東 😀""#) == .string("plain ünïcödé 東 😀"))
        #expect(parse("\"\u{7F}\u{2028}\"") == .string("\u{7F}\u{2028}"))
    }

    @Test("each kind of mistake is named, at the byte where it is", arguments: [
        ("", JSONSyntaxError(.unexpectedEnd, at: 0)),
        ("{\"a\":1,}", JSONSyntaxError(.unexpectedByte(UInt8(ascii: "}")), at: 7)),
        ("[1,]", JSONSyntaxError(.unexpectedByte(UInt8(ascii: "]")), at: 3)),
        ("[01]", JSONSyntaxError(.invalidNumber, at: 1)),
        ("[-00]", JSONSyntaxError(.invalidNumber, at: 1)),
        ("[-]", JSONSyntaxError(.invalidNumber, at: 1)),
        ("[1.]", JSONSyntaxError(.invalidNumber, at: 1)),
        ("[1e400]", JSONSyntaxError(.numberOutOfRange, at: 1)),
        ("[-1" + String(repeating: "0", count: 400) + "]", JSONSyntaxError(.numberOutOfRange, at: 1)),
        ("[tru]", JSONSyntaxError(.unexpectedByte(UInt8(ascii: "]")), at: 4)),
        ("\"bad \\x\"", JSONSyntaxError(.invalidEscape, at: 5)),
        ("\"\\ud800\"", JSONSyntaxError(.loneSurrogate, at: 1)),
        ("\"\\udc00\"", JSONSyntaxError(.loneSurrogate, at: 1)),
        ("\"\\ud800\\u0041\"", JSONSyntaxError(.loneSurrogate, at: 1)),
        ("\"tab\there\"", JSONSyntaxError(.controlCharacterInString(0x09), at: 4)),
        ("{\"a\" 1}", JSONSyntaxError(.unexpectedByte(UInt8(ascii: "1")), at: 5)),
        ("{1:2}", JSONSyntaxError(.unexpectedByte(UInt8(ascii: "1")), at: 1)),
        ("[1] x", JSONSyntaxError(.trailingData, at: 4)),
        ("'single'", JSONSyntaxError(.unexpectedByte(UInt8(ascii: "'")), at: 0)),
        ("NaN", JSONSyntaxError(.unexpectedByte(UInt8(ascii: "N")), at: 0)),
        ("{\"a\":1,\"a\":2}", JSONSyntaxError(.duplicateKey("a"), at: 7)),
        ("[\"unterminated", JSONSyntaxError(.unexpectedEnd, at: 14)),
    ])
    func mistakes(text: String, expected: JSONSyntaxError) {
        #expect(problem(Array(text.utf8)) == expected, "\(text.debugDescription)")
    }

    @Test("strings must be UTF-8 (RFC 3629): overlong forms, surrogates, stray and missing bytes are refused", arguments: [
        [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF0, 0x80, 0x80, 0xAF], [0xF4, 0x90, 0x80, 0x80],
        [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xFE], [0x80], [0xBF], [0xC3], [0xE2, 0x82], [0xC3, 0x28], [0xE2, 0x28, 0xA1],
    ] as [[UInt8]])
    func invalidUTF8(sequence: [UInt8]) {
        let document = Array("[\"ab".utf8) + sequence + Array("cd\"]".utf8)
        #expect(problem(document) == JSONSyntaxError(.invalidUTF8, at: 4))
    }

    @Test("every valid UTF-8 form passes: 2, 3 and 4 bytes, at the edges of each range")
    func validUTF8() {
        for scalar in ["\u{80}", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}"] {
            #expect(parse("\"" + scalar + "\"") == .string(scalar))
        }
    }

    @Test("a string is read alike whatever its length and wherever in a word of eight bytes an escape, a non-ASCII character or a control character stands")
    func everyPosition() {
        // (as written inside the quotes, as read); nil: refused.
        let specials: [(String, String?)] = [
            (#"\""#, "\""), (#"\\"#, "\\"), (#"\n"#, "\n"), (#"\u00e9"#, "é"), ("é", "é"), ("€", "€"), ("😀", "😀"),
            ("\u{7F}", "\u{7F}"), ("~", "~"), (" ", " "), ("\u{1}", nil), ("\u{1F}", nil), ("\t", nil),
        ]
        for length in 1...17 {
            for position in 0..<length {
                for (written, read) in specials {
                    let before = String(repeating: "a", count: position)
                    let after = String(repeating: "z", count: length - position - 1)
                    let value = parse("[\"" + before + written + after + "\"]")
                    let expected = read.map { JSONValue.array([.string(before + $0 + after)]) }
                    #expect(value == expected, "\(written.debugDescription) at \(position) of \(length)")
                }
            }
            #expect(parse("[\"" + String(repeating: "a", count: length)) == nil, "no closing quote after \(length) bytes")
        }
    }

    @Test("a byte-order mark is refused (RFC 8259 §8.1), and so is anything but whitespace around the value")
    func byteOrderMark() {
        #expect(problem([0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == JSONSyntaxError(.byteOrderMark, at: 0))
        #expect(problem(Array("\u{0B}{}".utf8)) == JSONSyntaxError(.unexpectedByte(0x0B), at: 0))
        #expect(problem(Array("{}\u{0}".utf8)) == JSONSyntaxError(.trailingData, at: 2))
    }

    @Test("nesting is limited to 64 levels, in objects and arrays alike")
    func depth() {
        #expect(parse(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)) != nil)
        #expect(problem(Array((String(repeating: "[", count: 65) + String(repeating: "]", count: 65)).utf8)) == JSONSyntaxError(.tooDeep(limit: 64), at: 64))
        let objects = String(repeating: "{\"a\":", count: 65) + "1" + String(repeating: "}", count: 65)
        #expect(problem(Array(objects.utf8)) == JSONSyntaxError(.tooDeep(limit: 64), at: 64 * 5))
        // A hostile depth fails fast, without exhausting the stack.
        #expect(problem(Array(String(repeating: "[", count: 1_000_000).utf8)) == JSONSyntaxError(.tooDeep(limit: 64), at: 64))
    }

    @Test("a repeated key is refused at every depth, also when escapes spell it differently")
    func duplicateKeys() {
        #expect(problem(Array(#"{"pay\u006coad":1,"payload":2}"#.utf8)) == JSONSyntaxError(.duplicateKey("payload"), at: 18))
        #expect(problem(Array(#"{"a":{"b":1,"\u0062":2}}"#.utf8)) == JSONSyntaxError(.duplicateKey(nil), at: 12))
        #expect(problem(Array(#"{"a":{"b":1},"b":{"b":2}}"#.utf8)) == nil, "the same key in different objects is fine")
        #expect(problem(Array("{\"\u{7}\":1,\"\u{7}\":2}".utf8)) == JSONSyntaxError(.controlCharacterInString(7), at: 2))
    }

    /// U+212A KELVIN SIGN is canonically equivalent to `K`: two `String`s of them are equal, their bytes
    /// are not. The readers that keep members by bytes keep both; a tree keyed by `String` would have
    /// kept one of the two values without a word, so it refuses the document.
    @Test("keys that differ in bytes but are canonically equivalent: kept by the byte readers, refused by the tree")
    func canonicallyEquivalentKeys() throws {
        let document = Array("{\"K\":1,\"\u{212A}\":2}".utf8)
        #expect(problem(document) == nil)
        #expect(JSONReader.readObject(document).error == nil)
        #expect(throws: JSONSyntaxError(.equivalentKey(nil), at: 7)) { try JSONReader.parse(document) }
        let nested = Array("[{\"\u{212A}\":1,\"K\":2}]".utf8)
        #expect(throws: JSONSyntaxError(.equivalentKey("K"), at: 10)) { try JSONReader.parse(nested) }
        #expect(JSONSyntaxError(.equivalentKey("K"), at: 11).description == "key \"K\" at byte 11 is canonically equivalent to an earlier key of its object")
        #expect(try JSONReader.parse(Array(#"{"K":1,"k":2}"#.utf8)) == .object(["K": .integer(1), "k": .integer(2)]), "case still matters")
    }

    @Test("an object of many keys is checked for repeats in linear time, before and after the switch to a set")
    func manyKeys() {
        let keys = (0..<100_000).map { "\"k\($0)\":\($0)" }
        #expect(problem(Array(("{" + keys.joined(separator: ",") + "}").utf8)) == nil)
        let repeated = keys + ["\"k5\":0"]
        #expect(problem(Array(("{" + repeated.joined(separator: ",") + "}").utf8))?.problem == .duplicateKey("k5"))
        let early = Array(keys.prefix(10)) + ["\"k\\u0033\":0"]
        #expect(problem(Array(("{" + early.joined(separator: ",") + "}").utf8))?.problem == .duplicateKey(nil), "an escaped key is not echoed")
    }

    @Test("the error message names the problem and the byte, and never echoes garbage")
    func messages() {
        #expect(JSONSyntaxError(.invalidUTF8, at: 17).description == "invalid UTF-8 at byte 17")
        #expect(JSONSyntaxError(.duplicateKey("device_token"), at: 40).description == "duplicate key \"device_token\" at byte 40")
        #expect(JSONSyntaxError(.unexpectedByte(0x0A), at: 3).description == "unexpected byte 0x0A at byte 3")
        #expect(JSONSyntaxError(.unexpectedByte(UInt8(ascii: "x")), at: 3).description == "unexpected 'x' at byte 3")
        #expect(JSONSyntaxError(.notAnObject(.array), at: 0).description == "the document is an array, not an object")
    }

    @Test("validate reports the kind of the top-level value")
    func kinds() throws {
        #expect(try JSONReader.validate(Array(" {} ".utf8)) == .object)
        #expect(try JSONReader.validate(Array("[1]".utf8)) == .array)
        #expect(try JSONReader.validate(Array("\"s\"".utf8)) == .string)
        #expect(try JSONReader.validate(Array("null".utf8)) == .null)
    }
}
