import JSON
import Testing

@Suite("Top-level members and their spans")
struct JSONObjectMembersTests {
    func read(_ text: String) -> JSONObjectReading {
        JSONReader.readObject(Array(text.utf8))
    }

    func span(_ name: String, _ text: String) -> String? {
        let members = read(text).members
        return members[name].map { String(decoding: members.bytes(of: $0), as: UTF8.self) }
    }

    @Test("spans are the values exactly as written, found while the document is validated")
    func spans() {
        let json = #"{"a":"x,}\"y","payload" : {"k":[1,"]}",{"z":null}]} ,"n":-1.5e3,"t":true}"#
        #expect(span("payload", json) == #"{"k":[1,"]}",{"z":null}]}"#)
        #expect(span("a", json) == #""x,}\"y""#)
        #expect(span("n", json) == "-1.5e3")
        #expect(span("t", json) == "true")
        #expect(span("missing", json) == nil)
    }

    @Test("names match by their bytes, as repeated names are refused: a canonically equivalent spelling is another name")
    func namesMatchByBytes() {
        // U+212A KELVIN SIGN is canonically equivalent to "K", so Swift's `==` calls "\u{212A}ey" and
        // "Key" equal; the reader holds both as two names.
        let kelvin = "{\"\u{212A}ey\":1,\"Key\":2}"
        #expect(read(kelvin).error == nil)
        #expect(span("Key", kelvin) == "2")
        #expect(span("Key", "{\"\u{212A}ey\":1}") == nil)
        #expect(span("\u{212A}ey", kelvin) == "1")
        // Both spellings of é in one object, each found by its own bytes ("e" and U+0301, then U+00E9).
        let accents = "{\"caf\u{65}\u{301}\":1,\"caf\u{E9}\":2}"
        #expect(span("caf\u{E9}", accents) == "2")
        #expect(span("caf\u{65}\u{301}", accents) == "1")
        // Of one length: two combining marks in either order (canonical ordering makes them equal).
        let marks = "{\"a\u{301}\u{327}\":1,\"a\u{327}\u{301}\":2}"
        #expect(span("a\u{327}\u{301}", marks) == "2")
        #expect(span("a\u{301}\u{327}", marks) == "1")
        // The same in an object too large to search in order, which is looked up by a table.
        let large = "{\"\u{212A}ey\":1,\"Key\":2," + (0..<40).map { "\"n\($0)\":\($0)" }.joined(separator: ",") + "}"
        #expect(span("Key", large) == "2")
        #expect(span("\u{212A}ey", large) == "1")
        #expect(span("n39", large) == "39")
    }

    @Test("values are decoded on demand, each by its kind")
    func decoding() throws {
        let members = read(#"{"s":"a\nb\u00e9","i":-42,"big":99999999999999999999,"f":1.5,"b":false,"z":null,"o":{}}"#).members
        #expect(members.count == 7)
        #expect(members["s"].flatMap(members.string) == "a\nbé")
        #expect(members["i"].flatMap(members.integer) == -42)
        #expect(members["big"].flatMap(members.integer) == nil, "beyond 64 bits is not an integer")
        #expect(members["big"].flatMap(members.double) == 1e20)
        #expect(members["f"].flatMap(members.double) == 1.5)
        #expect(members["f"].flatMap(members.integer) == nil)
        #expect(members["b"].flatMap(members.bool) == false)
        #expect(members["z"]?.kind == .null)
        #expect(members["o"]?.kind == .object)
        #expect(members["o"].flatMap(members.string) == nil, "a string accessor never reads another kind")
    }

    @Test("objects small enough to scan and large ones looked up by name find the same members", arguments: [1, 31, 32, 33, 200])
    func sizes(count: Int) {
        let json = "{" + (0..<count).map { #""key\#($0)":\#($0)"# }.joined(separator: ",") + "}"
        let members = read(json).members
        #expect(members.count == count)
        for probe in [0, count / 2, count - 1] {
            #expect(members["key\(probe)"].flatMap(members.integer) == Int64(probe))
        }
        #expect(members["key\(count)"] == nil)
        #expect(members["key"] == nil)
    }

    @Test("a key is found by its decoded text, so escapes cannot hide a member")
    func escapedKeys() {
        #expect(span("payload", #"{"pay\u006coad":{"aps":{}}}"#) == #"{"aps":{}}"#)
        #expect(read(#"{"pay\u006coad":1,"payload":2}"#).error?.problem == .duplicateKey("payload"))
    }

    @Test("on an error, the members read completely before it are kept")
    func partial() {
        let reading = JSONReader.readObject(Array(#"{"id":"job-7","payload":{"alert":""#.utf8) + [0xFF] + Array(#""}}"#.utf8))
        #expect(reading.error?.problem == .invalidUTF8)
        #expect(reading.members["id"].flatMap(reading.members.string) == "job-7")
        #expect(reading.members["payload"] == nil)
    }

    @Test("a document that is not an object is named as what it is, after its own syntax is checked")
    func notAnObject() {
        #expect(read("[1]").error == JSONSyntaxError(.notAnObject(.array), at: 0))
        #expect(read("[1,]").error?.problem == .unexpectedByte(UInt8(ascii: "]")))
        #expect(read("").error?.problem == .unexpectedEnd)
    }
}
